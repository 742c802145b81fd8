//go:build cuda

package flame

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/hosttwin"
	"github.com/procgen-dev/procgen/internal/rng"
)

// The variations that read or write z (cuda/flame_variations_3d.cuh, run by
// the flame3d family) against the CPU's ApplyXform3D, point by point: each
// alone at its defaults and at random parameters, and beside a 2D partner
// (flam3's or a ported plugin), on points with z. The device code runs on
// the GPU (TestCUDA3DVariationsMatchCPU) and, compiled for the host, here
// (Test3DVariationsHostTwin: formulas, draws and parameter slab, not the
// device's rounding).

type vt3Case struct {
	name string
	x    Xform
	in   []float32 // x, y, z per point
	seed uint64
}

// vt3Params draws the source parameters of the 3D variations (Precalc
// derives the rest).
func vt3Params(r *rand.Rand) Params {
	p := DefaultParams()
	u := func(lo, hi float64) float64 { return vtF32(lo + (hi-lo)*r.Float64()) }
	p[PJulia3DPower] = float64([]int{-4, -3, -2, 2, 3, 5}[r.IntN(6)])
	p[PJulia3DzPower] = float64([]int{-3, -2, 2, 3, 4}[r.IntN(5)])
	p[PCurl3DCx], p[PCurl3DCy], p[PCurl3DCz] = u(-0.6, 0.6), u(-0.6, 0.6), u(-0.6, 0.6)
	p[PBlob3DLow], p[PBlob3DHigh], p[PBlob3DWaves] = u(0, 1), u(0.5, 2), u(1, 8)
	for _, id := range []ParamID{PAffine3DRotateX, PAffine3DRotateY, PAffine3DRotateZ} {
		p[id] = u(-180, 180)
	}
	for _, id := range []ParamID{PAffine3DScaleX, PAffine3DScaleY, PAffine3DScaleZ} {
		p[id] = u(0.3, 1.5)
	}
	for _, id := range []ParamID{PAffine3DShearXY, PAffine3DShearXZ, PAffine3DShearYX, PAffine3DShearYZ,
		PAffine3DShearZX, PAffine3DShearZY, PAffine3DTranslateX, PAffine3DTranslateY, PAffine3DTranslateZ} {
		p[id] = u(-0.5, 0.5)
	}
	p[PPoincare3DR], p[PPoincare3DA], p[PPoincare3DB] = u(0, 0.9), u(-3, 3), u(-3, 3)
	p[PAxisSymmetryWfAxis] = float64(r.IntN(3))
	p[PAxisSymmetryWfCentreX], p[PAxisSymmetryWfCentreY], p[PAxisSymmetryWfCentreZ] = u(-0.5, 0.5), u(-0.5, 0.5), u(-0.5, 0.5)
	p[PAxisSymmetryWfRotation] = []float64{0, u(-90, 90), u(-180, 180)}[r.IntN(3)]
	p[PPointSymmetryWfCentreX], p[PPointSymmetryWfCentreY] = u(-0.5, 0.5), u(-0.5, 0.5)
	p[PPointSymmetryWfOrder] = float64(1 + r.IntN(7))
	p[PBubble2X], p[PBubble2Y], p[PBubble2Z] = u(-1.5, 1.5), u(-1.5, 1.5), u(-1, 1)
	p[PTileLogSpread] = u(0.2, 3)
	p[PJulian3DxPower] = float64([]int{-4, -3, -2, 2, 3, 5}[r.IntN(6)])
	p[PJulian3DxDist] = u(-2, 3)
	for _, id := range []ParamID{PJulian3DxA, PJulian3DxB, PJulian3DxC, PJulian3DxD, PJulian3DxE, PJulian3DxF} {
		p[id] = u(-1.5, 1.5)
	}
	vt3Params2(&p) // its own generator: r's draws stay as they were
	return p
}

func vt3Points(r *rand.Rand, n int) []float32 {
	in := make([]float32, 3*n)
	for i := range in {
		in[i] = float32(4*r.Float64() - 2)
	}
	return in
}

