package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// This file holds ApplyXform, the CPU twin of flam3's apply_xform (position
// only), and the dispatch over the 99 variations. The variations themselves
// live in variations_*.go, one family per file; Precalc is in precalc.go.
//
// Random draws
//
// The CUDA twin must draw exactly what the CPU draws, in the same order, so
// that both backends follow one stream. The rules:
//
//   - every flam3_random_isaac_01(rc) is one u = r.Float64() (in [0,1));
//   - every flam3_random_isaac_bit(rc) is one bit = r.Uint64()&1;
//   - flam3's variations make no other kind of draw (no isaac_rand % n);
//   - draws happen left to right in the formula as flam3 writes it; a sum of
//     four draws "u1+u2+u3+u4" is evaluated ((u1+u2)+u3)+u4;
//   - a variation draws unconditionally (never only on some branch), so the
//     count per variation is fixed: varDraws below is the table;
//   - a term whose weight is 0 is skipped entirely and draws nothing (flam3
//     only lists non-zero weights);
//   - pre_blur draws first, before any other variation, whatever its place
//     in VarID order (flam3 runs it on the affine output before precalc);
//     the others draw in increasing VarID order;
//   - ApplyXform itself draws nothing else. On a bad value flam3 replaces
//     the point with two isaac_11 draws; that is the renderer's job, not
//     ApplyXform's (it returns ok=false and has drawn only the variations').
//
// flam3's C casts are mapped as follows, identically on both backends:
// "(int)v" and "trunc(v)" become float64 truncation toward zero (Go
// math.Trunc, CUDA trunc()), never a 32-bit integer, so that huge quotients
// (fan2/rings2 with a zero parameter) do not overflow; cell's "int x =
// floor(...)" cell indices stay float64 too; "floor" stays floor;
// "rint" rounds half to even (math.RoundToEven, CUDA rint()); juliascope's
// parity test "(t & 1)" is taken on int64(t).
//
// Sequence of draws per variation (u = Float64, bit = Uint64()&1; w is the
// variation weight; tx,ty the affine output; r = sqrt(tx²+ty²)):
//
//	julia         bit            : angle = atan2(tx,ty)/2 (+π if bit==1)
//	noise         u1 u2          : θ = 2π·u1, radius = w·u2 (scales tx,ty)
//	julian        u1             : k = trunc(julian_rn·u1)
//	juliascope    u1             : k = trunc(juliascope_rn·u1)
//	blur          u1 u2          : θ = 2π·u1, radius = w·u2
//	gaussian_blur u1 u2 u3 u4 u5 : θ = 2π·u1, radius = w·(u2+u3+u4+u5-2)
//	radial_blur   u1 u2 u3 u4    : g = w·(u1+u2+u3+u4-2)
//	pie           u1 u2 u3       : slice = trunc(u1·slices+0.5),
//	                               angle uses u2·thickness, radius = w·u3
//	arch          u1             : angle = u1·w·π
//	square        u1 u2          : x = w·(u1-0.5), y = w·(u2-0.5)
//	rays          u1             : angle = w·u1·π
//	blade         u1             : angle = u1·w·r
//	twintrian     u1             : angle = u1·w·r
//	super_shape   u1             : drawn even when super_shape_rnd is 0
//	flower        u1             : radius factor (u1 - flower_holes)
//	conic         u1             : radius factor (u1 - conic_holes)
//	parabola      u1 u2          : u1 scales x, u2 scales y
//	boarders      u1             : u1 >= 0.75 picks the plain branch
//	cpow          u1             : branch = floor(cpow_power·u1)
//	pre_blur      u1 u2 u3 u4 u5 : g = w·(u1+u2+u3+u4-2), θ = 2π·u5
//	                               (note: angle LAST, unlike gaussian_blur)
//	wedge_julia   u1             : k = trunc(wedge_julia_rn·u1)
//
// Every other variation draws nothing.

// flam3Eps is flam3's EPS (private.h), added to denominators where flam3 does.
const flam3Eps = 1e-10

