package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// JWildfire's plugin variations: the most used ones beyond flam3's 99 in the
// artists' corpus. Semantics follow JWildfire's variation classes (facts and
// formulas; the code is this project's). JWildfire's points carry z: the
// affine passes z through, the variations' sum starts at (0, 0, 0), a 2D
// variation adds nothing to z (JWildfire's default, preserve_z off), and
// the post affine leaves z alone. These variations read and write z through
// varState.tz and pz; chaosGame runs the z-carrying loop (runBatch3D) only
// for genomes that use one of them (uses3D), so 2D genomes never see it.
//
// Random draws (see variations.go's "Random draws"; u = Float64):
//
//	julia3D, julia3Dz u1          : k = trunc(u1·|n|), n the integer power
//	sineblur          u1 u2       : angle = 2π·u1, radius from u2
//	blur3D            u1..u4 u5 u6: radius w·(u1+u2+u3+u4−2), azimuth 2π·u5,
//	                                polar angle π·u6 (JWildfire keeps a ring
//	                                of four past draws for the radius; this
//	                                draws them afresh: the same distribution)

// jwfDefaultParams sets JWildfire's defaults for the parameters of these
// variations (julia3D's power is random in JWildfire when unset; every file
// it writes sets it, and 2 is julia's own power).
func jwfDefaultParams(p *Params) {
	p[PJulia3DPower], p[PJulia3DzPower] = 2, 2
	p[PCurl3DCy], p[PCurl3DCz] = 0.05, 0.05
	p[PBlob3DLow], p[PBlob3DHigh], p[PBlob3DWaves] = 0.3, 1.2, 6
	p[PSineblurPower] = 1
	p[PEpispiralWfWaves] = 4
	jwf2DefaultParams(p)
}

// jwfPrecalc derives what JWildfire's init computes once per render.
func jwfPrecalc(p *Params) {
	n := ftoi(p[PJulia3DPower])
	p[PJulia3DN] = n
	p[PJulia3DCPower] = (1/n - 1) / 2
	n = ftoi(p[PJulia3DzPower])
	p[PJulia3DzN] = n
	p[PJulia3DzCPower] = 1 / n / 2
	cx, cy, cz := p[PCurl3DCx], p[PCurl3DCy], p[PCurl3DCz]
	p[PCurl3DC2] = cx*cx + cy*cy + cz*cz
	jwf2Precalc(p)
}

// ftoi is JWildfire's Tools.FTOI: round half away from zero to an integer
// (kept in a float64, as the powers it makes are used as floats).
func ftoi(v float64) float64 {
	switch {
	case v > 0:
		return math.Trunc(v + 0.5)
	case v < 0:
		return math.Trunc(v - 0.5)
	}
	return 0
}

// uses3D reports whether a variation reads or writes z: a genome with one
// of them runs the z-carrying chaos game. flatten is not one: it only
// zeroes z, which matters only where another variation reads z; so the
// flam3 corpus genomes that carry it from Apophysis keep the 2D loop.
func uses3D(id VarID) bool {
	switch id {
	case VarLinear3D, VarJulia3D, VarZscale, VarZtranslate, VarSpherical3D, VarCurl3D,
		VarHemisphere, VarBlur3D, VarZcone, VarJulia3Dz, VarBlob3D, VarAffine3D, VarPoincare3D, VarCylinderApo, VarTileLog, VarBubble2, VarOctagon,
		VarAxisSymmetryWf, VarPointSymmetryWf, VarBlade3D, VarJulian3Dx, VarFalloff2,
		VarFoci3D, VarLinearT3D, VarButterfly3D, VarInflateZ3, VarDisc3D, VarSpirograph3D,
		VarInflateZ1, VarInflateZ4, VarInflateZ5, VarInflateZ6, VarSecq, VarTanhq, VarSph3D, VarSquare3D,
		VarWhitneyUmbrella, VarTriangle, VarCone, VarEnnepers2, VarPyramid, VarLine, VarHypertile3D,
		VarSuperShape3d, VarHypertile3D2, VarCubic3D, VarFalloffFr, VarRotateY, VarRotateZ, VarSphereblur, VarSpherical3DFr,
		VarSeashell3D, VarWaveblurWf, VarFalloff3, VarExBlur, VarGlitchy1, VarLazysensen, VarShredded,
		VarPlaneWf, VarFarblur, VarPRose3D, VarWaves2Z, VarWaves23D, VarSpherical3DWf:
		return true
	}
	return false
}

