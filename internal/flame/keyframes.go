package flame

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/procgen-dev/procgen/internal/input"
)

// InterpType is flam3's interpolation_type: how affine coefficients move
// between keyframes.
type InterpType int

const (
	InterpLog    InterpType = iota // polar form, magnitudes in log space (flam3's default)
	InterpLinear                   // coefficients mixed directly
	InterpCompat                   // "old": linear, gen-202 era padding and rotation rules
	InterpOlder                    // "older": as compat
)

// PaletteInterp is flam3's palette_interpolation.
type PaletteInterp int

const (
	PaletteHSVCircular PaletteInterp = iota // hsv, the first hue taking the short way (default)
	PaletteHSV                              // hsv, hues mixed as numbers
	PaletteSweep                            // entries switch from one palette to the next
	PaletteRGB                              // rgb mixed directly
)

// TemporalFilter is flam3's temporal_filter_type: the weight of each
// temporal sample of a motion-blurred frame.
type TemporalFilter int

const (
	TemporalBox TemporalFilter = iota
	TemporalGaussian
	TemporalExp
)

// AnimGenome is a keyframe of a flam3 animation, or the genome interpolated
// at some time: a genome plus the attributes only animations read.
type AnimGenome struct {
	Genome
	Time          float64
	Smooth        bool // interpolation="smooth": Catmull-Rom from this keyframe on
	InterpType    InterpType
	PaletteInterp PaletteInterp
	// HSVRGBBlend mixes rgb into hsv_circular palette interpolation (0..1).
	HSVRGBBlend         float64
	TemporalFilter      TemporalFilter
	TemporalFilterWidth float64
	TemporalFilterExp   float64

	line int // where the keyframe starts in its file, for messages
}

// Animation is the keyframes of a flam3 animation file, sorted by time.
type Animation struct {
	Keys []*AnimGenome
}

// ErrAnimation is wrapped by errors for an animation file that cannot be
// animated as written (one keyframe, keyframes out of order ...).
var ErrAnimation = errors.New("invalid animation")

// ParseAnimationFile reads a flam3 animation file; see ParseAnimation.
func ParseAnimationFile(path string, opts ParseOptions) (*Animation, []Warning, error) {
	return ParseAnimationFileContext(context.Background(), path, opts)
}

// ParseAnimationFileContext is ParseAnimationFile whose read of path
// (bounded as every genome file is) stops when ctx ends.
func ParseAnimationFileContext(ctx context.Context, path string, opts ParseOptions) (*Animation, []Warning, error) {
	data, err := input.ReadFile(ctx, path, input.Genome)
	if err != nil {
		return nil, nil, fmt.Errorf("flame: %w", err)
	}
	return ParseAnimation(data, path, opts)
}

// ParseAnimation reads the keyframes of a flam3 animation: every <flame>
// with its `time` and animation attributes. As flam3-animate does, it
// refuses keyframes whose times do not increase, turns "smooth" on the
// first and second-to-last keyframes into linear, unwraps consecutive
// rotate values to within 180 degrees, and gives every keyframe the first
// one's size. An animation needs at least two keyframes.
func ParseAnimation(data []byte, filename string, opts ParseOptions) (*Animation, []Warning, error) {
	if filename == "" {
		filename = "<input>"
	}
	keys, warns, err := ParseAnimGenomes(data, filename, opts)
	if err != nil {
		return nil, warns, err
	}
	warn := func(i int, format string, args ...any) {
		warns = append(warns, Warning{File: filename, Line: keys[i].line, Flame: keys[i].Name, Msg: fmt.Sprintf(format, args...)})
	}
	bad := func(i int, format string, args ...any) error {
		return fmt.Errorf("flame: %s:%d: %w: %s", filename, keys[i].line, ErrAnimation, fmt.Sprintf(format, args...))
	}
	if len(keys) < 2 {
		return nil, warns, bad(0, "one keyframe: an animation needs at least two <flame> elements with times")
	}
	a := &Animation{}
	for i, k := range keys {
		if i > 0 && !(k.Time > a.Keys[i-1].Time) {
			return nil, warns, bad(i, "keyframes must be in increasing time order, but time %g follows %g", k.Time, a.Keys[i-1].Time)
		}
		a.Keys = append(a.Keys, k)
	}
	n := len(a.Keys)
	for _, i := range []int{0, n - 2} {
		if a.Keys[i].Smooth {
			warn(i, "smooth interpolation cannot be used on the first or last segment: linear")
			a.Keys[i].Smooth = false
		}
	}
	for i := 1; i < n; i++ {
		prev, k := a.Keys[i-1], a.Keys[i]
		if prev.InterpType != InterpCompat && prev.InterpType != InterpOlder {
			k.Rotate = unwrapDegrees(k.Rotate, prev.Rotate)
		}
		if k.Width != a.Keys[0].Width || k.Height != a.Keys[0].Height {
			warn(i, "size %dx%d differs from the first keyframe's: %dx%d used", k.Width, k.Height, a.Keys[0].Width, a.Keys[0].Height)
			k.Width, k.Height = a.Keys[0].Width, a.Keys[0].Height
		}
	}
	return a, warns, nil
}