// varDraws is the number of draws each variation makes per application, as
// listed in "Random draws" above.
var varDraws = [NumVars]uint8{
	VarJulia: 1, VarNoise: 2, VarJulian: 1, VarJuliascope: 1, VarBlur: 2,
	VarGaussianBlur: 5, VarRadialBlur: 4, VarPie: 3, VarArch: 1, VarSquare: 2,
	VarRays: 1, VarBlade: 1, VarTwintrian: 1, VarSuperShape: 1, VarFlower: 1,
	VarConic: 1, VarParabola: 2, VarBoarders: 1, VarCpow: 1, VarPreBlur: 5,
	VarWedgeJulia: 1,
	VarJulia3D:    1, VarJulia3Dz: 1, VarSineblur: 2, VarBlur3D: 6,
	VarHypertile2: 1, VarHypertile1: 1, VarBoarders2: 1, VarJulian2: 1, VarJuliac: 1, VarSpirograph: 2, VarCannabiscurveWf: 2, VarCloverleafWf: 2, VarEpispiral: 1, VarYinYang: 1, VarJuliaq: 1, VarBlurZoom: 1, VarBlurLinear: 1, VarTileLog: 2, VarStarblur: 2, VarWaffle: 5,
	VarNpolar: 1, VarSynth: 4, VarAxisSymmetryWf: 1, VarPointSymmetryWf: 1,
	VarXtrb: 2, VarGaussian: 5, VarMirrorX: 1, VarWavesn: 1, VarNBlur: 4, VarBlade3D: 1, VarJulian3Dx: 1, VarTileHlp: 1, VarFalloff2: 4,
	VarAcosh: 1, VarAcosech: 1, VarBTransform: 1, VarGlynnSim1: 3,
	VarCircleblur: 2, VarMapleLeaf: 2, VarJapaneseMapleLeaf: 2, VarLissajous: 2,
	VarGlynnSim2: 2, VarDSpherical: 1, VarEJulia: 1, VarCpow3Wf: 3, VarSpirograph3D: 13, VarInflateZ4: 1,
	VarChecks: 2, VarBlurCircle: 2, VarSquare3D: 3, VarTriangle: 2, VarCone: 1,
	VarPowBlock: 1, VarLine: 1, VarSphericalN: 1, VarCpow3: 4,
	VarSuperShape3d: 3, VarHypertile3D2: 1, VarCubic3D: 1, VarAsteria: 1, VarFalloffFr: 3, VarRblur: 2, VarSphereblur: 3,
	VarBcircle: 1, VarSeashell3D: 2, VarRoseWf: 2, VarWaveblurWf: 4, VarFalloff3: 4, VarChrysanthemum: 1,
	VarExBlur: 6, VarShredded: 3, VarCrackle: 4, VarPlaneWf: 2, VarTrig: 2, VarFarblur: 6, VarSymNg15: 1, VarMaurerRose: 4, VarPRose3D: 2, VarSattractorJs: 2,
	VarEllipticMode: 1,
}

// varState is flam3's flam3_iter_helper: the affine output, the running sum
// of the variations, and the per-point values several variations share,
// computed at most once per application.
type varState struct {
	tx, ty       float64 // affine output (pre_blur may move it)
	px, py       float64 // sum of the weighted variations
	tz, pz       float64 // z of both, for the 3D variations (variations_jwf.go)
	sumsq, sqrt  float64 // tx²+ty² and its root, always computed (as flam3)
	atan, atanyx float64 // atan2(tx,ty) and atan2(ty,tx), lazily
	sina, cosa   float64 // tx/r and ty/r (sin and cos of atan), lazily
	have         uint8   // which lazy values are valid
	c            *Affine
	p            *Params
}

const (
	haveAtan uint8 = 1 << iota
	haveAtanYX
	haveAngles
)

// atanXY is flam3's precalc_atan, atan2(tx, ty) (x first: the angle from the
// y axis, flam3's convention for the classic variations).
func (s *varState) atanXY() float64 {
	if s.have&haveAtan == 0 {
		s.fillAtanXY()
	}
	return s.atan
}

// fillAtanXY is kept out of line so that atanXY's check inlines.
//
//go:noinline
func (s *varState) fillAtanXY() {
	s.atan = math.Atan2(s.tx, s.ty)
	s.have |= haveAtan
}

// atanYX is flam3's precalc_atanyx, the usual polar angle atan2(ty, tx).
func (s *varState) atanYX() float64 {
	if s.have&haveAtanYX == 0 {
		s.fillAtanYX()
	}
	return s.atanyx
}

//go:noinline
func (s *varState) fillAtanYX() {
	s.atanyx = math.Atan2(s.ty, s.tx)
	s.have |= haveAtanYX
}

// angles is flam3's precalc_sina, precalc_cosa: tx/r and ty/r (NaN at the
// origin, as in flam3).
func (s *varState) angles() (sina, cosa float64) {
	if s.have&haveAngles == 0 {
		s.sina = s.tx / s.sqrt
		s.cosa = s.ty / s.sqrt
		s.have |= haveAngles
	}
	return s.sina, s.cosa
}

