package flame

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The plugin genome of the CPU-vs-GPU render test goes to the GPU whole:
// linear3D becomes linear (an xform of it alone stays linear_only), zscale
// and flatten drop out, the ported variations keep their IDs and their
// parameters land at the GPU index the header names.
func TestGPUInputsPluginGenome(t *testing.T) {
	gs, _, err := ParseFile("../../testdata/flame/plugins.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	if genomeUsesPluginVars(g) {
		t.Fatal("genomeUsesPluginVars = true: the genome would render on the CPU")
	}
	p, err := newPlan(g, Options{Width: 64, Height: 64})
	if err != nil {
		t.Fatal(err)
	}
	_, xs, err := p.gpuInputs(p.chaosGame(1))
	if err != nil {
		t.Fatal(err)
	}
	ids := func(x gpuXform) []VarID {
		var out []VarID
		for _, id := range x.IDs[:x.NVars] {
			out = append(out, VarID(id))
		}
		return out
	}
	want := [][]VarID{{VarLinear, VarHypertile2}, {VarBwraps7}, {VarSineblur, VarJulian2}, {VarLinear, VarBoarders2, VarWaves23}}
	for i, w := range want {
		if got := ids(xs[i]); !slices.Equal(got, w) || xs[i].LinearOnly != 0 {
			t.Errorf("xform %d: ids %v linear_only %d, want %v and 0", i, got, xs[i].LinearOnly, w)
		}
	}
	k := slices.Index(gpuPluginParams[:], PBwraps7Cellsize)
	if got := xs[1].Params[int(GPUNumParams)+k]; got != 0.6 {
		t.Errorf("bwraps7_cellsize on the GPU = %v, want 0.6", got)
	}
	if !strings.Contains(CUDAIDsHeader(), "#define P_BWRAPS7_CELLSIZE "+strconv.Itoa(int(GPUNumParams)+k)+"\n") {
		t.Error("the header's P_BWRAPS7_CELLSIZE is not the index gpuParams fills")
	}
}

// linear3D and zscale are 2D only while z stays 0: beside a variation that
// makes z (ztranslate here) or reads it, they and it stay refused by name,
// and a linear3D-only xform goes up linear_only where z does stay 0.
func TestGPUZeroZMapping(t *testing.T) {
	mk := func(vars ...VarTerm) *Genome {
		g := &Genome{Xforms: []Xform{{Weight: 1, Coefs: Identity, Post: Identity, Vars: vars, Params: DefaultParams()}}}
		return g
	}
	if g := mk(VarTerm{ID: VarLinear3D, Weight: 1}, VarTerm{ID: VarZscale, Weight: 1}); !zStaysZero(g) || genomeUsesPluginVars(g) {
		t.Error("linear3D+zscale: z should stay 0 and the genome go to the GPU")
	}
	g := mk(VarTerm{ID: VarLinear3D, Weight: 1}, VarTerm{ID: VarZtranslate, Weight: 1})
	if zStaysZero(g) || !genomeUsesPluginVars(g) {
		t.Error("linear3D+ztranslate: z moves, the genome must stay on the CPU")
	}
	if name, ok := pluginVarZ(&g.Xforms[0], false); !ok || name != "linear3D" {
		t.Errorf("pluginVarZ = %q %v, want linear3D refused", name, ok)
	}
	vs := gpuVarTerms([]VarTerm{{ID: VarLinear3D, Weight: 0.5}, {ID: VarFlatten, Weight: 1}, {ID: VarZscale, Weight: 2}}, true)
	if !slices.Equal(vs, []VarTerm{{ID: VarLinear, Weight: 0.5}}) {
		t.Errorf("gpuVarTerms = %v, want linear 0.5 alone", vs)
	}
	for _, id := range gpuPluginVars {
		if uses3D(id) || !gpuHasVar(id) {
			t.Errorf("%s: ported variations must be 2D and known to gpuHasVar", VarNames[id])
		}
	}
	if gpuHasVar(VarJulia3D) || gpuHasVar(VarWaves2b) {
		t.Error("gpuHasVar admits a variation the kernels lack")
	}
}
