//go:build cuda

package flame

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rng"
)

// These tests run cuda/flame_variations.cuh through the pg_flame_vartest
// kernel and compare it point by point with ApplyXform. The device computes
// in float32 and the CPU in float64, so a point matches when each coordinate
// is within vtTol·(1+|cpu|); discontinuous variations may flip branch near a
// cut, and ill-conditioned ones lose accuracy near their poles, so each run
// may miss on at most vtMaxMiss of its points. Every run logs its fraction.
const (
	vtTol     = 1e-4
	vtMaxMiss = 0.01
	vtPoints  = 4096
)

// vtParamRange is where a run draws each parameter: around flam3's default
// (DefaultParams gives the rest), wide enough to reach every branch, and
// away from values where the variation itself degenerates (a zero modulus
// or perspective distance divides by zero everywhere, a fan2/rings2 width
// near 0 turns the branch into noise, conic eccentricity ≥ 1 puts a pole in
// the plane). Signed ranges draw ±[lo, hi]; zeroBelow0 turns draws below 0
// into exactly 0 (oscilloscope's damping == 0 branch).
type vtRange struct {
	lo, hi     float64
	signed     bool
	zeroBelow0 bool
}

var vtParamRanges = map[ParamID]vtRange{
	PBlobLow: {lo: -0.5, hi: 0.5}, PBlobHigh: {lo: 0.5, hi: 1.5}, PBlobWaves: {lo: 0.5, hi: 4},
	PPdjA: {lo: -3, hi: 3}, PPdjB: {lo: -3, hi: 3}, PPdjC: {lo: -3, hi: 3}, PPdjD: {lo: -3, hi: 3},
	PFan2X: {lo: 0.2, hi: 1, signed: true}, PFan2Y: {lo: -1, hi: 1},
	PRings2Val:        {lo: 0.2, hi: 1, signed: true},
	PPerspectiveAngle: {lo: -0.8, hi: 0.8}, PPerspectiveDist: {lo: 1.5, hi: 3},
	PJulianPower: {lo: 1, hi: 5, signed: true}, PJulianDist: {lo: -2, hi: 2},
	PJuliascopePower: {lo: 1, hi: 5, signed: true}, PJuliascopeDist: {lo: -2, hi: 2},
	PRadialBlurAngle: {lo: -1, hi: 1},
	PPieSlices:       {lo: 2, hi: 10}, PPieRotation: {lo: -math.Pi, hi: math.Pi}, PPieThickness: {lo: 0, hi: 1},
	PNgonSides: {lo: 3, hi: 8}, PNgonPower: {lo: 1, hi: 5}, PNgonCircle: {lo: 0, hi: 2}, PNgonCorners: {lo: 0, hi: 3},
	PCurlC1: {lo: -1.5, hi: 1.5}, PCurlC2: {lo: -1, hi: 1},
	PRectanglesX: {lo: 0.3, hi: 1.5, signed: true}, PRectanglesY: {lo: 0.3, hi: 1.5, signed: true},
	PDisc2Rot: {lo: -2, hi: 2}, PDisc2Twist: {lo: -8, hi: 8},
	PSuperShapeRnd: {lo: 0, hi: 1}, PSuperShapeM: {lo: 0, hi: 8}, PSuperShapeN1: {lo: 0.5, hi: 3},
	PSuperShapeN2: {lo: 0.5, hi: 3}, PSuperShapeN3: {lo: 0.5, hi: 3}, PSuperShapeHoles: {lo: -0.5, hi: 0.5},
	PFlowerPetals: {lo: 0, hi: 8}, PFlowerHoles: {lo: -0.5, hi: 0.5},
	PConicEccentricity: {lo: 0.2, hi: 0.9}, PConicHoles: {lo: -0.5, hi: 0.5},
	PParabolaHeight: {lo: -1.5, hi: 1.5}, PParabolaWidth: {lo: -1.5, hi: 1.5},
	PBent2X: {lo: -2, hi: 2}, PBent2Y: {lo: -2, hi: 2},
	PBipolarShift: {lo: -1, hi: 1},
	PCellSize:     {lo: 0.3, hi: 1.5},
	PCpowR:        {lo: -2, hi: 2}, PCpowI: {lo: -1, hi: 1}, PCpowPower: {lo: 1, hi: 5, signed: true},
	PCurveXamp: {lo: -2, hi: 2}, PCurveYamp: {lo: -2, hi: 2},
	PCurveXlength: {lo: 0.2, hi: 2}, PCurveYlength: {lo: 0.2, hi: 2},
	PEscherBeta:    {lo: -math.Pi, hi: math.Pi},
	PLazysusanSpin: {lo: -math.Pi, hi: math.Pi}, PLazysusanSpace: {lo: -1, hi: 1}, PLazysusanTwist: {lo: -2, hi: 2},
	PLazysusanX: {lo: -1, hi: 1}, PLazysusanY: {lo: -1, hi: 1},
	PModulusX: {lo: 0.2, hi: 2}, PModulusY: {lo: 0.2, hi: 2},
	POscilloscopeSeparation: {lo: 0, hi: 2}, POscilloscopeFrequency: {lo: 0.5, hi: 5},
	POscilloscopeAmplitude: {lo: 0, hi: 2}, POscilloscopeDamping: {lo: -0.5, hi: 1, zeroBelow0: true},
	PPopcorn2X: {lo: -1, hi: 1}, PPopcorn2Y: {lo: -1, hi: 1}, PPopcorn2C: {lo: -2, hi: 2},
	PSeparationX: {lo: -1, hi: 1}, PSeparationXinside: {lo: -1, hi: 1},
	PSeparationY: {lo: -1, hi: 1}, PSeparationYinside: {lo: -1, hi: 1},
	PSplitXsize: {lo: -2, hi: 2}, PSplitYsize: {lo: -2, hi: 2},
	PSplitsX: {lo: -1, hi: 1}, PSplitsY: {lo: -1, hi: 1},
	PStripesSpace: {lo: -1, hi: 1}, PStripesWarp: {lo: -2, hi: 2},
	PWedgeAngle: {lo: -1, hi: 1}, PWedgeHole: {lo: -0.5, hi: 0.5},
	PWedgeCount: {lo: 1, hi: 6}, PWedgeSwirl: {lo: -1, hi: 1},
	PWedgeJuliaAngle: {lo: -1, hi: 1}, PWedgeJuliaCount: {lo: 1, hi: 6},
	PWedgeJuliaPower: {lo: 1, hi: 5, signed: true}, PWedgeJuliaDist: {lo: -1.5, hi: 1.5},
	PWedgeSphAngle: {lo: -1, hi: 1}, PWedgeSphCount: {lo: 1, hi: 6}, PWedgeSphHole: {lo: -0.5, hi: 0.5},
	PWedgeSphSwirl: {lo: -1, hi: 1},
	PWhorlInside:   {lo: -1, hi: 1}, PWhorlOutside: {lo: -1, hi: 1},
	PWaves2Freqx: {lo: -4, hi: 4}, PWaves2Scalex: {lo: -1, hi: 1},
	PWaves2Freqy: {lo: -4, hi: 4}, PWaves2Scaley: {lo: -1, hi: 1},
	PAugerSym: {lo: -1, hi: 1}, PAugerWeight: {lo: 0, hi: 1}, PAugerFreq: {lo: 0.5, hi: 3}, PAugerScale: {lo: 0, hi: 2},
	PFluxSpread: {lo: -1, hi: 1},
	PMobiusReA:  {lo: -1, hi: 1}, PMobiusImA: {lo: -1, hi: 1}, PMobiusReB: {lo: -1, hi: 1}, PMobiusImB: {lo: -1, hi: 1},
	PMobiusReC: {lo: -1, hi: 1}, PMobiusImC: {lo: -1, hi: 1}, PMobiusReD: {lo: -1, hi: 1}, PMobiusImD: {lo: -1, hi: 1},
}