// vt3Cases are the 3D variations' runs.
func vt3Cases() []vt3Case {
	r := rand.New(rand.NewPCG(3, 13))
	partners := []VarID{VarLinear, VarJulia, VarSpherical, VarBlur, VarSineblur, VarHypertile2}
	var cases []vt3Case
	for _, pl := range gpuPlugins {
		id := pl.id
		if !uses3D(id) { // the flame3d family's (flame_variations_3d.cuh)
			continue
		}
		x := vtXform(VarTerm{ID: id, Weight: 1})
		x.Params = DefaultParams()
		cases = append(cases, vt3Case{VarNames[id] + "/default", x, vt3PointsFor(id, r), rng.Hash64(0x3d, uint64(id))})
		for run := range 3 {
			x := vtXform(VarTerm{ID: id, Weight: vtRandWeight(r)})
			x.Params = vt3Params(r)
			cases = append(cases, vt3Case{fmt.Sprintf("%s/%c", VarNames[id], 'a'+run), x, vt3PointsFor(id, r),
				rng.Hash64(0x3d1, uint64(id)<<8|uint64(run))})
		}
		o := partners[r.IntN(len(partners))] // before it (sortVars): those that read or replace the sum see one
		vars := []VarTerm{{ID: id, Weight: vtRandWeight(r)}, {ID: o, Weight: vtRandWeight(r)}}
		sortVars(vars)
		x = vtXform(vars...)
		x.Params = vt3Params(r)
		x.Coefs = Affine{0.9, 0.2, -0.3, 0.8, 0.1, -0.2}
		cases = append(cases, vt3Case{VarNames[id] + "+" + VarNames[o], x, vt3PointsFor(id, r),
			rng.Hash64(0x3d2, uint64(id))})
	}
	cases = append(cases, vt3StageCases(r)...)
	cases = append(cases, vt3BranchCases(r)...)
	return append(cases, vt3BranchCases4(r)...)
}

// vt3StageCases put Fractorium's pre_ and post_ stage terms around regular
// variations: summed and replacing stages, 2D and 3D, with pre_blur, and
// an xform with stages only (its point passes through).
func vt3StageCases(r *rand.Rand) []vt3Case {
	pre := func(id VarID, w float64) StageTerm { return StageTerm{ID: id, Weight: w} }
	post := func(id VarID, w float64) StageTerm { return StageTerm{Post: true, ID: id, Weight: w} }
	var cases []vt3Case
	stageCases := []struct {
		vars   []VarTerm
		stages []StageTerm
	}{
		{[]VarTerm{{VarSpherical, 1}}, []StageTerm{pre(VarSineblur, 0.3)}},
		{[]VarTerm{{VarLinear, 0.8}}, []StageTerm{pre(VarCurl3D, 0.6)}},
		{[]VarTerm{{VarLinear3D, 1}}, []StageTerm{post(VarJulia3D, 0.9)}},
		{[]VarTerm{{VarPreBlur, 0.2}, {VarJulia, 1}}, []StageTerm{pre(VarSpherical, 0.7), post(VarZtranslate, 0.4)}},
		{nil, []StageTerm{post(VarSpherical, 1)}},
		{[]VarTerm{{VarLinear3D, 0.7}, {VarSwirl, 0.3}}, []StageTerm{pre(VarFoci, 1), post(VarHemisphere, 0.5)}},
		{[]VarTerm{{VarJulia3Dz, 1}}, []StageTerm{pre(VarGaussianBlur, 0.2), pre(VarBlur3D, 0.1), post(VarLinear3D, 1)}},
		{[]VarTerm{{VarSpherical, 0.6}, {VarLinear, 0.4}}, []StageTerm{post(VarAxisSymmetryWf, 1)}},
		{[]VarTerm{{VarJulia, 1}}, []StageTerm{post(VarPointSymmetryWf, 1)}},
		// Fractorium's gaussian and mirror_x, most often stages; mirror_x
		// as a regular variation passes z (flame_variations_3d.cuh) and
		// replaces the sum, so it comes first (gpuPluginRefused).
		{[]VarTerm{{VarJulia3D, 1}}, []StageTerm{pre(VarGaussian, 0.3)}},
		{[]VarTerm{{VarSpherical, 0.7}, {VarZtranslate, 0.2}}, []StageTerm{pre(VarMirrorX, 1), post(VarGaussian, 0.1)}},
		{[]VarTerm{{VarMirrorX, 1}, {VarBlade3D, 0.4}}, []StageTerm{post(VarMirrorX, 0.5)}}, // blade3D after it (vtXform sorts)
		{[]VarTerm{{VarMirrorX, 1}}, []StageTerm{post(VarLinear3D, 1)}},
		// post_trig and pre_bTransform, as the artists' corpus has them.
		{[]VarTerm{{VarSpherical, 0.5}, {VarLinear3D, 0.5}}, []StageTerm{post(VarTrig, 1)}},
		{[]VarTerm{{VarJulia, 1}}, []StageTerm{pre(VarBTransform, 0.8)}},
		{[]VarTerm{{VarJulia3D, 0.7}}, []StageTerm{pre(VarFoci3D, 0.9), post(VarFoci3D, 0.5)}}, // foci_3D at z = 0 and not
	}
	for i, c := range append(stageCases, vt3StageCases4()...) {
		x := vtXform(c.vars...)
		x.Stages = c.stages
		x.Params = vt3Params(r)
		x.Coefs = Affine{0.8, -0.3, 0.2, 0.9, 0.1, 0.05}
		name := make([]string, 0, len(c.stages))
		for _, st := range c.stages {
			name = append(name, st.Name())
		}
		cases = append(cases, vt3Case{"stages/" + strings.Join(name, "+"), x, vt3Points(r, vtPoints),
			rng.Hash64(0x57a9e, uint64(i))})
	}
	return cases
}