// ApplyXform maps a point through xform x the way flam3's apply_xform does
// for the position: the affine Coefs, pre_blur, then every variation with a
// non-zero weight in x.Vars order (VarID order, which Precalc establishes),
// summed, then the Post affine unless it is the identity. x must have been
// through Precalc. Random variations draw from r as "Random draws" above
// documents. ok is false when the result is NaN or beyond ±1e10 (flam3's
// badvalue); the caller then picks a new point.
func ApplyXform(x *Xform, px, py float64, r *rng.Stream) (ox, oy float64, ok bool) {
	cx := compiledXform{coefs: x.Coefs, post: x.Post, postIdentity: x.Post.IsIdentity(), vars: x.Vars, params: &x.Params}
	for i := range x.Vars {
		if x.Vars[i].ID == VarPreBlur && x.Vars[i].Weight != 0 {
			cx.preBlur = x.Vars[i].Weight
			break
		}
	}
	return cx.apply(px, py, r)
}

// compiledXform is an xform as ApplyXform reads it, with what does not
// change between points worked out once: the renderer's chaos game keeps
// one per xform (only the non-zero terms), ApplyXform builds one per call.
type compiledXform struct {
	coefs, post  Affine
	postIdentity bool
	preBlur      float64     // pre_blur's weight, 0 without it
	flatten      bool        // JWildfire's flatten: z is 0 after the variations
	vars         []VarTerm   // VarID order; zero weights and pre_blur are skipped
	stages       []StageTerm // pre_ and post_ terms (apply3 only)
	params       *Params
}

// compileXform prepares x (after Precalc) for the chaos game.
func compileXform(x *Xform) compiledXform {
	cx := compiledXform{coefs: x.Coefs, post: x.Post, postIdentity: x.Post.IsIdentity(), params: &x.Params}
	for _, t := range x.Stages {
		if t.Weight != 0 {
			cx.stages = append(cx.stages, t)
		}
	}
	for _, v := range x.Vars {
		switch {
		case v.Weight == 0:
		case v.ID == VarPreBlur:
			if cx.preBlur == 0 {
				cx.preBlur = v.Weight
			}
		case v.ID == VarFlatten:
			cx.flatten = true
		default:
			cx.vars = append(cx.vars, v)
		}
	}
	return cx
}

// apply is ApplyXform's body.
func (cx *compiledXform) apply(px, py float64, r *rng.Stream) (ox, oy float64, ok bool) {
	c := &cx.coefs
	s := varState{
		tx: c[0]*px + c[2]*py + c[4],
		ty: c[1]*px + c[3]*py + c[5],
		c:  c,
		p:  cx.params,
	}
	if cx.preBlur != 0 {
		s.preBlur(cx.preBlur, r)
	}
	s.sumsq = s.tx*s.tx + s.ty*s.ty
	s.sqrt = math.Sqrt(s.sumsq)
	for _, v := range cx.vars {
		if v.Weight != 0 {
			s.apply(v.ID, v.Weight, r)
		}
	}
	ox, oy = s.px, s.py
	if !cx.postIdentity {
		ox, oy = cx.post.Apply(ox, oy)
	}
	return ox, oy, !badValue(ox) && !badValue(oy)
}

// powNonNeg is x^y for the variations' bases, which are never negative
// (radii, their squares, absolute values), through exp(y·log x) with the
// table exp and log of exp.go: Go's math.Pow is several times slower, and the
// result differs from it only in the last bits (flam3's own pow is a
// different libm). Pow's special cases
// for such bases hold: x^0 = 1^y = 1 (also for NaN and infinite operands),
// 0^y is 0 or +Inf by the sign of y, and NaN stays NaN.
func powNonNeg(x, y float64) float64 {
	if y == 0 || x == 1 {
		return 1
	}
	return exp(y * log(x))
}

// badValue is flam3's badvalue: NaN, or beyond ±1e10.
func badValue(v float64) bool { return !(v <= 1e10 && v >= -1e10) }