// ParseAnimGenomes reads every <flame> of a document as Parse does, with
// its animation attributes (time, interpolation, interpolation_type,
// palette_interpolation, hsv_rgb_palette_blend, temporal filter).
func ParseAnimGenomes(data []byte, filename string, opts ParseOptions) ([]*AnimGenome, []Warning, error) {
	gs, warns, err := Parse(bytes.NewReader(data), filename, opts)
	if err != nil {
		return nil, warns, err
	}
	attrs, err := flameAttrs(opts.Context, data)
	if ctx := opts.Context; ctx != nil && ctx.Err() != nil {
		return nil, warns, ctx.Err()
	}
	if err != nil || len(attrs) != len(gs) {
		return nil, warns, fmt.Errorf("flame: %s: cannot read the animation attributes: %v", filename, err)
	}
	keys := make([]*AnimGenome, len(gs))
	for i, g := range gs {
		k := &AnimGenome{Genome: *g, TemporalFilterWidth: 1, line: attrs[i].line}
		warn := func(f string, args ...any) {
			warns = append(warns, Warning{File: filename, Line: attrs[i].line, Flame: g.Name, Msg: fmt.Sprintf(f, args...)})
		}
		if err := k.setAttrs(attrs[i].attrs, warn); err != nil {
			return nil, warns, fmt.Errorf("flame: %s:%d: %w: %v", filename, attrs[i].line, ErrAnimation, err)
		}
		keys[i] = k
	}
	return keys, warns, nil
}

// unwrapDegrees moves r by whole turns to within 180 degrees of prev, as
// flam3's parser does one turn at a time (which this repeats for nearby
// values, so results match flam3's to the bit; far ones jump at once).
func unwrapDegrees(r, prev float64) float64 {
	if d := math.Abs(r - prev); d > 360*64 {
		r -= 360 * math.Round((r-prev)/360)
	}
	for i := 0; r < prev-180 && i < 256; i++ {
		r += 360
	}
	for i := 0; r > prev+180 && i < 256; i++ {
		r -= 360
	}
	return r
}

