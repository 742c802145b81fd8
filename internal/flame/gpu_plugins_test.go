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
	xs := gpuXformsOf(t, "../../testdata/flame/plugins.flam3")
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
	// bwraps7 alone in xform 1: one header entry, then its parameters.
	slab := xs[1].Params[GPUNumParams:]
	k := slices.Index(gpuPluginOf(VarBwraps7).params, PBwraps7Cellsize)
	if h := int(slab[0]); h&0xffff != int(VarBwraps7) || h>>16 != 1 {
		t.Errorf("slab header %v, want bwraps7 at offset 1", slab[0])
	}
	if got := slab[1+k]; got != 0.6 {
		t.Errorf("bwraps7_cellsize on the GPU = %v, want 0.6", got)
	}
	if !strings.Contains(CUDAPluginIDsHeader(), " P_BWRAPS7_CELLSIZE = "+strconv.Itoa(k)+",") &&
		!strings.Contains(CUDAPluginIDsHeader(), " P_BWRAPS7_CELLSIZE = "+strconv.Itoa(k)+" };") {
		t.Error("the header's P_BWRAPS7_CELLSIZE is not the index gpuPluginPack fills")
	}
}

// linear3D and zscale are 2D only while z stays 0: beside a variation that
// makes z (ztranslate here) or reads it, the genome carries z on the GPU
// (flame3d) with both as they are, and a linear3D-only xform goes up
// linear_only where z does stay 0.
func TestGPUZeroZMapping(t *testing.T) {
	mk := func(vars ...VarTerm) *Genome {
		g := &Genome{Xforms: []Xform{{Weight: 1, Coefs: Identity, Post: Identity, Vars: vars, Params: DefaultParams()}}}
		return g
	}
	if g := mk(VarTerm{ID: VarLinear3D, Weight: 1}, VarTerm{ID: VarZscale, Weight: 1}); !zStaysZero(g) || genomeUsesPluginVars(g) {
		t.Error("linear3D+zscale: z should stay 0 and the genome go to the GPU")
	}
	g := mk(VarTerm{ID: VarLinear3D, Weight: 1}, VarTerm{ID: VarZtranslate, Weight: 1})
	if zStaysZero(g) || genomeUsesPluginVars(g) || !gpuCarriesZ(g) {
		t.Error("linear3D+ztranslate: z moves, the genome must go to the GPU's flame3d family")
	}
	if vs := gpuVarTerms(g.Xforms[0].Vars, false); len(vs) != 2 || vs[0].ID != VarLinear3D {
		t.Errorf("gpuVarTerms with z = %v, want linear3D and ztranslate as they are", vs)
	}
	vs := gpuVarTerms([]VarTerm{{ID: VarLinear3D, Weight: 0.5}, {ID: VarFlatten, Weight: 1}, {ID: VarZscale, Weight: 2}}, true)
	if !slices.Equal(vs, []VarTerm{{ID: VarLinear, Weight: 0.5}}) {
		t.Errorf("gpuVarTerms = %v, want linear 0.5 alone", vs)
	}
	for _, pl := range gpuPlugins {
		if !gpuHasVar(pl.id) {
			t.Errorf("%s: ported variations must be known to gpuHasVar", VarNames[pl.id])
		}
	}
	if gpuHasVar(VarFlatten) { // gpuXform.Flatten, no device id
		t.Error("gpuHasVar admits flatten, which the kernels have no id for")
	}
}

// gpuPluginPack: each distinct ported variation with a weight gets one
// header entry and its parameters once (a repeated one shares them, a
// zero-weight one is left out), and an xform whose plugin parameters
// overflow the slab is refused by name, so its genome renders on the CPU.
func TestGPUPluginPack(t *testing.T) {
	x := Xform{Coefs: Identity, Post: Identity, Params: DefaultParams(), Vars: []VarTerm{
		{ID: VarLinear, Weight: 1}, {ID: VarSineblur, Weight: 0.5}, {ID: VarJuliac, Weight: 0},
		{ID: VarJulian2, Weight: 1}, {ID: VarJulian2, Weight: 2},
	}}
	x.Params[PSineblurPower], x.Params[PJulian2Power], x.Params[PJulian2F] = 1.25, 3, -0.5
	Precalc(&x)
	var slab [gpuPluginSlab]float32
	if name, ok := gpuPluginPack(&x, slab[:]); !ok {
		t.Fatalf("refused %s", name)
	}
	jul := gpuPluginOf(VarJulian2).params
	want := []float32{float32(int(VarSineblur) | 2<<16), float32(int(VarJulian2) | 3<<16), 1.25}
	for _, id := range jul {
		want = append(want, gpuFloat(x.Params[id]))
	}
	if !slices.Equal(slab[:len(want)], want) || slab[len(want)] != 0 {
		t.Errorf("slab %v, want %v then zeros", slab[:len(want)+1], want)
	}
	if slab[3+slices.Index(jul, PJulian2F)] != -0.5 {
		t.Error("julian2_f is not where its local index says")
	}
	need := 0
	var vars []VarTerm
	for _, pl := range gpuPlugins {
		vars = append(vars, VarTerm{ID: pl.id, Weight: 1})
		need += 1 + len(pl.params)
	}
	if need <= gpuPluginSlab {
		t.Fatalf("all ported variations fit (%d floats): the overflow case tests nothing", need)
	}
	sortVars(vars)
	y := Xform{Coefs: Identity, Post: Identity, Params: DefaultParams(), Vars: vars}
	if _, ok := gpuPluginPack(&y, slab[:]); ok {
		t.Error("an overflowing xform was packed")
	}
	if name, ok := pluginVar(&y); !ok || !strings.Contains(name, "more parameters") {
		t.Errorf("pluginVar = %q %v, want the overflow refused", name, ok)
	}
	g := &Genome{Xforms: []Xform{y}}
	if !genomeUsesPluginVars(g) {
		t.Error("a genome with an overflowing xform would go to the GPU")
	}
}