// vtCoefVars read the affine coefficients themselves; they also run with a
// random affine (vtAffineCase).
var vtCoefVars = []VarID{VarLinear, VarWaves, VarPopcorn, VarRings, VarFan}

// vtPreBlurSensitive are the variations that amplify a ~2e-7 move of (tx,
// ty) beyond the tolerance on more than 1% of the plane (about 1.2-1.5% when
// measured): whorl near r = w, popcorn2 near the poles of its tangent.
// pre_blur makes exactly such a move: its float32 draws (24 bits) and sum
// differ from the CPU's float64 ones by that much. So pre_blur's mixed run
// never pairs it with them, and pre_blur is kept out of the other
// variations' mixed runs; it runs with linear, and with random partners.
var vtPreBlurSensitive = map[VarID]bool{VarWhorl: true, VarPopcorn2: true}

// vtF32 rounds to float32, so the CPU sees exactly the value the GPU gets.
func vtF32(v float64) float64 { return float64(float32(v)) }

func vtRandParams(r *rand.Rand) Params {
	p := DefaultParams()
	for id := ParamID(0); id < PrecalcFirst; id++ { // in order: the draws must not follow map order
		rg, ok := vtParamRanges[id]
		if !ok {
			continue
		}
		v := rg.lo + (rg.hi-rg.lo)*r.Float64()
		if rg.signed && r.IntN(2) == 0 {
			v = -v
		}
		if rg.zeroBelow0 && v < 0 {
			v = 0
		}
		p[id] = vtF32(v)
	}
	return p
}