// applyJWF1 adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
// flatten is not here: it zeroes z after every other variation
// (JWildfire's priority +1), which compiledXform.apply3 does.
func (s *varState) applyJWF1(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarLinear3D:
		s.px += w * s.tx
		s.py += w * s.ty
		s.pz += w * s.tz
	case VarJulia3D:
		s.julia3D(w, r)
	case VarZscale:
		s.pz += w * s.tz
	case VarZtranslate:
		s.pz += w
	case VarSpherical3D:
		k := w / (s.sumsq + s.tz*s.tz + 1e-300)
		s.px += k * s.tx
		s.py += k * s.ty
		s.pz += k * s.tz
	case VarSineblur:
		s.sineblur(w, r)
	case VarCurl3D:
		s.curl3D(w)
	case VarHemisphere:
		k := w / math.Sqrt(s.sumsq+1)
		s.px += k * s.tx
		s.py += k * s.ty
		s.pz += k
	case VarBlur3D:
		s.blur3D(w, r)
	case VarZcone:
		s.pz += w * s.sqrt
	case VarJulia3Dz:
		s.julia3Dz(w, r)
	case VarBlob3D:
		s.blob3D(w)
	case VarEpispiralWf:
		s.epispiralWf(w)
	}
}

// julia3D: julia's n-th root in the plane, with z scaled along by the
// radius in 3D.
func (s *varState) julia3D(w float64, r *rng.Stream) {
	p := s.p
	n := p[PJulia3DN]
	an := math.Abs(n)
	z := s.tz / an
	k := w * math.Pow(s.sumsq+z*z, p[PJulia3DCPower])
	k2 := k * s.sqrt
	t := math.Trunc(r.Float64() * an)
	sa, ca := math.Sincos((math.Atan2(s.ty, s.tx) + 2*math.Pi*t) / n)
	s.px += k2 * ca
	s.py += k2 * sa
	s.pz += k * z
}

// julia3Dz: julia's n-th root in the plane, z scaled by the 2D radius.
func (s *varState) julia3Dz(w float64, r *rng.Stream) {
	p := s.p
	n := p[PJulia3DzN]
	an := math.Abs(n)
	k := w * math.Pow(s.sumsq, p[PJulia3DzCPower])
	t := math.Trunc(r.Float64() * an)
	sa, ca := math.Sincos((math.Atan2(s.ty, s.tx) + 2*math.Pi*t) / n)
	s.px += k * ca
	s.py += k * sa
	s.pz += k * s.tz / (s.sqrt * an)
}

// sineblur: a disc blur whose radius is acos-distributed, sharpened by power.
func (s *varState) sineblur(w float64, r *rng.Stream) {
	pw := max(s.p[PSineblurPower], 0)
	sa, ca := math.Sincos(r.Float64() * 2 * math.Pi)
	u := r.Float64()
	var k float64
	if pw == 1 {
		k = w * math.Acos(u*2-1) / math.Pi
	} else {
		k = w * math.Acos(math.Exp(math.Log(u)*pw)*2-1) / math.Pi
	}
	s.px += k * ca
	s.py += k * sa
}

// curl3D: curl's Möbius-like inversion in 3D about (cx, −cy, cz).
func (s *varState) curl3D(w float64) {
	p := s.p
	cx, cy, cz := p[PCurl3DCx], p[PCurl3DCy], p[PCurl3DCz]
	x, y, z := s.tx, s.ty, s.tz
	r2 := s.sumsq + z*z
	k := w / (r2*p[PCurl3DC2] + 2*cx*x - 2*cy*y + 2*cz*z + 1)
	s.px += k * (x + cx*r2)
	s.py += k * (y - cy*r2)
	s.pz += k * (z + cz*r2)
}

// blur3D: a gaussian-ish ball of radius w.
func (s *varState) blur3D(w float64, r *rng.Stream) {
	g := r.Float64() + r.Float64()
	g += r.Float64()
	g += r.Float64()
	k := w * (g - 2)
	sa, ca := math.Sincos(r.Float64() * 2 * math.Pi)
	sb, cb := math.Sincos(r.Float64() * math.Pi)
	s.px += k * sb * ca
	s.py += k * sb * sa
	s.pz += k * cb
}

// blob3D: blob, lifting the lobes into z.
func (s *varState) blob3D(w float64) {
	p := s.p
	a := s.atanXY()
	sw := math.Sin(p[PBlob3DWaves] * a)
	rr := s.sqrt * (p[PBlob3DLow] + (p[PBlob3DHigh]-p[PBlob3DLow])*(0.5+0.5*sw))
	sa, ca := math.Sincos(a)
	s.px += w * sa * rr
	s.py += w * ca * rr
	s.pz += w * sw * rr
}

// epispiral_wf: the epispiral r = 0.5/cos(waves·θ), θ = atan2(x, y);
// nothing where the cosine is exactly 0.
func (s *varState) epispiralWf(w float64) {
	a := s.atanXY()
	d := math.Cos(s.p[PEpispiralWfWaves] * a)
	if d == 0 {
		return
	}
	rr := 0.5 / d
	sa, ca := math.Sincos(a)
	s.px += w * sa * rr
	s.py += w * ca * rr
}
