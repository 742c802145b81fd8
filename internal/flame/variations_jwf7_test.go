package flame

import (
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

func TestJWF7Symmetry(t *testing.T) {
	type tc struct {
		name       string
		id         VarID
		w          float64
		params     map[ParamID]float64
		in         [3]float64
		keep, flip [3]float64 // outcome for u < ½ and u ≥ ½ (point: by k)
		turns      [][3]float64
	}
	cases := []tc{
		// axis x through 0.25, w 1 (half 0.5): 0.25 + 0.75 + 0.5, or 0.25 − 0.75 − 0.5.
		{name: "axis x", id: VarAxisSymmetryWf, w: 1, params: map[ParamID]float64{PAxisSymmetryWfRotation: 0},
			in: [3]float64{1, 2, 0.3}, keep: [3]float64{1.5, 2, 0.3}, flip: [3]float64{-1, 2, 0.3}},
		// axis y through 0.5, rotation 90 (each copy turned ±90° about (0.25, 0.5)):
		// keep: y 2.5, d = (0.75, 2) → (0.25 + 2, 0.5 − 0.75);
		// flip: y −1.5, d = (0.75, −2) → (0.25 + 2, 0.5 + 0.75).
		{name: "axis y turned", id: VarAxisSymmetryWf, w: 1, params: map[ParamID]float64{PAxisSymmetryWfAxis: 1, PAxisSymmetryWfRotation: 90},
			in: [3]float64{1, 2, 0}, keep: [3]float64{2.25, -0.25, 0}, flip: [3]float64{2.25, 1.25, 0}},
		// axis z through 0.5, w 2 (half 1): 0.5 + 2.5 + 1, or 0.5 − 2.5 − 1.
		{name: "axis z", id: VarAxisSymmetryWf, w: 2, params: map[ParamID]float64{PAxisSymmetryWfAxis: 2, PAxisSymmetryWfRotation: 0},
			in: [3]float64{1, 2, 3}, keep: [3]float64{1, 2, 4}, flip: [3]float64{1, 2, -3}},
		// order 4 about the origin: (1, 0) turned by −k·90°.
		{name: "point", id: VarPointSymmetryWf, w: 1, params: map[ParamID]float64{PPointSymmetryWfCentreX: 0, PPointSymmetryWfCentreY: 0,
			PPointSymmetryWfOrder: 4}, in: [3]float64{1, 0, 0.5},
			turns: [][3]float64{{1, 0, 0.5}, {0, -1, 0.5}, {-1, 0, 0.5}, {0, 1, 0.5}}},
		// w ½ scales the offset from the centre (0.25, 0.5), order 1.
		{name: "point scaled", id: VarPointSymmetryWf, w: 0.5, params: map[ParamID]float64{PPointSymmetryWfOrder: 1},
			in: [3]float64{1.25, 1.5, 0}, turns: [][3]float64{{0.75, 1, 0}}},
	}
	for _, c := range cases {
		x := newXform(0)
		for id, v := range c.params {
			x.Params[id] = v
		}
		Precalc(&x)
		for seed := range uint64(16) {
			r := rng.NewStream(rng.Key(7, seed))
			u := r
			draw := u.Float64()
			gx, gy, gz := stage(StageTerm{Post: true, ID: c.id, Weight: c.w}, c.in[0], c.in[1], c.in[2], &x.Coefs, &x.Params, &r)
			want := c.keep
			switch {
			case c.turns != nil:
				want = c.turns[int(draw*float64(len(c.turns)))]
			case draw >= 0.5:
				want = c.flip
			}
			if got := [3]float64{gx, gy, gz}; !near3(got, want, 1e-12) {
				t.Errorf("%s (u %.3f): %v -> %v, want %v", c.name, draw, c.in, got, want)
			}
			if r != u {
				t.Errorf("%s: not one draw", c.name)
			}
		}
	}
}

// A colour shift, which procgen cannot apply, is reported (and refused
// with --strict); without one the stage is honoured silently.
func TestJWF7SymmetryColourShift(t *testing.T) {
	for _, c := range []struct {
		xf   string
		warn bool
	}{
		{`linear="1" post_point_symmetry_wf="1" post_point_symmetry_wf_order="5" post_point_symmetry_wf_colorshift="0.0"`, false},
		{`linear="1" post_point_symmetry_wf="1" post_point_symmetry_wf_colorshift="0.2"`, true},
		{`linear="1" post_axis_symmetry_wf="0.3" post_axis_symmetry_wf_axis="1" post_axis_symmetry_wf_x1colorshift="0.25"`, true},
	} {
		gs, ws, err := Parse(strings.NewReader(stageFlame(c.xf)), "s.flame", ParseOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.xf, err)
		}
		if n := len(gs[0].Xforms[0].Stages); n != 1 {
			t.Errorf("%s: %d stage terms, want 1", c.xf, n)
		}
		warned := false
		for _, w := range ws {
			warned = warned || strings.Contains(w.Msg, "symmetry_wf")
		}
		if warned != c.warn {
			t.Errorf("%s: warned %v, want %v (%v)", c.xf, warned, c.warn, ws)
		}
		_, _, err = Parse(strings.NewReader(stageFlame(c.xf)), "s.flame", ParseOptions{Strict: true})
		if (err != nil) != c.warn {
			t.Errorf("%s --strict: %v", c.xf, err)
		}
	}
	gs, _, err := Parse(strings.NewReader(stageFlame(`linear="1" post_point_symmetry_wf="1" post_point_symmetry_wf_order="5"`)), "s.flame", ParseOptions{})
	if err != nil || gs[0].Xforms[0].Params[PPointSymmetryWfOrder] != 5 {
		t.Errorf("order not read: %v", err)
	}
}
