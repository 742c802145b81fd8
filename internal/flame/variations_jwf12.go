package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The twelfth set of plugin variations (ids_jwf12.go). First, flam3
// variations with the parameters other programs give them:
//
//   - elliptic with JWildfire's mode (EllipticFunc): 0 is flam3's map
//     (the Apophysis plugin's), 1 (JWildfire's default, its legacy
//     behaviour) takes y's sign from a draw instead of from y, 2 is Claude
//     Heiland-Allen's formulation with sqrt(1+x)−1 and log1p, which keeps
//     the precision the original loses near the x axis.
//   - splits with JWildfire's lshear, rshear, ushear and dshear
//     (SplitsFunc): each half plane is also moved along the other axis.
//   - waves2 with Fractorium's scalez and freqz (Waves2Variation): z gains
//     scalez·sin(r·freqz), r the affine point's distance from the z axis.
//     Fractorium's waves2 also carries z as w·z, as all its variations do;
//     procgen's 2D variations write no z (README), so this one writes only
//     the wave.
//   - log with Fractorium's base (LogVariation): x is ln(x²+y²)·w/(2 ln base).
//
// Then JWildfire's next most used in the artists' corpus: waves2_3D
// (waves2 with one frequency and scale, and a wave in z of the mean of x
// and y), spherical3D_wf (spherical in 3D, the distance to a power, and
// its negative with invert) and heart_wf (a heart curve's radius by the
// angle from the y axis, each half scaled on its own).
//
// Random draws (u = Float64):
//
//	elliptic (mode) u1: in mode 1, y's sign is + where u1 < ½ (JWildfire's
//	                    pContext.random() < 0.5); drawn and unused in the
//	                    other modes, as every variation's count is fixed
//
// Every other variation here draws nothing.

// jwf12DefaultParams sets the defaults of these variations' parameters:
// those that make each the flam3 variation it extends (a file without the
// parameter means flam3's map), not JWildfire's default mode 1.
func jwf12DefaultParams(p *Params) {
	p[PLogBase] = math.E
	p[PWaves23DFreq], p[PWaves23DScale] = 2, 1
	p[PSpherical3DWfExponent] = 2
	p[PHeartWfScaleX], p[PHeartWfScaleRLeft], p[PHeartWfScaleRRight] = 1, 1, 1
}

// extendFlam3Vars moves the weight of each flam3 variation that x's file
// gives one of another program's parameters for, at a value that changes
// flam3's map, to the variation that honours it: elliptic_mode 1 or 2
// (JWildfire's FTOI, clamped to 0..2), any splits shear, waves2_scalez and
// log_base other than e. Otherwise flam3's variation (and kernel) stays.
func extendFlam3Vars(w *[NumVars]float64, p *Params) {
	move := func(from, to VarID, extended bool) {
		if extended && w[from] != 0 {
			w[to] += w[from]
			w[from] = 0
		}
	}
	move(VarElliptic, VarEllipticMode, ellipticMode(p) != 0)
	move(VarSplits, VarSplitsShear, p[PSplitsLshear] != 0 || p[PSplitsRshear] != 0 || p[PSplitsUshear] != 0 ||
		p[PSplitsDshear] != 0)
	move(VarWaves2, VarWaves2Z, p[PWaves2Scalez] != 0)
	move(VarLog, VarLogBase, p[PLogBase] != math.E)
}

// ellipticMode is JWildfire's mode: Tools.limitValue(FTOI(v), 0, 2).
func ellipticMode(p *Params) float64 { return min(max(ftoi(p[PEllipticMode]), 0), 2) }

// applyJWF12 adds plugin variation id with weight w to s, for the ids
// applyJWF sends here.
func (s *varState) applyJWF12(id VarID, w float64, r *rng.Stream) {
	p := s.p
	switch id {
	case VarEllipticMode:
		s.ellipticMode(w, r.Float64())
	case VarSplitsShear: // JWildfire's order: x's half plane, then y's
		if s.tx >= 0 {
			s.px += w * (s.tx + p[PSplitsX])
			s.py += w * p[PSplitsRshear]
		} else {
			s.px += w * (s.tx - p[PSplitsX])
			s.py -= w * p[PSplitsLshear]
		}
		if s.ty >= 0 {
			s.py += w * (s.ty + p[PSplitsY])
			s.px += w * p[PSplitsUshear]
		} else {
			s.py += w * (s.ty - p[PSplitsY])
			s.px -= w * p[PSplitsDshear]
		}
	case VarWaves2Z: // flam3's waves2 and a wave in z
		s.waves2(w)
		s.pz += w * p[PWaves2Scalez] * math.Sin(s.sqrt*p[PWaves2Freqz])
	case VarLogBase: // Fractorium's precalc: m_Denom = w·0.5/ln base
		s.px += math.Log(s.sumsq) * (w * 0.5 / math.Log(p[PLogBase]))
		s.py += w * s.atanYX()
	case VarWaves23D: // z: the wave of the mean of x and y, and z itself
		f, k := p[PWaves23DFreq], p[PWaves23DScale]
		s.px += w * (s.tx + k*math.Sin(s.ty*f))
		s.py += w * (s.ty + k*math.Sin(s.tx*f))
		s.pz += w * (s.tz + k*math.Sin((s.tx+s.ty)/2*f))
	case VarSpherical3DWf:
		s.spherical3DWf(w)
	case VarHeartWf:
		s.heartWf(w)
	}
}