// synth's mode 1005 replaces the sum before it: first in its xform it goes
// to the GPU (adding to nothing is replacing), after another variation the
// xform stays on the CPU, named.
func TestGPUPluginRefusedSynth1005(t *testing.T) {
	mk := func(mode float64, vars ...VarTerm) *Xform {
		x := &Xform{Coefs: Identity, Post: Identity, Params: DefaultParams(), Vars: vars}
		x.Params[PSynthMode] = mode
		return x
	}
	if name, ok := pluginVar(mk(1005, VarTerm{ID: VarSynth, Weight: 1}, VarTerm{ID: VarWaves2b, Weight: 1})); ok {
		t.Errorf("synth 1005 first: refused as %q", name)
	}
	if name, ok := pluginVar(mk(3, VarTerm{ID: VarLinear, Weight: 1}, VarTerm{ID: VarSynth, Weight: 1})); ok {
		t.Errorf("synth mode 3 after linear: refused as %q", name)
	}
	if name, ok := pluginVar(mk(1005, VarTerm{ID: VarLinear, Weight: 1}, VarTerm{ID: VarSynth, Weight: 1})); !ok ||
		!strings.HasPrefix(name, "synth") {
		t.Errorf("synth 1005 after linear: pluginVar = %q %v, want synth refused", name, ok)
	}
	if name, ok := pluginVar(mk(1005, VarTerm{ID: VarLinear, Weight: 0}, VarTerm{ID: VarSynth, Weight: 1})); ok {
		t.Errorf("synth 1005 after a zero-weight term: refused as %q", name)
	}
}

// Genomes with a plugin variation run the flame_plugins kernel (or an
// NVRTC kernel compiled with PG_FLAME_PLUGINS); flam3's keep the flame
// family's, which lacks the plugin code.
func TestGPUUsesPluginsPicksKernel(t *testing.T) {
	flam3 := []gpuXform{{NVars: 2, IDs: [gpuMaxVars]uint16{uint16(VarLinear), uint16(VarMobius)}}}
	plug := []gpuXform{flam3[0], {NVars: 1, IDs: [gpuMaxVars]uint16{uint16(VarSynth)}}}
	if gpuUsesPlugins(flam3) || !gpuUsesPlugins(plug) {
		t.Fatalf("gpuUsesPlugins: flam3 %v, plugin %v", gpuUsesPlugins(flam3), gpuUsesPlugins(plug))
	}
	// An id past NVars is not one of the xform's variations.
	stale := []gpuXform{{NVars: 1, IDs: [gpuMaxVars]uint16{uint16(VarLinear), uint16(VarSynth)}}}
	if gpuUsesPlugins(stale) {
		t.Error("gpuUsesPlugins read past NVars")
	}
	const def = "#define PG_FLAME_PLUGINS 1\n"
	if strings.Contains(specialSource(flam3, 1), def) || !strings.Contains(specialSource(plug, 1), def) {
		t.Error("specialSource defines PG_FLAME_PLUGINS for the wrong genome")
	}
}

// plugins2.flam3 (TestCUDAPluginsMatchCPU's second genome) goes to the GPU
// whole, each xform's plugin parameters packed where the header says.
func TestGPUInputsPlugins2(t *testing.T) {
	xs := gpuXformsOf(t, "../../testdata/flame/plugins2.flam3")
	if !gpuUsesPlugins(xs) {
		t.Fatal("gpuUsesPlugins = false: the flame family's kernel would drop the plugin variations")
	}
	// xform 1: waves2b then nBlur, in VarID order; nBlur's ratioStripes.
	slab := xs[1].Params[GPUNumParams:]
	nw := len(gpuPluginOf(VarWaves2b).params)
	want := []float32{float32(int(VarWaves2b) | 2<<16), float32(int(VarNBlur) | (2+nw)<<16)}
	if !slices.Equal(slab[:2], want) {
		t.Fatalf("xform 1 header %v, want %v", slab[:2], want)
	}
	k := slices.Index(gpuPluginOf(VarNBlur).params, PNBlurRatioStripes)
	if got := slab[2+nw+k]; got != 1.2 {
		t.Errorf("nBlur_ratioStripes on the GPU = %v, want 1.2", got)
	}
}

// gpuXformsOf parses the first genome of file, checks that it renders on
// the GPU whole, and returns its xforms as the GPU gets them.
func gpuXformsOf(t *testing.T, file string) []gpuXform {
	t.Helper()
	gs, _, err := ParseFile(file, ParseOptions{})
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
	return xs
}