// vt3Compare checks the device's points got (x, y, z each) against the
// CPU's ApplyXform3D under vtTol and vtMaxMiss.
func vt3Compare(t *testing.T, c vt3Case, got []float32) {
	t.Helper()
	x := c.x
	Precalc(&x)
	compared, miss := 0, 0
	worst := ""
	for i := range len(c.in) / 3 {
		s := rng.NewStream(rng.Hash64(c.seed, uint64(i)))
		cx, cy, cz, ok := ApplyXform3D(&x, float64(c.in[3*i]), float64(c.in[3*i+1]), float64(c.in[3*i+2]), &s)
		if !ok {
			continue
		}
		compared++
		e := 0.0
		for k, want := range []float64{cx, cy, cz} {
			d := math.Abs(float64(got[3*i+k])-want) / (1 + math.Abs(want))
			if math.IsNaN(d) {
				d = math.Inf(1)
			}
			e = max(e, d)
		}
		if e > vtTol {
			miss++
			worst = fmt.Sprintf("point %d: device (%g, %g, %g), cpu (%g, %g, %g)", i, got[3*i], got[3*i+1], got[3*i+2], cx, cy, cz)
		}
	}
	if compared < len(c.in)/3/2 {
		t.Errorf("only %d of %d points valid on the CPU: the case tests little", compared, len(c.in)/3)
	}
	if compared > 0 && float64(miss)/float64(compared) > vtMaxMiss {
		t.Errorf("%d of %d points differ beyond %g·(1+|cpu|); last %s", miss, compared, vtTol, worst)
	}
}

// vt3Inputs are a case's device ids and weights (its stage terms after its
// variations, as gpuStageTerms lays them out), stage count and post mask,
// coefficients and parameters.
func vt3Inputs(t *testing.T, c vt3Case) ([]uint16, []float32, int32, uint32, []float32, []float32) {
	x := c.x
	Precalc(&x)
	var gx gpuXform
	stages, err := gpuStageTerms(&gx, &x, len(x.Vars), c.name)
	if err != nil {
		t.Fatal(err)
	}
	terms := append(append([]VarTerm(nil), x.Vars...), stages...)
	ids := make([]uint16, len(terms))
	ws := make([]float32, len(terms))
	for i, v := range terms {
		if !gpuHasVar(v.ID) {
			t.Fatalf("%s: the kernels lack %s", c.name, VarNames[v.ID])
		}
		ids[i], ws[i] = uint16(v.ID), float32(v.Weight)
	}
	coefs := make([]float32, 6)
	for i, v := range x.Coefs {
		coefs[i] = float32(v)
	}
	run := x
	run.Vars = terms
	gp := gpuParams(&run)
	return ids[:len(x.Vars)+len(stages)], ws, gx.Stages, gx.StagePost, coefs, gp[:]
}

// vartest3Args are pg_flame_vartest3's arguments.
type vartest3Args struct {
	in, out       gpu.Ptr
	n             uint32
	ids, weights  gpu.Ptr
	nvars         int32
	coefs, params gpu.Ptr
	seed          uint64
	nstages       int32
	stagePost     uint32
}

var flameVartest3 = gpu.Kernel[vartest3Args]{Family: "flame_vartest", Name: "pg_flame_vartest3"}

