//go:build cuda

package flame

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The parameters and branch runs of cuda/flame_variations_3d2.cuh's
// variations in the 3D pointwise runs (Test3DVariationsHostTwin,
// TestCUDA3DVariationsMatchCPU). vt3Params2 draws them from a generator of
// its own, seeded by two of vt3Params' earlier draws, so the earlier
// variations' parameters and points stay the ones their runs had.

// vt3Params2 draws the 3d2 variations' parameters into p.
func vt3Params2(p *Params) {
	r := rand.New(rand.NewPCG(math.Float64bits(p[PCurl3DCx]), math.Float64bits(p[PTileLogSpread])))
	u := func(lo, hi float64) float64 { return vtF32(lo + (hi-lo)*r.Float64()) }
	n := func(k int) float64 { return float64(r.IntN(k)) }
	p[PFalloff2Scatter], p[PFalloff2Mindist] = u(0.5, 20), u(-0.2, 1)
	p[PFalloff2MulX], p[PFalloff2MulY], p[PFalloff2MulZ] = u(-0.2, 1.2), u(-0.2, 1.2), u(-0.2, 1.2)
	p[PFalloff2X0], p[PFalloff2Y0], p[PFalloff2Z0] = u(-1, 1), u(-1, 1), u(-1, 1)
	p[PFalloff2Invert], p[PFalloff2Type] = n(2), n(3)
	p[POctagonX], p[POctagonY], p[POctagonZ], p[POctagonMode] = u(-1, 1), u(-1, 1), u(-1, 1), n(7)
	p[PDisc3DPi] = u(1, 4)
	p[PFalloff3BlurType], p[PFalloff3BlurShape], p[PFalloff3BlurStrength] = n(3), n(2), u(0.5, 20)
	p[PFalloff3MinDistance], p[PFalloff3InvertDistance] = u(-0.2, 1), n(2)
	p[PFalloff3MulX], p[PFalloff3MulY], p[PFalloff3MulZ] = u(-0.2, 1.2), u(-0.2, 1.2), u(-0.2, 1.2)
	p[PFalloff3CenterX], p[PFalloff3CenterY], p[PFalloff3CenterZ] = u(-1, 1), u(-1, 1), u(-1, 1)
	p[PFalloff3Alpha] = u(-1, 1)
	p[PLinearT3DPowX], p[PLinearT3DPowY], p[PLinearT3DPowZ] = u(0.3, 2.5), u(0.3, 2.5), u(0.3, 2.5)
	p[PSpirograph3DA], p[PSpirograph3DB], p[PSpirograph3DC] = u(0.5, 2), []float64{-1, 1}[r.IntN(2)]*u(0.2, 1), u(-1, 1)
	p[PSpirograph3DTmin], p[PSpirograph3DTmax] = u(-10, 0), u(0, 1000)
	p[PSpirograph3DWidth], p[PSpirograph3DMode] = u(0, 0.5), n(5)
	p[PExBlurDist], p[PExBlurR] = u(-0.5, 1.5), u(0, 1)
	p[PExBlurXOrigin], p[PExBlurYOrigin], p[PExBlurZOrigin] = u(-1, 1), u(-1, 1), u(-1, 1)
	for _, id := range []ParamID{PGlitchy1ScaleX, PGlitchy1ScaleY, PGlitchy1ScaleZ} {
		p[id] = []float64{0, u(0.3, 4), -u(0.3, 4)}[r.IntN(3)]
	}
	p[PGlitchy1ShiftX], p[PGlitchy1ShiftY], p[PGlitchy1ShiftZ] = u(-1, 1), u(-1, 1), u(-1, 1)
	p[PGlitchy1NX], p[PGlitchy1NY], p[PGlitchy1NZ] = u(0, 6), u(0, 6), u(0, 6)
	p[PGlitchy1Width], p[PGlitchy1Seed], p[PGlitchy1Angle] = u(0.3, 5), u(-2000, 2000), u(-180, 180)
	p[PGlitchy1U], p[PGlitchy1V], p[PGlitchy1W] = u(-2, 2), u(-2, 2), u(-2, 2)
	for _, id := range []ParamID{PLazysensenScaleX, PLazysensenScaleY, PLazysensenScaleZ} {
		p[id] = []float64{0, u(0.3, 4), -u(0.3, 4)}[r.IntN(3)]
	}
	for k := range ParamID(3) {
		p[PShreddedX1+4*k], p[PShreddedX2+4*k], p[PShreddedX3+4*k] = u(-3, 3), u(-5, 5), u(-1.5, 1.5)
		p[PShreddedXBlurAmount+4*k] = u(-0.5, 0.5)
	}
	p[PShreddedType], p[PShreddedBlur] = u(-0.5, 2.5), u(-0.3, 1.3)
	for id := PPRose3DL; id <= PPRose3DOffset; id++ {
		p[id] = u(-1.5, 1.5)
	}
	p[PPRose3DL], p[PPRose3DK], p[PPRose3DOpt], p[PPRose3DOpt3] = u(0.3, 2), u(1, 9), u(-2.5, 2.5), u(-1.5, 1.5)
	p[PPRose3DTransp], p[PPRose3DF] = u(0, 1), u(0, 5)
	p[PSuperShape3dRho], p[PSuperShape3dPhi] = u(1, 12), u(0.5, 4)
	p[PSuperShape3dM1], p[PSuperShape3dM2] = u(0, 8), u(0, 8)
	for _, id := range []ParamID{PSuperShape3dA1, PSuperShape3dA2, PSuperShape3dB1, PSuperShape3dB2} {
		p[id] = u(0.5, 1.5)
	}
	for _, id := range []ParamID{PSuperShape3dN11, PSuperShape3dN12, PSuperShape3dN21, PSuperShape3dN22,
		PSuperShape3dN31, PSuperShape3dN32} {
		p[id] = u(0.5, 4)
	}
	p[PSuperShape3dSpiral], p[PSuperShape3dToroidmap] = u(-0.3, 0.3), n(2)
	for id := PConeRadius1; id <= PConeWarp; id++ {
		p[id] = u(0.3, 2)
	}
	p[PConeWeight] = u(0, 5)
	vt3Params4(p) // variations3d4_cuda_test.go
}

