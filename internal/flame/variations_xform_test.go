package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// TestApplyXformComposite checks sums of several variations, pre_blur
// included, against the references: pre_blur moves t and draws first, the
// rest follow in VarID order whatever order Vars had before Precalc.
func TestApplyXformComposite(t *testing.T) {
	p := varTestParams()
	pick := rng.NewStream(99)
	for trial := range 300 {
		n := 2 + int(pick.Uint64()%4)
		var terms []VarTerm
		used := map[VarID]bool{}
		for len(terms) < n {
			id := VarID(pick.Uint64() % uint64(Flam3NumVars)) // refs has flam3's
			if trial%3 == 0 && len(terms) == 0 {
				id = VarPreBlur
			}
			if used[id] {
				continue
			}
			used[id] = true
			terms = append(terms, VarTerm{id, 0.2 + pick.Float64()})
		}
		x := varTestXform(varTestCoefs, p, terms...) // sorts terms
		pt := varTestPoints[trial%len(varTestPoints)]
		r := rng.NewStream(uint64(trial))
		want := r
		in := refIn{c: &x.Coefs, p: &x.Params}
		in.x, in.y = x.Coefs.Apply(pt[0], pt[1])
		for _, v := range x.Vars {
			if v.ID == VarPreBlur {
				in.w, in.d = v.Weight, refDraws(want, varDraws[VarPreBlur])
				dx, dy := refPreBlur(in)
				in.x += dx
				in.y += dy
				for range in.d {
					want.Uint64()
				}
			}
		}
		var wx, wy, scale float64
		for _, v := range x.Vars {
			if v.ID == VarPreBlur {
				continue
			}
			in.w, in.d = v.Weight, refDraws(want, varDraws[v.ID])
			for range in.d {
				want.Uint64()
			}
			vx, vy := refs[v.ID](in)
			wx, wy = wx+vx, wy+vy
			scale += math.Abs(vx) + math.Abs(vy)
		}
		gx, gy, _ := ApplyXform(x, pt[0], pt[1], &r)
		if !closeTo(gx, wx, scale) || !closeTo(gy, wy, scale) {
			t.Errorf("%v: got (%.15g, %.15g), want (%.15g, %.15g)", x.Vars, gx, gy, wx, wy)
		}
		if r != want {
			t.Errorf("%v: the stream did not advance as documented", x.Vars)
		}
	}
}

func TestApplyXformPreBlur(t *testing.T) {
	p := varTestParams()
	// Listed out of order on purpose: Precalc sorts, pre_blur still draws first.
	x := varTestXform(varTestCoefs, p, VarTerm{VarPreBlur, 0.3}, VarTerm{VarBlur, 0.5}, VarTerm{VarLinear, 1})
	if x.Vars[0].ID != VarLinear || x.Vars[1].ID != VarBlur || x.Vars[2].ID != VarPreBlur {
		t.Fatalf("Precalc did not sort Vars: %v", x.Vars)
	}
	r := rng.NewStream(5)
	d := refDraws(r, 7)
	tx, ty := x.Coefs.Apply(0.4, 0.1)
	dx, dy := refPreBlur(refIn{w: 0.3, d: d[:5]})
	bx, by := refs[VarBlur](refIn{w: 0.5, d: d[5:]})
	wx, wy := tx+dx+bx, ty+dy+by
	gx, gy, ok := ApplyXform(x, 0.4, 0.1, &r)
	if !ok || !closeTo(gx, wx, 1) || !closeTo(gy, wy, 1) {
		t.Errorf("got (%g, %g, %v), want (%g, %g)", gx, gy, ok, wx, wy)
	}
}

func TestApplyXformPostAndBadValues(t *testing.T) {
	p := varTestDefaults()
	x := varTestXform(Identity, p, VarTerm{VarLinear, 1})
	x.Post = Affine{2, 0, 0, 3, 1, -1}
	r := rng.NewStream(1)
	if gx, gy, ok := ApplyXform(x, 0.5, 0.25, &r); !ok || gx != 2 || gy != -0.25 {
		t.Errorf("post: got (%g, %g, %v), want (2, -0.25, true)", gx, gy, ok)
	}
	for _, tc := range []struct {
		name   string
		v      VarID
		px, py float64
		ok     bool
	}{
		{"overflow", VarExponential, 800, 0, false},
		{"beyond 1e10", VarLinear, 2e10, 0, false},
		{"at 1e10", VarLinear, 1e10, -1e10, true},
		{"NaN", VarPolar, math.NaN(), 0, false},
		{"spherical at origin (EPS)", VarSpherical, 0, 0, true},
		{"modulus by zero", VarModulus, 0.5, 0.5, false},
	} {
		x := varTestXform(Identity, p, VarTerm{tc.v, 1})
		if _, _, ok := ApplyXform(x, tc.px, tc.py, &r); ok != tc.ok {
			t.Errorf("%s: ok = %v, want %v", tc.name, ok, tc.ok)
		}
	}
}

