package flame

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

var animDir = filepath.Join(corpusDir, "anim")

// animSeq loads a corpus animation transformed as flam3-animate's ss and
// qs transformed it for the reference frames.
func animSeq(t testing.TB, name string) *Animation {
	a, _, err := ParseAnimationFile(filepath.Join(animDir, "sequences", name+".flam3"), ParseOptions{})
	if err != nil {
		if os.IsNotExist(err) || os.IsNotExist(unwrapAll(err)) {
			t.Skipf("no flam3 animation corpus: %v", err)
		}
		t.Fatal(err)
	}
	qs := 0.5
	if name == "A3_hand" {
		qs = 1
	}
	a.Resize(0.4, qs)
	return a
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

// near6 compares a value printed by flam3 with 6 significant digits.
func near6(got, want float64) bool {
	return math.Abs(got-want) <= 2e-5*math.Max(1, math.Abs(want))
}

// TestInterpolateMatchesFlam3 compares the genome At(frame) gives with the
// genome flam3-animate interpolated at each reference frame (write_genome):
// linear, smooth (Catmull-Rom), log and linear affines, hsv, hsv_circular
// and sweep palettes, padded xforms, every xform field, the palette and
// the camera.
func TestInterpolateMatchesFlam3(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(animDir, "frames", "*.genome.flam3"))
	if len(files) == 0 {
		t.Skip("no flam3 animation corpus")
	}
	re := regexp.MustCompile(`([A-Z0-9a-z_]+)\.f(\d+)\.genome\.flam3$`)
	seqs := map[string]*Animation{}
	for _, f := range files {
		m := re.FindStringSubmatch(f)
		if m == nil {
			continue
		}
		a := seqs[m[1]]
		if a == nil {
			a = animSeq(t, m[1])
			seqs[m[1]] = a
		}
		frame, _ := strconv.Atoi(m[2])
		gs, _, err := ParseFile(f, ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := a.At(float64(frame))
		for _, d := range genomeDiffs(&got.Genome, gs[0]) {
			t.Errorf("%s frame %d: %s", m[1], frame, d)
		}
	}
}

func genomeDiffs(got, want *Genome) []string {
	var out []string
	chk := func(what string, g, w float64) {
		if !near6(g, w) && len(out) < 12 {
			out = append(out, fmt.Sprintf("%s = %.8g, flam3 %.8g", what, g, w))
		}
	}
	chk("width", float64(got.Width), float64(want.Width))
	chk("height", float64(got.Height), float64(want.Height))
	chk("center x", got.Center[0], want.Center[0])
	chk("center y", got.Center[1], want.Center[1])
	chk("scale", got.Scale, want.Scale)
	chk("zoom", got.Zoom, want.Zoom)
	chk("rotate", got.Rotate, want.Rotate)
	chk("quality", got.Quality, want.Quality)
	chk("brightness", got.Brightness, want.Brightness)
	chk("gamma", got.Gamma, want.Gamma)
	chk("vibrancy", got.Vibrancy, want.Vibrancy)
	chk("highlight_power", got.HighlightPower, want.HighlightPower)
	chk("estimator_radius", got.EstimatorRadius, want.EstimatorRadius)
	chk("estimator_curve", got.EstimatorCurve, want.EstimatorCurve)
	chk("temporal_samples", float64(got.TemporalSamples), float64(want.TemporalSamples))
	if len(got.Xforms) != len(want.Xforms) || (got.Final == nil) != (want.Final == nil) {
		return append(out, fmt.Sprintf("%d xforms (final %v), flam3 %d (final %v)", len(got.Xforms), got.Final != nil,
			len(want.Xforms), want.Final != nil))
	}
	xs := func(g *Genome) []Xform {
		x := append([]Xform(nil), g.Xforms...)
		if g.Final != nil {
			x = append(x, *g.Final)
		}
		return x
	}
	gx, wx := xs(got), xs(want)
	for i := range gx {
		a, b := &gx[i], &wx[i]
		p := fmt.Sprintf("xform %d ", i)
		if i < len(got.Xforms) {
			chk(p+"weight", a.Weight, b.Weight)
		}
		chk(p+"color", a.Color, b.Color)
		chk(p+"color_speed", a.ColorSpeed, b.ColorSpeed)
		chk(p+"opacity", a.Opacity, b.Opacity)
		if i < len(got.Xforms) { // flam3 does not print a final xform's animate
			chk(p+"animate", a.Animate, b.Animate)
		}
		for j := 0; j < 6; j++ {
			chk(fmt.Sprintf("%scoefs[%d]", p, j), a.Coefs[j], b.Coefs[j])
			chk(fmt.Sprintf("%spost[%d]", p, j), a.Post[j], b.Post[j])
		}
		var va, vb [NumVars]float64
		for _, v := range a.Vars {
			va[v.ID] += v.Weight
		}
		for _, v := range b.Vars {
			vb[v.ID] += v.Weight
		}
		for v := range va {
			chk(p+VarNames[v], va[v], vb[v])
			if vb[v] != 0 {
				for _, pid := range varParams[VarID(v)] {
					if !isPrecalc(pid) {
						chk(p+ParamNames[pid], a.Params[pid], b.Params[pid])
					}
				}
			}
		}
		for j := range a.Chaos {
			w := 1.0
			if j < len(b.Chaos) {
				w = b.Chaos[j]
			}
			chk(fmt.Sprintf("%schaos[%d]", p, j), a.Chaos[j], w)
		}
		if a.Chaos == nil {
			for j, w := range b.Chaos {
				chk(fmt.Sprintf("%schaos[%d]", p, j), 1, w)
			}
		}
	}
	for i := range got.Palette {
		for ch := 0; ch < 3; ch++ {
			// flam3 prints palette entries ×255 with 6 digits.
			g, w := got.Palette[i][ch]*255, want.Palette[i][ch]*255
			if math.Abs(g-w) > 2e-3 && len(out) < 12 {
				out = append(out, fmt.Sprintf("palette[%d][%d] = %.6g, flam3 %.6g", i, ch, g, w))
			}
		}
	}
	return out
}
