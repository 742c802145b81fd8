package flame

import (
	"strconv"
	"strings"
	"testing"
)

// The device knows a variation by its CPU id (VarID and the GPU xform's
// ids are both 16 bits): the plugin slab's header entry id | offset<<16 is
// an exact float for the largest id at the largest offset, so the device
// reads back both; gpuHasVar holds for flam3's and the ported variations
// only.
func TestGPUDeviceIDs(t *testing.T) {
	h := int(NumVars-1) | (gpuPluginSlab-1)<<16
	if f := float32(h); int(f) != h || int(f)&0xffff != int(NumVars-1) || int(f)>>16 != gpuPluginSlab-1 {
		t.Errorf("slab header %#x reads back as %#x", h, int(f))
	}
	for _, pl := range gpuPlugins {
		if !gpuHasVar(pl.id) {
			t.Errorf("%s: ported but gpuHasVar is false", VarNames[pl.id])
		}
	}
	if !gpuHasVar(VarSwirl) {
		t.Error("swirl: gpuHasVar is false")
	}
	cpuOnly := 0
	for id := GPUNumVars; id < NumVars; id++ {
		if gpuPluginOf(id) == nil {
			cpuOnly++
			if gpuHasVar(id) {
				t.Errorf("%s: gpuHasVar but no kernel code", VarNames[id])
			}
		}
	}
	if cpuOnly == 0 {
		t.Error("no CPU-only variation left to check gpuHasVar against")
	}
}

// plugins3.flam3's gnarly (CPU id past 255, which byte ids could not hold)
// goes to the GPU beside a plugin variation below 256 with its CPU id in
// the xform's ids and in the slab's header, its parameters at the offset
// the header gives.
func TestGPUInputsPlugins3(t *testing.T) {
	if VarGnarly < 256 {
		t.Fatal("gnarly's id is below 256 now: pick another variation past 255 for this test")
	}
	xs := gpuXformsOf(t, "../../testdata/flame/plugins3.flam3")
	gx := xs[0]
	if gx.NVars != 3 || gx.IDs[0] != uint16(VarLinear) || gx.IDs[1] != uint16(VarMobiusFr) ||
		gx.IDs[2] != uint16(VarGnarly) {
		t.Fatalf("ids %v (n %d), want linear, Mobius %d, gnarly %d", gx.IDs[:gx.NVars], gx.NVars, VarMobiusFr,
			VarGnarly)
	}
	slab := gx.Params[GPUNumParams:]
	h := int(slab[1])
	if h&0xffff != int(VarGnarly) || slab[h>>16] != 0.8 || slab[h>>16+1] != 1.25 {
		t.Errorf("slab header %#x, block %v: want gnarly's id %d and (0.8, 1.25)", h, slab[h>>16:h>>16+2], VarGnarly)
	}
	if !strings.Contains(CUDAPluginIDsHeader(), "#define VAR_GNARLY "+strconv.Itoa(int(VarGnarly))+"\n") {
		t.Error("the header does not give gnarly its CPU id")
	}
}

// The variations that replace the sum before them on the CPU (shredlin,
// rays2, mirror_x, triangle, cubic3D; rotate_y and rotate_z one coordinate
// of it) or read it (cubic3D, farblur) go to the GPU after another
// variation too: the device clears the sum or hands it to them. synth in
// mode 1005 replaces it, which its device code does not: after another
// variation its xform stays on the CPU, named.
func TestGPUPluginRefusedReplacing(t *testing.T) {
	mk := func(vars ...VarTerm) *Xform {
		return &Xform{Coefs: Identity, Post: Identity, Params: DefaultParams(), Vars: vars}
	}
	for _, id := range []VarID{VarShredlin, VarRays2, VarMirrorX, VarTriangle, VarRotateY, VarRotateZ, VarCubic3D,
		VarFarblur} {
		if name, ok := pluginVar(mk(VarTerm{ID: VarLinear, Weight: 1}, VarTerm{ID: id, Weight: 1})); ok {
			t.Errorf("%s after linear: refused as %q", VarNames[id], name)
		}
	}
	x := mk(VarTerm{ID: VarLinear, Weight: 1}, VarTerm{ID: VarSynth, Weight: 1})
	x.Params[PSynthMode] = 1005
	if name, ok := pluginVar(x); !ok || !strings.HasPrefix(name, "synth") {
		t.Errorf("synth mode 1005 after linear: pluginVar = %q %v, want it refused", name, ok)
	}
	x.Vars = x.Vars[1:]
	if name, ok := pluginVar(x); ok {
		t.Errorf("synth mode 1005 alone: refused as %q", name)
	}
}
