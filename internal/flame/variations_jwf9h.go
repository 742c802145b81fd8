package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// More of the ninth set: JWildfire's seashell3D (writes z), rose_wf,
// pTransform, kaleidoscope (its weight is not applied, as in JWildfire's)
// and waveblur_wf (writes z; direct_color is reported as not honoured).
//
// Random draws (u = Float64), each unconditional:
//
//	seashell3D  u1 u2: the spiral's t and the tube's angle s (2π·u)
//	rose_wf     u1 u2: where filled > 0 and filled > u1 the radius is
//	            scaled by u2 (JWildfire draws u2 only then)
//	waveblur_wf u1 u2 u3 u4: angle, the ring's cosine 1 − 2·u2, the side
//	            (u3 < ½), the ring trunc(u4·count)

// jwf9hDefaultParams sets JWildfire's defaults for these variations.
func jwf9hDefaultParams(p *Params) {
	p[PSeashell3DFinalRadius], p[PSeashell3DHeight], p[PSeashell3DInnerRadius], p[PSeashell3DNSpirals] = 0.25, 3.5, 0.4, 3
	p[PRoseWfAmp], p[PRoseWfWaves], p[PRoseWfFilled] = 0.5, 4, 0.85
	p[PPTransformRotate], p[PPTransformPower], p[PPTransformMove], p[PPTransformUseLog] = 0.3, 2, 0.4, 1
	p[PKaleidoscopeRotate], p[PKaleidoscopeLineUp] = 1, 1
	p[PWaveblurWfCount], p[PWaveblurWfAmplitudeZ], p[PWaveblurWfColorScale] = 5, 0.5, 0.5
	jwf9iDefaultParams(p)
}

// unhonouredParam9h is unhonouredParam for these variations.
func unhonouredParam9h(id VarID, p *Params) string {
	if id == VarWaveblurWf && ftoi(p[PWaveblurWfDirectColor]) == 1 {
		return "waveblur_wf_direct_color"
	}
	if id == VarFalloff3 && p[PFalloff3MulC] > 0 { // scatters the colour (JWildfire clamps to [0, 1])
		return "falloff3_mul_c"
	}
	return unhonouredParam10(id, p)
}

// applyJWF9h adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF9h(id VarID, w float64, r *rng.Stream) {
	p := s.p
	x, y := s.tx, s.ty
	switch id {
	case VarSeashell3D:
		t, sa := 2*math.Pi*r.Float64(), 2*math.Pi*r.Float64()
		n := math.Trunc(p[PSeashell3DNSpirals]) // Java's (int)
		fr, in := p[PSeashell3DFinalRadius], p[PSeashell3DInnerRadius]
		k := fr * (1 - t/(2*math.Pi))
		sn, cs := math.Sincos(n * t)
		s.px += (k*cs*(1+math.Cos(sa)) + in*cs) * w
		s.py += (k*sn*(1+math.Cos(sa)) + in*sn) * w
		s.pz += (p[PSeashell3DHeight]*t/(2*math.Pi) + k*math.Sin(sa)) * w
	case VarRoseWf:
		a := math.Atan2(x, y) // JWildfire's precalculated angle
		rr := p[PRoseWfAmp] * math.Cos(ftoi(p[PRoseWfWaves])*a)
		u1, u2 := r.Float64(), r.Float64()
		if f := p[PRoseWfFilled]; f > 0 && f > u1 {
			rr *= u2
		}
		s.px += w * math.Sin(a) * rr
		s.py += w * math.Cos(a) * rr
	case VarPTransform:
		power := max(ftoi(p[PPTransformPower]), 1)
		useLog := min(max(ftoi(p[PPTransformUseLog]), 0), 1) != 0
		rho := s.sqrt/power + p[PPTransformMove]
		if useLog {
			rho = math.Log(s.sqrt)/power + p[PPTransformMove]
		}
		if x >= 0 {
			rho += p[PPTransformSplit]
		} else {
			rho -= p[PPTransformSplit]
		}
		if useLog {
			rho = math.Exp(rho)
		}
		sn, cs := math.Sincos(math.Atan2(y, x) + p[PPTransformRotate])
		s.px += w * rho * cs
		s.py += w * rho * sn
	case VarKaleidoscope: // the turn is cos 45 and sin 45 in radians, as JWildfire's
		_ = w
		q, rot, e := p[PKaleidoscopePull], p[PKaleidoscopeRotate], p[PKaleidoscopeLineUp]
		c45, s45 := math.Cos(45), math.Sin(45)
		s.px += rot*x*c45 - y*s45 + e + p[PKaleidoscopeX]
		if y > 0 {
			s.py += rot*y*c45 + x*s45 + q + e + p[PKaleidoscopeY]
		} else {
			s.py += rot*y*c45 + x*s45 - q - e
		}
	case VarWaveblurWf:
		s.waveblurWf(w, r)
	}
}

// waveblurWf: a disc blur of count concentric waves, lifted in z by the
// wave's amplitude (damped outwards by damping_z).
func (s *varState) waveblurWf(w float64, r *rng.Stream) {
	p := s.p
	count := ftoi(p[PWaveblurWfCount])
	if count < 1 {
		count = 1
	}
	ang := r.Float64() * 2 * math.Pi
	rnd := 1 - 2*r.Float64()
	side, ring := r.Float64(), math.Trunc(r.Float64()*count)
	var rr float64
	if side < 0.5 {
		rr = math.Acos(rnd) - (ring+1)*math.Pi + p[PWaveblurWfPhase]
	} else {
		rr = math.Acos(-rnd) - (ring+1)*math.Pi + p[PWaveblurWfPhase]
	}
	rr *= w / (count * math.Pi)
	sn, cs := math.Sincos(ang)
	s.px += rr * cs
	s.py += rr * sn
	if amp := p[PWaveblurWfAmplitudeZ]; amp != 0 {
		zamp := (math.Cos(rnd) - 0.5) * amp
		if d := max(p[PWaveblurWfDampingZ], 0); math.Abs(d) > 1e-300 { // JWildfire holds it at 0 or more
			zamp *= math.Exp(rr * d)
		}
		s.pz += w * zamp
	}
}
