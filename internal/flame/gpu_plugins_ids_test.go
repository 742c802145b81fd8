package flame

import (
	"strconv"
	"strings"
	"testing"
)

// gpuDeviceID: flam3's ids and plugin ids below 256 are their own; the
// ported ones past 255 get distinct free numbers below 256 (none a ported
// variation's CPU id, none flam3's), which gpuCPUVarID maps back; an id the
// kernels lack has none.
func TestGPUDeviceIDs(t *testing.T) {
	seen := map[uint8]VarID{}
	high := 0
	for _, pl := range gpuPlugins {
		d, ok := gpuDeviceID(pl.id)
		if !ok {
			t.Fatalf("%s: no device id", VarNames[pl.id])
		}
		if pl.id < 256 && VarID(d) != pl.id {
			t.Errorf("%s: device id %d, want its own %d", VarNames[pl.id], d, pl.id)
		}
		if pl.id >= 256 {
			high++
		}
		if VarID(d) < GPUNumVars {
			t.Errorf("%s: device id %d is flam3's %s", VarNames[pl.id], d, VarNames[d])
		}
		if o, dup := seen[d]; dup {
			t.Errorf("%s and %s share device id %d", VarNames[o], VarNames[pl.id], d)
		}
		seen[d] = pl.id
		if back := gpuCPUVarID(d); back != pl.id {
			t.Errorf("gpuCPUVarID(%d) = %s, want %s", d, VarNames[back], VarNames[pl.id])
		}
	}
	if high == 0 {
		t.Fatal("no ported variation has an id past 255: the remapping is untested")
	}
	if d, ok := gpuDeviceID(VarSwirl); !ok || VarID(d) != VarSwirl || gpuCPUVarID(d) != VarSwirl {
		t.Errorf("swirl: device id %d %v", d, ok)
	}
	for _, id := range []VarID{VarJulia3D, VarShredlin, NumVars - 1} {
		if _, ok := gpuDeviceID(id); ok && gpuPluginOf(id) == nil {
			t.Errorf("%s has a device id but no kernel code", VarNames[id])
		}
	}
}

// plugins3.flam3's gnarly (CPU id past 255) goes to the GPU beside a
// plugin variation below 256 with its device id in the xform's ids and in
// the slab's header, its parameters at the offset the header gives.
func TestGPUInputsPlugins3(t *testing.T) {
	if VarGnarly < 256 {
		t.Fatal("gnarly's id is below 256 now: pick another variation past 255 for this test")
	}
	xs := gpuXformsOf(t, "../../testdata/flame/plugins3.flam3")
	dev, _ := gpuDeviceID(VarGnarly)
	gx := xs[0]
	if gx.NVars != 3 || gx.IDs[0] != uint8(VarLinear) || gx.IDs[1] != uint8(VarMobiusFr) || gx.IDs[2] != dev {
		t.Fatalf("ids %v (n %d), want linear, Mobius %d, gnarly's device id %d", gx.IDs[:gx.NVars], gx.NVars,
			VarMobiusFr, dev)
	}
	slab := gx.Params[GPUNumParams:]
	h := int(slab[1])
	if h&255 != int(dev) || slab[h>>8] != 0.8 || slab[h>>8+1] != 1.25 {
		t.Errorf("slab header %#x, block %v: want gnarly's device id %d and (0.8, 1.25)", h, slab[h>>8:h>>8+2], dev)
	}
	if !strings.Contains(CUDAPluginIDsHeader(), "#define VAR_GNARLY "+strconv.Itoa(int(dev))+"\n") {
		t.Error("the header does not give gnarly its device id")
	}
}

// shredlin and rays2 replace the sum before them on the CPU: first in
// their xform (or after a zero-weight term) they go to the GPU, after
// another variation the xform stays on the CPU, named.
func TestGPUPluginRefusedReplacing(t *testing.T) {
	for _, id := range []VarID{VarShredlin, VarRays2} {
		mk := func(vars ...VarTerm) *Xform {
			return &Xform{Coefs: Identity, Post: Identity, Params: DefaultParams(), Vars: vars}
		}
		if name, ok := pluginVar(mk(VarTerm{ID: id, Weight: 1}, VarTerm{ID: VarGnarly, Weight: 1})); ok {
			t.Errorf("%s first: refused as %q", VarNames[id], name)
		}
		if name, ok := pluginVar(mk(VarTerm{ID: VarLinear, Weight: 0}, VarTerm{ID: id, Weight: 1})); ok {
			t.Errorf("%s after a zero-weight term: refused as %q", VarNames[id], name)
		}
		if name, ok := pluginVar(mk(VarTerm{ID: VarLinear, Weight: 1}, VarTerm{ID: id, Weight: 1})); !ok ||
			!strings.HasPrefix(name, VarNames[id]) {
			t.Errorf("%s after linear: pluginVar = %q %v, want it refused", VarNames[id], name, ok)
		}
	}
}