func TestCUDA3DVariationsMatchCPU(t *testing.T) {
	dev, _ := vtDevice(t)
	fn, err := flameVartest3.Load(dev)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range vt3Cases() {
		t.Run(c.name, func(t *testing.T) {
			ids, ws, nst, post, coefs, params := vt3Inputs(t, c)
			in, idb, wb, cb, pb := vt3Up(t, dev, c.in), vt3Up(t, dev, ids), vt3Up(t, dev, ws), vt3Up(t, dev, coefs),
				vt3Up(t, dev, params)
			out, err := gpu.Alloc[float32](dev, len(c.in))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Free()
			n := len(c.in) / 3
			if err := fn.Launch(gpu.Dim((n+255)/256), gpu.Dim(256), 0, vartest3Args{in.Ptr(), out.Ptr(), uint32(n),
				idb.Ptr(), wb.Ptr(), int32(len(ids)) - nst, cb.Ptr(), pb.Ptr(), c.seed, nst, post}); err != nil {
				t.Fatal(err)
			}
			got, err := out.Download()
			if err != nil {
				t.Fatal(err)
			}
			vt3Compare(t, c, got)
		})
	}
}

// vt3Up uploads v for the test's lifetime.
func vt3Up[T gpu.Elem](t *testing.T, dev *gpu.Device, v []T) *gpu.Buffer[T] {
	t.Helper()
	buf, err := gpu.Upload(dev, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { buf.Free() })
	return buf
}