func TestPrecalc(t *testing.T) {
	p := varTestDefaults()
	p[PPerspectiveAngle], p[PPerspectiveDist] = 1.0/3, 2
	p[PJulianPower], p[PJulianDist] = -3, 2
	p[PJuliascopePower], p[PJuliascopeDist] = 4, 1
	p[PRadialBlurAngle] = 1
	p[PDisc2Rot], p[PDisc2Twist] = 0.5, 7
	p[PSuperShapeM], p[PSuperShapeN1] = 6, 4
	p[PWedgeJuliaAngle], p[PWedgeJuliaCount], p[PWedgeJuliaPower], p[PWedgeJuliaDist] = math.Pi/2, 2, -2, 3
	p[PJulia3DPower], p[PJulia3DzPower] = 2.5, -2.5 // FTOI rounds half away from zero
	p[PCurl3DCx], p[PCurl3DCy], p[PCurl3DCz] = 1, 2, -2
	p[PAffine3DRotateX], p[PAffine3DRotateY], p[PAffine3DRotateZ] = 90, -30, 180
	p[PHypertile2P], p[PHypertile2Q] = 4, 5.5                        // q rounds to 6
	p[PHypertile1P], p[PHypertile1Q] = 1, 3                          // p held at 3; {3, 3} is no hyperbolic tiling (r² < 0): r = 1
	p[PBwraps7Cellsize], p[PBwraps7Space], p[PBwraps7Gain] = 1, 0, 2 // a bubble past 2: curved round the back
	p[PBoarders2C], p[PBoarders2Left], p[PBoarders2Right] = -0.5, 0, 0.5
	p[PJulian2Power], p[PJulian2Dist] = -2.5, 1.5               // FTOI: −3
	p[PWaves4WfDampx], p[PWaves4WfDampy] = 1e-9, math.Log(2)    // below JWildfire's EPSILON: none
	p[PPoincare3DR], p[PPoincare3DA], p[PPoincare3DB] = 2, 1, 0 // centre (0, 2, 0)
	p[PJuliaqPower], p[PJuliaqDivisor] = 4.4, -1.5              // FTOI: 4, −2
	p[PWaves2WfDampx], p[PWaves2WfDampy] = -1e-9, math.Log(3)   // below JWildfire's EPSILON: none
	p[PStarblurPower], p[PStarblurRange] = 2, 1                 // α = π/2: length √2, half-spike angle π/4
	x := &Xform{Coefs: Affine{1, 0, 0, 1, 0.5, -2}, Params: p, Vars: []VarTerm{{VarMobius, 1}, {VarLinear, 2}, {VarJulia, 3}}}
	Precalc(x)
	k := 1 + 7 - 2*math.Pi
	want := map[ParamID]float64{
		PPerspVsin: 0.5, PPerspVfcos: math.Sqrt(3),
		PJulianRn: 3, PJulianCn: -1.0 / 3,
		PJuliascopeRn: 4, PJuliascopeCn: 1.0 / 8,
		PRadialBlurSpinvar: 1, PRadialBlurZoomvar: 0,
		PWavesDx2: 4, PWavesDy2: 0.25,
		PDisc2Timespi: math.Pi / 2, PDisc2Sinadd: math.Sin(7) * k, PDisc2Cosadd: (math.Cos(7) - 1) * k,
		PSuperShapePm4: 1.5, PSuperShapePneg1N1: -0.25,
		PWedgeJuliaCf: 0.5, PWedgeJuliaRn: 2, PWedgeJuliaCn: -0.75,
		PJulia3DN: 3, PJulia3DCPower: -1.0 / 3, PJulia3DzN: -3, PJulia3DzCPower: -1.0 / 6,
		PCurl3DC2:     9,
		PAffine3DSinX: 1, PAffine3DCosX: 0, PAffine3DSinY: -0.5, PAffine3DCosY: math.Sqrt(3) / 2,
		PAffine3DSinZ: 0, PAffine3DCosZ: -1,
		// {4, 6}: r² = 1 − (0−1)/(0+cos(π/3)) = 3
		PHypertile2Pa: math.Pi / 2, PHypertile2R: 1 / math.Sqrt(3),
		PHypertile1Pa: 2 * math.Pi / 3, PHypertile1R: 1,
		PBwraps7G2: 4.000001, PBwraps7R2: 0.25, PBwraps7Rfactor: 0.5,
		PBoarders2Cc: 0.5, PBoarders2Cl: 0.5e-8, PBoarders2Cr: 0.75,
		PJulian2AbsN: 3, PJulian2CN: -0.25,
		PWaves4WfDampingX: 1, PWaves4WfDampingY: 2,
		PPoincare3DCx: 0, PPoincare3DCy: 2, PPoincare3DCz: 0, PPoincare3DC2: 4,
		PPoincare3DS2x: -3, PPoincare3DS2y: 5, PPoincare3DS2z: -3,
		PJuliaqHalfInvPower: -0.25, PJuliaqInvPower: -0.5, PJuliaqInvPower2pi: math.Pi / 2,
		PWaves2WfDampingX: 1, PWaves2WfDampingY: 3, PStarblurAlpha: math.Pi / 4, PStarblurLength: math.Sqrt2,
	}
	for id := ParamID(0); id < NumParams; id++ { // both precalculated ranges, the GPU's and the CPU-only one
		if !isPrecalc(id) {
			continue
		}
		w, ok := want[id]
		if !ok {
			t.Errorf("no expectation for %s", paramName(id))
			continue
		}
		if !closeTo(x.Params[id], w, 1) {
			t.Errorf("%s = %.15g, want %.15g", paramName(id), x.Params[id], w)
		}
	}
	if x.Vars[0].ID != VarLinear || x.Vars[1].ID != VarJulia || x.Vars[2].ID != VarMobius || x.Vars[0].Weight != 2 {
		t.Errorf("Vars not sorted by VarID: %v", x.Vars)
	}
	// A twist below −2π scales the adds by 1 + twist + 2π.
	x.Params[PDisc2Twist] = -7
	Precalc(x)
	k = 1 - 7 + 2*math.Pi
	if s, c := x.Params[PDisc2Sinadd], x.Params[PDisc2Cosadd]; !closeTo(s, math.Sin(-7)*k, 1) || !closeTo(c, (math.Cos(-7)-1)*k, 1) {
		t.Errorf("disc2 twist -7: sinadd, cosadd = %g, %g", s, c)
	}
}