// apply adds variation id with weight w to s. pre_blur adds nothing here:
// ApplyXform has already applied it to (tx, ty).
func (s *varState) apply(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarLinear:
		s.linear(w)
	case VarSinusoidal:
		s.sinusoidal(w)
	case VarSpherical:
		s.spherical(w)
	case VarSwirl:
		s.swirl(w)
	case VarHorseshoe:
		s.horseshoe(w)
	case VarPolar:
		s.polar(w)
	case VarHandkerchief:
		s.handkerchief(w)
	case VarHeart:
		s.heart(w)
	case VarDisc:
		s.disc(w)
	case VarSpiral:
		s.spiral(w)
	case VarHyperbolic:
		s.hyperbolic(w)
	case VarDiamond:
		s.diamond(w)
	case VarEx:
		s.ex(w)
	case VarJulia:
		s.julia(w, r)
	case VarBent:
		s.bent(w)
	case VarWaves:
		s.waves(w)
	case VarFisheye:
		s.fisheye(w)
	case VarPopcorn:
		s.popcorn(w)
	case VarExponential:
		s.exponential(w)
	case VarPower:
		s.power(w)
	case VarCosine:
		s.cosine(w)
	case VarRings:
		s.rings(w)
	case VarFan:
		s.fan(w)
	case VarBlob:
		s.blob(w)
	case VarPdj:
		s.pdj(w)
	case VarFan2:
		s.fan2(w)
	case VarRings2:
		s.rings2(w)
	case VarEyefish:
		s.eyefish(w)
	case VarBubble:
		s.bubble(w)
	case VarCylinder:
		s.cylinder(w)
	case VarPerspective:
		s.perspective(w)
	case VarNoise:
		s.noise(w, r)
	case VarJulian:
		s.julian(w, r)
	case VarJuliascope:
		s.juliascope(w, r)
	case VarBlur:
		s.blur(w, r)
	case VarGaussianBlur:
		s.gaussianBlur(w, r)
	case VarRadialBlur:
		s.radialBlur(w, r)
	case VarPie:
		s.pie(w, r)
	case VarNgon:
		s.ngon(w)
	case VarCurl:
		s.curl(w)
	case VarRectangles:
		s.rectangles(w)
	case VarArch:
		s.arch(w, r)
	case VarTangent:
		s.tangent(w)
	case VarSquare:
		s.square(w, r)
	case VarRays:
		s.rays(w, r)
	case VarBlade:
		s.blade(w, r)
	case VarSecant2:
		s.secant2(w)
	case VarTwintrian:
		s.twintrian(w, r)
	case VarCross:
		s.cross(w)
	case VarDisc2:
		s.disc2(w)
	case VarSuperShape:
		s.superShape(w, r)
	case VarFlower:
		s.flower(w, r)
	case VarConic:
		s.conic(w, r)
	case VarParabola:
		s.parabola(w, r)
	case VarBent2:
		s.bent2(w)
	case VarBipolar:
		s.bipolar(w)
	case VarBoarders:
		s.boarders(w, r)
	case VarButterfly:
		s.butterfly(w)
	case VarCell:
		s.cell(w)
	case VarCpow:
		s.cpow(w, r)
	case VarCurve:
		s.curve(w)
	case VarEdisc:
		s.edisc(w)
	case VarElliptic:
		s.elliptic(w)
	case VarEscher:
		s.escher(w)
	case VarFoci:
		s.foci(w)
	case VarLazysusan:
		s.lazysusan(w)
	case VarLoonie:
		s.loonie(w)
	case VarPreBlur:
		// Applied to (tx, ty) before everything else.
	case VarModulus:
		s.modulus(w)
	case VarOscilloscope:
		s.oscilloscope(w)
	case VarPolar2:
		s.polar2(w)
	case VarPopcorn2:
		s.popcorn2(w)
	case VarScry:
		s.scry(w)
	case VarSeparation:
		s.separation(w)
	case VarSplit:
		s.split(w)
	case VarSplits:
		s.splits(w)
	case VarStripes:
		s.stripes(w)
	case VarWedge:
		s.wedge(w)
	case VarWedgeJulia:
		s.wedgeJulia(w, r)
	case VarWedgeSph:
		s.wedgeSph(w)
	case VarWhorl:
		s.whorl(w)
	case VarWaves2:
		s.waves2(w)
	case VarExp:
		s.exp(w)
	case VarLog:
		s.log(w)
	case VarSin:
		s.sin(w)
	case VarCos:
		s.cos(w)
	case VarTan:
		s.tan(w)
	case VarSec:
		s.sec(w)
	case VarCsc:
		s.csc(w)
	case VarCot:
		s.cot(w)
	case VarSinh:
		s.sinh(w)
	case VarCosh:
		s.cosh(w)
	case VarTanh:
		s.tanh(w)
	case VarSech:
		s.sech(w)
	case VarCsch:
		s.csch(w)
	case VarCoth:
		s.coth(w)
	case VarAuger:
		s.auger(w)
	case VarFlux:
		s.flux(w)
	case VarMobius:
		s.mobius(w)
	default:
		s.applyJWF(id, w, r)
	}
}