// vt3BranchCases run each mode of the 3d2 variations (random sets reach
// some of them only): falloff2's and falloff3's types (falloff3 also with
// the square distance, inverted), octagon's seven modes with both signs of
// the weight, shredded's three types with and without blur, pRose3D with
// and without its reflection (opt and opt3 negative) and blended waves,
// superShape3d's torus, spirograph3D's five widenings.
func vt3BranchCases(r *rand.Rand) []vt3Case {
	type set struct {
		name string
		id   VarID
		w    float64
		set  func(p *Params)
	}
	var sets []set
	for typ := range 3 {
		sets = append(sets, set{fmt.Sprintf("falloff2/type%d", typ), VarFalloff2, 0.8, func(p *Params) {
			p[PFalloff2Type], p[PFalloff2Scatter], p[PFalloff2Mindist] = float64(typ), 8, 0.2
			p[PFalloff2MulZ] = 1
		}})
		sets = append(sets, set{fmt.Sprintf("falloff3/type%d", typ), VarFalloff3, 1.1, func(p *Params) {
			p[PFalloff3BlurType], p[PFalloff3BlurStrength], p[PFalloff3Alpha] = float64(typ), 6, 0.4
		}})
		sets = append(sets, set{fmt.Sprintf("falloff3/type%d/square", typ), VarFalloff3, 0.7, func(p *Params) {
			p[PFalloff3BlurType], p[PFalloff3BlurShape], p[PFalloff3InvertDistance] = float64(typ), 1, 1
			p[PFalloff3BlurStrength], p[PFalloff3MinDistance], p[PFalloff3MulZ] = 12, 0, 0.6
		}})
	}
	for mode := range 7 {
		for _, w := range []float64{0.9, -0.6} {
			sets = append(sets, set{fmt.Sprintf("octagon/mode%d/w%g", mode, w), VarOctagon, w, func(p *Params) {
				p[POctagonMode], p[POctagonX], p[POctagonY], p[POctagonZ] = float64(mode), 0.3, -0.2, 0.1
			}})
		}
	}
	for typ := range 3 {
		for blur := range 2 {
			sets = append(sets, set{fmt.Sprintf("shredded/type%d/blur%d", typ, blur), VarShredded, 0.8, func(p *Params) {
				p[PShreddedType], p[PShreddedBlur] = float64(typ), float64(blur)
			}})
		}
	}
	for i, opt := range [][2]float64{{1, 0}, {-1.5, 0}, {0.5, -0.7}, {2, 0.5}} {
		sets = append(sets, set{fmt.Sprintf("pRose3D/opt%d", i), VarPRose3D, 0.9, func(p *Params) {
			p[PPRose3DOpt], p[PPRose3DOpt3], p[PPRose3DTransp] = opt[0], opt[1], 0.9
			p[PPRose3DWagsc], p[PPRose3DSrvsc], p[PPRose3DWigsc], p[PPRose3DOffset] = 0.3, 0.4, 0.5, 0.2
		}})
	}
	sets = append(sets, set{"superShape3d/toroid", VarSuperShape3d, 0.8, func(p *Params) { p[PSuperShape3dToroidmap] = 1 }})
	for mode := range 5 {
		sets = append(sets, set{fmt.Sprintf("spirograph3D/mode%d", mode), VarSpirograph3D, 0.6, func(p *Params) {
			p[PSpirograph3DMode], p[PSpirograph3DWidth] = float64(mode), 0.3
		}})
	}
	var cases []vt3Case
	for i, c := range sets {
		x := vtXform(VarTerm{ID: c.id, Weight: c.w})
		x.Params = DefaultParams()
		c.set(&x.Params)
		cases = append(cases, vt3Case{c.name, x, vt3PointsFor(c.id, r), rng.Hash64(0x3d3, uint64(i))})
	}
	return cases
}

// vt3PointsFor is vt3Points for variation id's runs: octagon's modes 0 and
// 1 take the square root of z itself (NaN below the plane, on the CPU as
// on the device), so three of its four points lie above it, for enough of
// them to compare; foci_3D reads the polar angle where z = 0, so half of
// its points lie in the plane.
func vt3PointsFor(id VarID, r *rand.Rand) []float32 {
	in := vt3Points(r, vtPoints)
	switch id {
	case VarOctagon:
		for i := 2; i < len(in); i += 3 {
			if i%4 != 0 {
				in[i] = float32(math.Abs(float64(in[i])))
			}
		}
	case VarFoci3D: // z = 0 takes the polar angle instead: half the points
		for i := 2; i < len(in); i += 6 {
			in[i] = 0
		}
	}
	return in
}