func (k *AnimGenome) setAttrs(attrs []xml.Attr, warn func(string, ...any)) error {
	for _, at := range attrs {
		v := strings.TrimSpace(at.Value)
		var err error
		switch at.Name.Local {
		case "time":
			k.Time, err = parseFloat(v)
			if err == nil && (math.IsNaN(k.Time) || math.IsInf(k.Time, 0)) {
				return fmt.Errorf("time %q must be a finite number", at.Value)
			}
		case "interpolation":
			k.Smooth = v == "smooth"
		case "interpolation_type", "interpolation_space":
			switch v {
			case "log":
				k.InterpType = InterpLog
			case "linear":
				k.InterpType = InterpLinear
			case "old":
				k.InterpType = InterpCompat
			case "older":
				k.InterpType = InterpOlder
			default:
				warn("unknown interpolation_type %q ignored", v)
			}
		case "palette_interpolation":
			switch v {
			case "hsv":
				k.PaletteInterp = PaletteHSV
			case "sweep":
				k.PaletteInterp = PaletteSweep
			case "hsv_circular":
				k.PaletteInterp = PaletteHSVCircular
			case "rgb":
				k.PaletteInterp = PaletteRGB
			default:
				warn("unknown palette_interpolation %q ignored", v)
			}
		case "hsv_rgb_palette_blend":
			k.HSVRGBBlend, err = parseFloat(v)
		case "temporal_filter_type":
			switch v {
			case "box":
				k.TemporalFilter = TemporalBox
			case "gaussian":
				k.TemporalFilter = TemporalGaussian
			case "exp":
				k.TemporalFilter = TemporalExp
			default:
				warn("unknown temporal_filter_type %q: box", v)
				k.TemporalFilter = TemporalBox
			}
		case "temporal_filter_width":
			k.TemporalFilterWidth, err = parseFloat(v)
		case "temporal_filter_exp":
			k.TemporalFilterExp, err = parseFloat(v)
		}
		if err != nil {
			return fmt.Errorf("bad %s value %q", at.Name.Local, at.Value)
		}
	}
	for _, f := range []float64{k.HSVRGBBlend, k.TemporalFilterWidth, k.TemporalFilterExp} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("temporal filter and palette blend settings must be finite")
		}
	}
	if msg, _ := checkRange("temporal_filter_width", k.TemporalFilterWidth); msg != "" {
		return errors.New(msg)
	}
	return nil
}

type flameStart struct {
	line  int
	attrs []xml.Attr
}

// flameAttrs lists the attributes of every <flame> start tag in document
// order, the order in which Parse returns the genomes.
func flameAttrs(ctx context.Context, data []byte) ([]flameStart, error) {
	d := newDecoder(bytes.NewReader(data))
	var out []flameStart
	for n := 1; ; n++ {
		if ctx != nil && n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "flame" {
			out = append(out, flameStart{line: line, attrs: se.Copy().Attr})
		}
	}
}

// Span is the range of keyframe times.
func (a *Animation) Span() (first, last float64) {
	return a.Keys[0].Time, a.Keys[len(a.Keys)-1].Time
}

// Resize applies a size and quality change to every keyframe as
// flam3-animate's ss and qs do: size and scale times ss (sizes truncated),
// quality times qs. Zero leaves that part alone.
func (a *Animation) Resize(ss, qs float64) {
	for _, k := range a.Keys {
		if ss > 0 {
			k.Width = int(float64(k.Width) * ss)
			k.Height = int(float64(k.Height) * ss)
			k.Scale *= ss
		}
		if qs > 0 {
			k.Quality *= qs
		}
	}
}

// Override applies `flame render`-style options to every keyframe: a new
// width and/or height (the scale follows so the framing stays, the other
// side keeping the first keyframe's aspect), an absolute quality and
// supersample. The result is checked like a parsed genome.
func (a *Animation) Override(o Options) error {
	k0 := a.Keys[0]
	w, h := k0.Width, k0.Height
	factor := 1.0
	switch {
	case o.Width > 0 && o.Height > 0:
		factor = float64(o.Width) / float64(w)
		w, h = o.Width, o.Height
	case o.Width > 0:
		factor = float64(o.Width) / float64(w)
		w, h = o.Width, max(1, int(math.Round(float64(h)*factor)))
	case o.Height > 0:
		factor = float64(o.Height) / float64(h)
		w, h = max(1, int(math.Round(float64(w)*factor))), o.Height
	}
	for _, k := range a.Keys {
		k.Width, k.Height = w, h
		k.Scale *= factor
		if o.Quality > 0 {
			k.Quality = o.Quality
		}
		if o.Supersample > 0 {
			k.Supersample = o.Supersample
		}
		if err := k.Genome.Validate(); err != nil {
			return err
		}
	}
	return nil
}
