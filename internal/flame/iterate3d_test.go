package flame

import (
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Genomes without a 3D variation keep the 2D loop; one 3D variation in any
// xform, the final included, switches to the z-carrying one.
func TestChaosGameZOnlyFor3D(t *testing.T) {
	mk := func(final bool, ids ...VarID) *Genome {
		g := DefaultGenome()
		x := newXform(0)
		x.Weight = 1
		x.Vars = []VarTerm{{ID: VarLinear, Weight: 1}}
		g.Xforms = []Xform{x}
		y := newXform(1)
		for _, id := range ids {
			y.Vars = append(y.Vars, VarTerm{ID: id, Weight: 0.5})
		}
		if final {
			g.Final = &y
		} else {
			y.Weight = 1
			g.Xforms = append(g.Xforms, y)
		}
		return &g
	}
	for _, tc := range []struct {
		name string
		g    *Genome
		want bool
	}{
		{"flam3", mk(false, VarSpherical, VarJulia), false},
		{"2D plugin", mk(false, VarSineblur, VarEpispiralWf), false},
		{"julia3D", mk(false, VarJulia3D), true},
		{"final zcone", mk(true, VarZcone), true},
	} {
		p, err := newPlan(tc.g, Options{Width: 16, Height: 16})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.chaosGame(1).z3; got != tc.want {
			t.Errorf("%s: z3 = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Hand-derived values of the z semantics: the affine passes z through,
// 2D variations add nothing to z, flatten zeroes it after the others.
func TestApplyXform3DZ(t *testing.T) {
	x := newXform(0)
	x.Coefs = Affine{2, 0, 0, 1, 0.5, 0} // x' = 2x + 0.5, y' = y
	x.Vars = []VarTerm{{ID: VarLinear, Weight: 1}, {ID: VarHemisphere, Weight: 3}, {ID: VarZtranslate, Weight: 0.25}}
	Precalc(&x)
	s := rng.NewStream(1)
	// (tx, ty, tz) = (0.5, 0, 7); hemisphere: k = 3/√1.25.
	ox, oy, oz, ok := ApplyXform3D(&x, 0, 0, 7, &s)
	k := 3 / 1.118033988749895
	if !ok || !near12(ox, 0.5+0.5*k) || oy != 0 || !near12(oz, k+0.25) {
		t.Errorf("got (%g, %g, %g, %v), want (%g, 0, %g)", ox, oy, oz, ok, 0.5+0.5*k, k+0.25)
	}
	x.Vars = append(x.Vars, VarTerm{ID: VarFlatten, Weight: 1})
	Precalc(&x)
	if _, _, oz, _ = ApplyXform3D(&x, 0, 0, 7, &s); oz != 0 {
		t.Errorf("flatten: z = %g, want 0", oz)
	}
}

func near12(a, b float64) bool { d := a - b; return d < 1e-12 && d > -1e-12 }

// The GPU inputs refuse an xform the kernels cannot run (here synth in
// mode 1005 after another variation: it replaces the sum, which its device
// code does not) by name rather than drop the variation.
func TestGPUInputsRefusePluginVars(t *testing.T) {
	g := DefaultGenome()
	x := newXform(0)
	x.Weight = 1
	x.Vars = []VarTerm{{ID: VarLinear, Weight: 1}, {ID: VarSynth, Weight: 0.5}}
	x.Params[PSynthMode] = 1005
	g.Xforms = []Xform{x}
	p, err := newPlan(&g, Options{Width: 16, Height: 16})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = p.gpuInputs(p.chaosGame(1))
	if err == nil || !strings.Contains(err.Error(), "synth") {
		t.Fatalf("err = %v, want one naming synth", err)
	}
	if !genomeUsesPluginVars(&g) {
		t.Error("genomeUsesPluginVars = false")
	}
}

// The GPU xform has no id for flatten (a no-op where z stays 0; the flame3d
// family takes it as gpuXform.Flatten): it is dropped, so such an xform goes
// up exactly as the same xform without it (same IDs, linear_only, params).
// flatten is the only variation the kernels lack since 3d5's ports, so
// gpuVarTerms' dropping of zero-weight terms they lack has no other subject.
func TestGPUInputsDropCPUOnlyTerms(t *testing.T) {
	gpuOf := func(vars ...VarTerm) gpuXform {
		t.Helper()
		g := DefaultGenome()
		x := newXform(0)
		x.Weight = 1
		x.Vars = vars
		x.Params[PCurl3DCx], x.Params[PJulia3DPower] = 3, 5 // CPU-only slots: never on the GPU
		g.Xforms = []Xform{x}
		p, err := newPlan(&g, Options{Width: 16, Height: 16})
		if err != nil {
			t.Fatal(err)
		}
		_, xs, err := p.gpuInputs(p.chaosGame(1))
		if err != nil {
			t.Fatal(err)
		}
		return xs[0]
	}
	want := gpuOf(VarTerm{ID: VarLinear, Weight: 1})
	got := gpuOf(VarTerm{ID: VarLinear, Weight: 1}, VarTerm{ID: VarFlatten, Weight: 1})
	if got != want {
		t.Errorf("GPU xform with flatten:\n%+v\nwant\n%+v", got, want)
	}
	if got.NVars != 1 || got.LinearOnly != 1 {
		t.Errorf("NVars = %d, LinearOnly = %d, want 1, 1", got.NVars, got.LinearOnly)
	}
}