// spherical3DWf is JWildfire's spherical3D_wf: the point over its squared
// distance (+SMALL_EPSILON), or over the distance to the power exponent
// where that is not 2 (to JWildfire's EPSILON); negated where invert
// (FTOI) is not 0.
func (s *varState) spherical3DWf(w float64) {
	d2 := s.tx*s.tx + s.ty*s.ty + s.tz*s.tz + 1e-300
	e := s.p[PSpherical3DWfExponent]
	r := w / d2
	if math.Abs(e-2) >= 1e-8 {
		r = w / math.Pow(d2, e/2)
	}
	if ftoi(s.p[PSpherical3DWfInvert]) != 0 {
		r = -r
	}
	s.px += s.tx * r
	s.py += s.ty * r
	s.pz += s.tz * r
}

// heartWfTMax is JWildfire's T_MAX: the heart's parameter in degrees.
const heartWfTMax = 60

// heartWf is JWildfire's heart_wf: the angle from the y axis, scaled per
// half (scale_r_left for x < 0) and shifted, is the heart curve's
// parameter t (at most T_MAX); the curve's point at t times the radius,
// x scaled by scale_x.
func (s *varState) heartWf(w float64) {
	p := s.p
	a, r := s.atanXY(), s.sqrt
	var t, nx float64
	if a < 0 {
		t = min(-a/math.Pi*heartWfTMax*p[PHeartWfScaleRLeft]-p[PHeartWfShiftT], heartWfTMax)
		nx = -0.001 * (-t*t + 40*t + 1200) * math.Sin(math.Pi*t/180) * r
	} else {
		t = min(a/math.Pi*heartWfTMax*p[PHeartWfScaleRRight]-p[PHeartWfShiftT], heartWfTMax)
		nx = 0.001 * (-t*t + 40*t + 1200) * math.Sin(math.Pi*t/180) * r
	}
	ny := -0.001 * (-t*t + 40*t + 400) * math.Cos(math.Pi*t/180) * r
	s.px += w * nx * p[PHeartWfScaleX]
	s.py += w * ny
}

// ellipticMode is JWildfire's elliptic in its three modes, u the draw.
func (s *varState) ellipticMode(w, u float64) {
	v := w * 2 / math.Pi // JWildfire's pAmount·M_2_PI
	x, y := s.tx, s.ty
	if ellipticMode(s.p) == 2 {
		xmaxm1 := 0.5 * (sqrt1pm1(s.sumsq+2*x) + sqrt1pm1(s.sumsq-2*x))
		ssx := 0.0
		if xmaxm1 >= 0 {
			ssx = math.Sqrt(xmaxm1)
		}
		a := x / (1 + xmaxm1)
		s.px += v * math.Asin(max(-1, min(1, a)))
		s.py += ySign(y > 0) * v * math.Log1p(xmaxm1+ssx)
		return
	}
	angle, lg := ellipticParts(x, s.sumsq, true)
	sign := ySign(y > 0)
	if ellipticMode(s.p) == 1 {
		sign = ySign(u < 0.5)
	}
	s.px += v * angle
	s.py += sign * v * lg
}

// ySign is 1 where pos holds, else −1.
func ySign(pos bool) float64 {
	if pos {
		return 1
	}
	return -1
}

// sqrtSafe is JWildfire's EllipticFunc.sqrt_safe: 0 below SMALL_EPSILON.
func sqrtSafe(x float64) float64 {
	if x < 1e-300 {
		return 0
	}
	return math.Sqrt(x)
}

// sqrt1pm1 is sqrt(1+x)−1, by JWildfire's [4,4] Padé approximant of it
// where |x| < 1/16 (the same coefficients, so the same numbers) and
// directly elsewhere.
func sqrt1pm1(x float64) float64 {
	if -0.0625 < x && x < 0.0625 {
		num := ((((1.0/32)*x+5.0/16)*x+3.0/4)*x + 1.0/2) * x
		den := ((((1.0/256)*x+5.0/32)*x+15.0/16)*x+7.0/4)*x + 1
		return num / den
	}
	return math.Sqrt(1+x) - 1
}