// vtRandPoints draws n points in [-2,2]², float32-exact, or on the 2^-12 grid
// when grid is set (so that a dyadic affine maps them exactly in float32).
func vtRandPoints(r *rand.Rand, n int, grid bool) []float32 {
	in := make([]float32, 2*n)
	for i := range in {
		v := 4*r.Float64() - 2
		if grid {
			v = math.Round(v*4096) / 4096
		}
		in[i] = float32(v)
	}
	return in
}

// vtCase is one comparison: an xform (affine, variations, parameters) and
// the points pushed through it on both backends.
type vtCase struct {
	name string
	x    Xform
	in   []float32
	seed uint64
}

type vtResult struct {
	name               string
	compared, mismatch int
	worst              string
}

func (res vtResult) frac() float64 {
	if res.compared == 0 {
		return 1
	}
	return float64(res.mismatch) / float64(res.compared)
}

// vtRun runs c on the device and on the CPU and counts the points that
// differ. Points the CPU rejects (flam3's badvalue) are not compared.
func vtRun(t *testing.T, dev *gpu.Device, fn gpu.Func[vartestArgs], c vtCase) vtResult {
	t.Helper()
	x := c.x
	Precalc(&x)
	n := len(c.in) / 2
	ids := make([]uint16, len(x.Vars))
	ws := make([]float32, len(x.Vars))
	for i, v := range x.Vars {
		ids[i], ws[i] = uint16(v.ID), float32(v.Weight)
	}
	coefs := make([]float32, 6)
	for i, v := range x.Coefs {
		coefs[i] = float32(v)
	}
	gp := gpuParams(&x) // flam3's parameters, then the ported plugins' (gpu_plugins.go)
	params := gp[:]
	got := vtLaunch(t, dev, fn, c.in, ids, ws, coefs, params, c.seed)

	res := vtResult{name: c.name}
	worstErr := -1.0
	for i := 0; i < n; i++ {
		s := rng.NewStream(rng.Hash64(c.seed, uint64(i)))
		cx, cy, ok := ApplyXform(&x, float64(c.in[2*i]), float64(c.in[2*i+1]), &s)
		if !ok {
			continue
		}
		res.compared++
		gx, gy := float64(got[2*i]), float64(got[2*i+1])
		ex := math.Abs(gx-cx) / (1 + math.Abs(cx))
		ey := math.Abs(gy-cy) / (1 + math.Abs(cy))
		e := math.Max(ex, ey)
		if math.IsNaN(ex) || math.IsNaN(ey) {
			e = math.Inf(1)
		}
		if e > vtTol {
			res.mismatch++
			if e > worstErr {
				worstErr = e
				res.worst = fmt.Sprintf("point %d (%g, %g): gpu (%g, %g), cpu (%g, %g)",
					i, c.in[2*i], c.in[2*i+1], gx, gy, cx, cy)
			}
		}
	}
	return res
}

