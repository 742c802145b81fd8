package flame

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteAnimation writes keyframes as a flam3 animation file (<sequence>
// of <flame> elements with times), in the attributes flam3_print writes,
// numbers in the shortest form that reads back exactly. flam3-animate and
// ParseAnimation both read it.
func WriteAnimation(w io.Writer, keys []*AnimGenome) error {
	return WriteAnimationEach(w, func(emit func(*AnimGenome) error) error {
		for _, k := range keys {
			if err := emit(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteAnimationEach is WriteAnimation of the keyframes each hands to emit,
// written as they come (SequenceEach's): none is held. A write error ends
// each through emit's error.
func WriteAnimationEach(w io.Writer, each func(emit func(*AnimGenome) error) error) error {
	ew := &errWriter{w: w}
	bw := bufio.NewWriter(ew)
	fmt.Fprintln(bw, `<sequence version="procgen">`)
	err := each(func(k *AnimGenome) error {
		writeFlame(bw, k, num)
		return ew.err
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(bw, `</sequence>`)
	return bw.Flush()
}

// errWriter keeps the first write error, so a long stream stops at it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// numFormat writes one number of a genome.
type numFormat func(float64) string

// num is the shortest form that reads back exactly.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// list writes numbers separated by spaces.
func (f numFormat) list(v ...float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = f(x)
	}
	return strings.Join(s, " ")
}

func attrEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), `"`, "&quot;")
}

var (
	temporalNames = [...]string{TemporalBox: "box", TemporalGaussian: "gaussian", TemporalExp: "exp"}
	interpNames   = [...]string{InterpLog: "log", InterpLinear: "linear", InterpCompat: "old", InterpOlder: "older"}
	paletteInterp = [...]string{PaletteHSVCircular: "hsv_circular", PaletteHSV: "hsv", PaletteSweep: "sweep", PaletteRGB: "rgb"}
)

func filterShapeName(s FilterShape) string { return nameOf(FilterShapeNames, s, "gaussian") }

// nameOf is the attribute value names maps to v, or none where no name
// does (the maps are one name per value).
func nameOf[T comparable](names map[string]T, v T, none string) string {
	for name, w := range names {
		if w == v {
			return name
		}
	}
	return none
}

func writeFlame(w *bufio.Writer, k *AnimGenome, f numFormat) {
	fmt.Fprintf(w, `<flame time="%s"`, f(k.Time))
	if k.Name != "" {
		fmt.Fprintf(w, ` name="%s"`, attrEscape(k.Name))
	}
	fmt.Fprintf(w, ` size="%d %d" center="%s" scale="%s"`, k.Width, k.Height, f.list(k.Center[0], k.Center[1]), f(k.Scale))
	if k.Zoom != 0 {
		fmt.Fprintf(w, ` zoom="%s"`, f(k.Zoom))
	}
	fmt.Fprintf(w, ` rotate="%s" supersample="%d" filter="%s" filter_shape="%s"`, f(k.Rotate), k.Supersample,
		f(k.FilterRadius), filterShapeName(k.FilterShape))
	if k.SpatialFilterKernel != KernelNone {
		indicator := 0
		if k.SpatialFilterIndicator {
			indicator = 1
		}
		// JWildfire's filter, as JWildfire writes it; flam3 ignores these.
		fmt.Fprintf(w, ` filter_type="%s" filter_kernel="%s" filter_indicator="%d" filter_sharpness="%s" filter_low_density="%s"`,
			k.SpatialFilteringType, k.SpatialFilterKernel, indicator,
			f(k.SpatialFilterSharpness), f(k.SpatialFilterLowDensity))
	}
	fmt.Fprintf(w, ` temporal_filter_type="%s"`, temporalNames[k.TemporalFilter])
	if k.TemporalFilter == TemporalExp {
		fmt.Fprintf(w, ` temporal_filter_exp="%s"`, f(k.TemporalFilterExp))
	}
	fmt.Fprintf(w, ` temporal_filter_width="%s" quality="%s" passes="%d" temporal_samples="%d"`,
		f(k.TemporalFilterWidth), f(k.Quality), k.Passes, k.TemporalSamples)
	fmt.Fprintf(w, ` background="%s" brightness="%s" gamma="%s" highlight_power="%s" vibrancy="%s"`,
		f.list(k.Background[:]...), f(k.Brightness), f(k.Gamma), f(k.HighlightPower), f(k.Vibrancy))
	fmt.Fprintf(w, ` estimator_radius="%s" estimator_minimum="%s" estimator_curve="%s" gamma_threshold="%s"`,
		f(k.EstimatorRadius), f(k.EstimatorMinimum), f(k.EstimatorCurve), f(k.GammaThreshold))
	mode := "step"
	if k.PaletteMode == PaletteLinear {
		mode = "linear"
	}
	fmt.Fprintf(w, ` palette_mode="%s"`, mode)
	if k.Smooth {
		fmt.Fprint(w, ` interpolation="smooth"`)
	}
	fmt.Fprintf(w, ` interpolation_type="%s" palette_interpolation="%s"`, interpNames[k.InterpType], paletteInterp[k.PaletteInterp])
	if k.PaletteInterp == PaletteHSVCircular && k.HSVRGBBlend != 0 {
		fmt.Fprintf(w, ` hsv_rgb_palette_blend="%s"`, f(k.HSVRGBBlend))
	}
	if k.Fuse != DefaultFuse { // Fractorium's; flam3 reads none and uses 15
		fmt.Fprintf(w, ` fuse="%d"`, k.Fuse)
	}
	writeCamera(w, &k.Camera, f)
	fmt.Fprintln(w, ">")
	for i := range k.Xforms {
		writeXform(w, &k.Xforms[i], false, len(k.Xforms), f)
	}
	if k.Final != nil {
		writeXform(w, k.Final, true, 0, f)
	}
	for i, c := range k.Palette {
		if c[3] == 1 {
			fmt.Fprintf(w, "   <color index=\"%d\" rgb=\"%s\"/>\n", i, f.list(c[0]*255, c[1]*255, c[2]*255))
		} else {
			fmt.Fprintf(w, "   <color index=\"%d\" rgba=\"%s\"/>\n", i, f.list(c[0]*255, c[1]*255, c[2]*255, c[3]*255))
		}
	}
	fmt.Fprintln(w, "</flame>")
}

func writeXform(w *bufio.Writer, x *Xform, final bool, nstd int, f numFormat) {
	if final {
		fmt.Fprintf(w, `   <finalxform color="%s" color_speed="%s"`, f(x.Color), f(x.ColorSpeed))
	} else {
		fmt.Fprintf(w, `   <xform weight="%s" color="%s" color_speed="%s" animate="%s"`, f(x.Weight), f(x.Color),
			f(x.ColorSpeed), f(x.Animate))
	}
	var active [NumVars]bool
	for _, v := range x.Vars {
		fmt.Fprintf(w, ` %s="%s"`, VarNames[v.ID], f(v.Weight))
		active[v.ID] = true
	}
	for v := VarID(0); v < NumVars; v++ {
		if !active[v] {
			continue
		}
		for _, p := range varParams[v] {
			if !isPrecalc(p) {
				fmt.Fprintf(w, ` %s="%s"`, ParamNames[p], f(x.Params[p]))
			}
		}
	}
	if active[VarFlower] { // flam3_copy_params misses flower_holes; it is a parameter all the same
		fmt.Fprintf(w, ` flower_holes="%s"`, f(x.Params[PFlowerHoles]))
	}
	writeStages(w, x, f)
	c := x.Coefs
	fmt.Fprintf(w, ` coefs="%s"`, f.list(c[:]...))
	if !x.Post.IsIdentity() {
		fmt.Fprintf(w, ` post="%s"`, f.list(x.Post[:]...))
	}
	if !final && x.Chaos != nil {
		row := make([]float64, nstd)
		for j := range row {
			row[j] = 1
			if j < len(x.Chaos) {
				row[j] = x.Chaos[j]
			}
		}
		fmt.Fprintf(w, ` chaos="%s"`, f.list(row...))
	}
	fmt.Fprintf(w, ` opacity="%s"/>`+"\n", f(x.Opacity))
}