func BenchmarkApplyXform(b *testing.B) {
	p := varTestDefaults()
	p[PJulianPower], p[PJulianDist] = 5, 0.8
	p[PSuperShapeM], p[PSuperShapeN1], p[PSuperShapeRnd] = 6, 2, 0.2
	c := Affine{0.6, 0.2, -0.3, 0.7, 0.1, -0.2}
	var pts [1024][2]float64
	src := rng.NewStream(1)
	for i := range pts {
		pts[i] = [2]float64{2*src.Float64() - 1, 2*src.Float64() - 1}
	}
	for _, bc := range []struct {
		name  string
		terms []VarTerm
	}{
		{"simple", []VarTerm{{VarLinear, 0.5}, {VarSpherical, 0.5}}},
		{"heavy", []VarTerm{{VarSpherical, 0.2}, {VarSwirl, 0.2}, {VarJulian, 0.3}, {VarBlur, 0.1}, {VarSuperShape, 0.2}}},
		// plugin variations from the first, a middle and the last
		// variations_jwf*.go files (applyJWF's dispatch)
		{"plugins", []VarTerm{{VarLinear, 0.4}, {VarSpherical3D, 0.2}, {VarWaves2b, 0.2}, {VarJoukowski, 0.2}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			x := varTestXform(c, p, bc.terms...)
			r := rng.NewStream(2)
			var sx float64
			i := 0
			for b.Loop() {
				pt := &pts[i&1023]
				ox, oy, _ := ApplyXform(x, pt[0], pt[1], &r)
				sx += ox + oy
				i++
			}
			if sx == 12345 {
				b.Log(sx)
			}
		})
	}
}