func vtLaunch(t *testing.T, dev *gpu.Device, fn gpu.Func[vartestArgs], in []float32, ids []uint16, ws, coefs, params []float32,
	seed uint64) []float32 {
	t.Helper()
	n := len(in) / 2
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	inBuf, err := gpu.Upload(dev, in)
	must(err)
	defer inBuf.Free()
	outBuf, err := gpu.Alloc[float32](dev, len(in))
	must(err)
	defer outBuf.Free()
	idBuf, err := gpu.Upload(dev, ids)
	must(err)
	defer idBuf.Free()
	wBuf, err := gpu.Upload(dev, ws)
	must(err)
	defer wBuf.Free()
	cBuf, err := gpu.Upload(dev, coefs)
	must(err)
	defer cBuf.Free()
	pBuf, err := gpu.Upload(dev, params)
	must(err)
	defer pBuf.Free()
	const block = 256
	must(fn.Launch(gpu.Dim((n+block-1)/block), gpu.Dim(block), 0,
		vartestArgs{inBuf.Ptr(), outBuf.Ptr(), uint32(n), idBuf.Ptr(), wBuf.Ptr(), int32(len(ids)),
			cBuf.Ptr(), pBuf.Ptr(), seed}))
	out, err := outBuf.Download()
	must(err)
	return out
}

// vtDevice opens device 0 and loads the test kernel, or skips (fails when
// PROCGEN_REQUIRE_GPU is set, as internal/gpu's tests do).
func vtDevice(t *testing.T) (*gpu.Device, gpu.Func[vartestArgs]) {
	t.Helper()
	dev, err := gpu.Open(0)
	if err != nil {
		if os.Getenv("PROCGEN_REQUIRE_GPU") != "" {
			t.Fatalf("no device: %v", err)
		}
		t.Skipf("no CUDA device: %v", err)
	}
	t.Cleanup(func() { dev.Close() })
	fn, err := flameVartest.Load(dev)
	if err != nil {
		t.Fatal(err)
	}
	return dev, fn
}

func vtXform(vars ...VarTerm) Xform {
	return Xform{Coefs: Identity, Post: Identity, Vars: vars}
}

// vtCheck runs the cases as subtests, each held to vtMaxMiss, and logs a
// summary of every run that missed any point.
func vtCheck(t *testing.T, dev *gpu.Device, fn gpu.Func[vartestArgs], cases []vtCase) {
	var results []vtResult
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := vtRun(t, dev, fn, c)
			results = append(results, res)
			t.Logf("%d of %d points differ (%.3f%%)", res.mismatch, res.compared, 100*res.frac())
			if res.compared < len(c.in)/4 {
				t.Errorf("only %d of %d points valid on the CPU: the case tests little", res.compared, len(c.in)/2)
			}
			if res.frac() > vtMaxMiss {
				t.Errorf("%d of %d points differ beyond %g·(1+|cpu|) (%.2f%% > %.0f%%); worst %s",
					res.mismatch, res.compared, vtTol, 100*res.frac(), 100*vtMaxMiss, res.worst)
			}
		})
	}
	sort.SliceStable(results, func(i, j int) bool { return results[i].frac() > results[j].frac() })
	var b strings.Builder
	for _, res := range results {
		if res.mismatch > 0 {
			fmt.Fprintf(&b, "\n  %-28s %6.3f%%  worst %s", res.name, 100*res.frac(), res.worst)
		}
	}
	if b.Len() > 0 {
		t.Logf("runs with differing points:%s", b.String())
	}
}

// TestCUDAVariationsMatchCPU runs every variation alone with weight 1 and
// the identity affine (pre_blur with linear, since alone it adds nothing).
func TestCUDAVariationsMatchCPU(t *testing.T) {
	dev, fn := vtDevice(t)
	vtCheck(t, dev, fn, vtSingleCases())
}