func Test3DVariationsHostTwin(t *testing.T) {
	pre := jwfHostShim[:strings.Index(jwfHostShim, "static float fbits")]
	pre = strings.Replace(pre, "struct float2 { float x, y; };", "struct float2 { float x, y; };\nstruct float3 { float x, y, z; };\n"+
		"static inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }", 1)
	pre = strings.Replace(pre, `#include "flame_variations.cuh"`, "#include \"flame_variations.cuh\"\n#include \"flame_variations_3d.cuh\"", 1)
	bin := hosttwin.Build(t, pre+vt3HostMain, "-w")
	cases := vt3Cases()
	var in bytes.Buffer
	for _, c := range cases {
		ids, ws, nst, post, coefs, params := vt3Inputs(t, c)
		fmt.Fprintf(&in, "C %d %d %d", len(ids)-int(nst), nst, post)
		for i := range ids {
			fmt.Fprintf(&in, " %d %x", ids[i], math.Float32bits(ws[i]))
		}
		for _, v := range append(coefs, params...) {
			fmt.Fprintf(&in, " %x", math.Float32bits(v))
		}
		in.WriteByte('\n')
		for i := range len(c.in) / 3 {
			fmt.Fprintf(&in, "P %x %x %x %x\n", math.Float32bits(c.in[3*i]), math.Float32bits(c.in[3*i+1]),
				math.Float32bits(c.in[3*i+2]), rng.Hash64(c.seed, uint64(i)))
		}
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run the host twin: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for _, c := range cases {
		got := make([]float32, len(c.in))
		for i := range len(c.in) / 3 {
			if !sc.Scan() {
				t.Fatal("the host twin answered fewer points than it was given")
			}
			f := strings.Fields(sc.Text())
			for k := range 3 {
				u, err := strconv.ParseUint(f[k], 16, 32)
				if err != nil {
					t.Fatalf("host twin line %q", sc.Text())
				}
				got[3*i+k] = math.Float32frombits(uint32(u))
			}
		}
		t.Run(c.name, func(t *testing.T) { vt3Compare(t, c, got) })
	}
}

// vt3HostMain reads jwfHostShim's case lines and "P x y z state" points and
// writes pg_flame_vartest3's three floats per point.
const vt3HostMain = `static float fbits(const char *s) { uint32_t u = (uint32_t)strtoul(s, nullptr, 16); float f; memcpy(&f, &u, 4); return f; }
static uint32_t bitsf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
int main() {
	static char line[1 << 16];
	float params[NUM_PARAMS] = {0}, weights[32] = {0}, coefs[6] = {0};
	uint16_t ids[32] = {0};
	int n = 0, ns = 0;
	unsigned post = 0;
	while (fgets(line, sizeof line, stdin)) {
		char *tok = strtok(line, " \n");
		if (!tok) continue;
		if (tok[0] == 'C') {
			n = atoi(strtok(nullptr, " \n"));
			ns = atoi(strtok(nullptr, " \n"));
			post = (unsigned)strtoul(strtok(nullptr, " \n"), nullptr, 10);
			for (int i = 0; i < n + ns; i++) {
				ids[i] = (uint16_t)atoi(strtok(nullptr, " \n"));
				weights[i] = fbits(strtok(nullptr, " \n"));
			}
			for (int i = 0; i < 6; i++) coefs[i] = fbits(strtok(nullptr, " \n"));
			for (int i = 0; i < NUM_PARAMS; i++) params[i] = fbits(strtok(nullptr, " \n"));
			continue;
		}
		const float x = fbits(strtok(nullptr, " \n")), y = fbits(strtok(nullptr, " \n")), z = fbits(strtok(nullptr, " \n"));
		PgRng rng;
		rng.state = strtoull(strtok(nullptr, " \n"), nullptr, 16);
		const float tx = coefs[0] * x + coefs[2] * y + coefs[4], ty = coefs[1] * x + coefs[3] * y + coefs[5];
		const int pre = pg_flame_pre_blur(ids, weights, n);
		const float3 o = ns ? pg_flame_apply_staged3(ids, weights, n, ns, post, false, pre, tx, ty, z, coefs, params, rng)
				    : pg_flame_apply_vars3(ids, weights, n, pre, tx, ty, z, coefs, params, rng);
		printf("%x %x %x\n", bitsf(o.x), bitsf(o.y), bitsf(o.z));
	}
	return 0;
}
`

// TestCUDA3DMatchesCPU renders a genome whose points leave the plane (3D
// variations, pre_ and post_ stages, a final xform with z, Fractorium's camera with
// perspective and depth of field) on the flame3d family, as a still and as
// a frame, as close to the CPU as the CPU's own seeds are to each other.
func TestCUDA3DMatchesCPU(t *testing.T) {
	g := loadTestGenome(t, "simple") // three linear maps to a Sierpinski triangle, lifted out of the plane
	add := func(i int, vars ...VarTerm) {
		x := &g.Xforms[i]
		x.Vars = append(append([]VarTerm(nil), x.Vars...), vars...)
		x.Params[PJulia3DPower], x.Params[PCurl3DCz] = 3, 0.2
	}
	g.Xforms[0].Vars = nil
	add(0, VarTerm{ID: VarLinear3D, Weight: 0.7}, VarTerm{ID: VarJulia3D, Weight: 0.3})
	add(1, VarTerm{ID: VarZtranslate, Weight: 0.2})
	add(2, VarTerm{ID: VarCurl3D, Weight: 0.2}, VarTerm{ID: VarBlur3D, Weight: 0.02})
	g.Xforms[2].Vars[0].Weight = 0.8
	g.Xforms[2].Stages = []StageTerm{{ID: VarGaussianBlur, Weight: 0.01}, {Post: true, ID: VarZtranslate, Weight: 0.05}}
	fin := g.Xforms[0]
	fin.Coefs, fin.Vars = Identity, nil
	fin.Params = g.Xforms[0].Params
	g.Final = &fin
	g.Final.Vars = []VarTerm{{ID: VarLinear3D, Weight: 1}, {ID: VarZscale, Weight: 0.5}, {ID: VarHemisphere, Weight: 0.02}}
	g.Camera = Camera3D{Pitch: 0.3, Yaw: 0.2, Perspective: 0.1, DOF: 0.05}
	if !gpuCarriesZ(g) {
		t.Fatal("the test genome does not carry z on the GPU")
	}
	o := Options{Width: 160, Quality: 200, Seed: 1}
	cpu1, _, err := CPU{}.Render(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	if lit(cpu1.NRGBA()) < 0.02 {
		t.Fatal("the CPU image is nearly empty: the comparison tests little")
	}
	o.Seed = 2
	cpu2, _, err := CPU{}.Render(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	noise := refMAD(cpu1.NRGBA(), cpu2.NRGBA())
	o.Seed = 3
	r := cudaRenderer(t)
	gp, st, err := r.Render(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Kernel, "flame3d") {
		t.Errorf("kernel %q, want flame3d's", st.Kernel)
	}
	got := refMAD(gp.NRGBA(), cpu1.NRGBA())
	t.Logf("MAD(gpu, cpu) %.3f, MAD(cpu seed 1, cpu seed 2) %.3f, lit %.2f", got, noise, lit(cpu1.NRGBA()))
	if got > 1.5*noise+0.5 {
		t.Fatalf("GPU differs from CPU by %.3f, more than the CPU's own seed noise %.3f allows", got, noise)
	}
	checkFrameAgainstCPU(t, g, Options{Quality: 50}) // the genome's 800 x 592
}