// TestCUDAVariationsMixedMatchCPU runs every variation with two random others
// and random weights, on a point count that is not a multiple of the block.
func TestCUDAVariationsMixedMatchCPU(t *testing.T) {
	dev, fn := vtDevice(t)
	vtCheck(t, dev, fn, vtMixedCases())
}

// TestCUDAVariationsAffineMatchCPU runs the variations that read the affine
// coefficients (waves, popcorn, rings, fan) with a random affine. Points on
// the 2^-12 grid and coefficients with few bits make the float32 affine
// exact, so both backends see the same (tx, ty).
func TestCUDAVariationsAffineMatchCPU(t *testing.T) {
	dev, fn := vtDevice(t)
	vtCheck(t, dev, fn, vtAffineCases())
}

func vtSingleCases() []vtCase {
	r := rand.New(rand.NewPCG(1, 2))
	var cases []vtCase
	for id := VarID(0); id < GPUNumVars; id++ { // the CPU-only variations have no kernel code
		x := vtXform(VarTerm{ID: id, Weight: 1})
		if id == VarPreBlur {
			x.Vars = []VarTerm{{ID: VarLinear, Weight: 1}, {ID: VarPreBlur, Weight: 1}}
		}
		x.Params = vtRandParams(r)
		cases = append(cases, vtCase{name: VarNames[id], x: x, in: vtRandPoints(r, vtPoints, false),
			seed: rng.Hash64(0xF1A3E, uint64(id))})
	}
	return cases
}

func vtMixedCases() []vtCase {
	r := rand.New(rand.NewPCG(3, 4))
	const n = vtPoints - 95
	var cases []vtCase
	for id := VarID(0); id < GPUNumVars; id++ { // the CPU-only variations have no kernel code
		used := map[VarID]bool{id: true}
		vars := []VarTerm{{ID: id, Weight: vtRandWeight(r)}}
		if id == VarPreBlur {
			vars = append(vars, VarTerm{ID: VarLinear, Weight: vtRandWeight(r)})
			used[VarLinear] = true
		}
		for len(vars) < 3 {
			o := VarID(r.IntN(int(GPUNumVars)))
			if used[o] || o == VarPreBlur || (id == VarPreBlur && vtPreBlurSensitive[o]) {
				continue
			}
			used[o] = true
			vars = append(vars, VarTerm{ID: o, Weight: vtRandWeight(r)})
		}
		names := make([]string, len(vars))
		for i, v := range vars {
			names[i] = VarNames[v.ID]
		}
		x := vtXform(vars...)
		x.Params = vtRandParams(r)
		cases = append(cases, vtCase{name: strings.Join(names, "+"), x: x, in: vtRandPoints(r, n, false),
			seed: rng.Hash64(0x3A1ED, uint64(id))})
	}
	return cases
}

func vtAffineCases() []vtCase {
	r := rand.New(rand.NewPCG(5, 6))
	var cases []vtCase
	for _, id := range vtCoefVars {
		x := vtXform(VarTerm{ID: id, Weight: 1})
		for i := range 4 {
			x.Coefs[i] = math.Round((3*r.Float64()-1.5)*64) / 64
		}
		for i := 4; i < 6; i++ { // |e|, |f| ≥ 1/4 keeps waves' 1/e² frequency moderate
			v := math.Round((0.25+0.75*r.Float64())*64) / 64
			if r.IntN(2) == 0 {
				v = -v
			}
			x.Coefs[i] = v
		}
		x.Params = vtRandParams(r)
		cases = append(cases, vtCase{name: VarNames[id], x: x, in: vtRandPoints(r, vtPoints, true),
			seed: rng.Hash64(0xAFF1E, uint64(id))})
	}
	return cases
}

// vtRandWeight is ±[0.25, 1.25], negative one time in four, float32-exact.
func vtRandWeight(r *rand.Rand) float64 {
	w := 0.25 + r.Float64()
	if r.IntN(4) == 0 {
		w = -w
	}
	return vtF32(w)
}
