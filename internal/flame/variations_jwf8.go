package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The eighth set of plugin variations: JWildfire's vibration2, xtrb,
// nBlur (variations_jwf8_nblur.go), blade3D and julian3Dx (both write z),
// tile_hlp, falloff2 (reads and writes z),
// and three that the corpus has from Fractorium and Apophysis 7X files:
// gaussian and mirror_x (written as pre_gaussian and pre_mirror_x) and
// wavesn, which follow Fractorium's formulas (JWildfire has no wavesn or
// mirror_x; its gaussian is an alias of gaussian_blur and it writes only
// that name). The others are 2D: z passes through a stage and the sum's z is left
// alone, as elsewhere (variations_jwf.go).
//
// Random draws (u = Float64):
//
//	xtrb      u1 u2      : u1 picks the hexagon's plain or bent map
//	                       (u1 ≥ 1 − width²: plain), root k = trunc(u2·(2³¹−1)) mod |power|
//	gaussian  u1..u5     : angle 2π·u1, radius w·(u2+u3+u4+u5−2)
//	mirror_x  u1         : u1 < ½ keeps x ≥ 0, else x ≤ 0
//	wavesn    u1         : root k = trunc(u1·|power|)
//	blade3D   u1         : angle u1·w·r
//	julian3Dx u1         : root k = trunc(u1·|power|)
//	tile_hlp  u1         : the point jumps a tile where cos(π·frac) < 2·u1 − 1
//	falloff2  u1 u2 u3 u4: the three scatter factors (type 1: z, y, x), u4
//	                       JWildfire's colour scatter (drawn, not applied)
//	nBlur     u1 u2 u3 u4: angle within an edge from u1, edge k = trunc(u2·32767) mod edges,
//	                       radius from u3, and from u4 where u3's falls in the hole
//	                       (u4 is drawn always, used only then)

// jwf8DefaultParams sets JWildfire's (and for wavesn Fractorium's)
// defaults for these variations.
func jwf8DefaultParams(p *Params) {
	p[PVibration2Angle], p[PVibration2Freq], p[PVibration2Amp] = 1.5708, 1, 0.25
	p[PVibration2Dir2], p[PVibration2Angle2], p[PVibration2Freq2], p[PVibration2Amp2] = 1.5708, 1.5708, 1, 0.25
	for q := PVibration2Dmfreq; q <= PVibration2A2mfreq; q += 2 {
		p[q] = 0.1
	}
	p[PXtrbPower], p[PXtrbRadius], p[PXtrbWidth], p[PXtrbDist], p[PXtrbA], p[PXtrbB] = 2, 1, 0.5, 1, 1, 1
	p[PWavesnFreqx], p[PWavesnFreqy], p[PWavesnScalex], p[PWavesnScaley], p[PWavesnPower] = 2, 2, 1, 1, 1
	p[PNBlurNumEdges], p[PNBlurRatioStripes], p[PNBlurAdjustToLinear], p[PNBlurEqualBlur] = 3, 1, 1, 1
	p[PNBlurHighlightEdges] = 1
	// julian3Dx's power is random in JWildfire when unset; every file it
	// writes sets it (2, as julia3D's here).
	p[PJulian3DxPower], p[PJulian3DxDist], p[PJulian3DxA], p[PJulian3DxD] = 2, 1, 1, 1
	p[PTileHlpWidth] = 1
	p[PFalloff2Scatter], p[PFalloff2Mindist], p[PFalloff2MulX], p[PFalloff2MulY] = 1, 0.5, 1, 1
	jwf9DefaultParams(p)
}

// applyJWF8 adds plugin variation id with weight w to s, for the ids applyJWF
// sends here.
func (s *varState) applyJWF8(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarVibration2:
		x, y := s.vibrationWave(s.tx, s.ty, PVibration2Dir, PVibration2Dm)
		dx, dy := s.vibrationWave(s.tx, s.ty, PVibration2Dir2, PVibration2D2m)
		s.px += w * (x + dx - s.tx)
		s.py += w * (y + dy - s.ty)
	case VarXtrb:
		s.xtrb(w, r)
	case VarGaussian: // Fractorium's: the point itself plus a gaussian-like blur
		a := r.Float64() * 2 * math.Pi
		g := w * (r.Float64() + r.Float64() + r.Float64() + r.Float64() - 2)
		sn, cs := math.Sincos(a)
		s.px += s.tx + g*cs
		s.py += s.ty + g*sn
	case VarMirrorX:
		// Fractorium's mirror_x ignores its weight and, as a regular
		// variation, clears the sum before adding its point.
		x := math.Abs(s.tx)
		if r.Float64() >= 0.5 {
			x = -x
		}
		s.px, s.py, s.pz = x, s.ty, s.tz
	case VarWavesn:
		s.wavesn(w, r)
	case VarNBlur:
		s.nblur(w, r)
	case VarBlade3D: // blade with y driving z
		g := r.Float64() * w * s.sqrt
		sn, cs := math.Sincos(g)
		s.px += w * s.tx * (cs + sn)
		s.py += w * s.tx * (cs - sn)
		s.pz += w * s.ty * (sn - cs)
	case VarJulian3Dx:
		s.julian3Dx(w, r)
	case VarTileHlp:
		s.tileHlp(w, r)
	case VarFalloff2:
		s.falloff2(w, r)
	}
}

// vibrationWave is one of vibration2's two waves (parameters from dir,
// modulations from mod on, each in JWildfire's order): the point (x, y)
// moved along the wave's angle by its local amplitude.
func (s *varState) vibrationWave(x, y float64, dir, mod ParamID) (float64, float64) {
	p := s.p
	d0, angle, freq, amp, phase := p[dir], p[dir+1], p[dir+2], p[dir+3], p[dir+4]
	modulate := func(k ParamID, t float64) float64 { // amplitude, frequency at mod+2k
		return p[mod+2*k] * math.Cos(t*p[mod+2*k+1]*2*math.Pi)
	}
	along := x*math.Cos(d0) + y*math.Sin(d0)
	dirL := d0 + modulate(0, along)
	angleL := angle + modulate(1, along)
	freqL := modulate(2, along) / freq
	ampL := amp + amp*modulate(3, along)
	sd, cd := math.Sincos(dirL)
	st, ct := math.Sincos(angleL + dirL)
	along = x*cd + y*sd
	local := ampL * math.Sin(along*freq*2*math.Pi+freqL+2*math.Pi*phase/freq)
	return x + local*ct, y + local*st
}

// wavesn: Fractorium's wavesn, the n-th root of the point (a random one of
// |power| roots) with waves added; the weight scales both the root and the
// result, as Fractorium's does. A power of 0 is 2, as its Precalc makes it.
func (s *varState) wavesn(w float64, r *rng.Stream) {
	p := s.p
	power := p[PWavesnPower]
	if power == 0 {
		power = 2
	}
	k := math.Trunc(r.Float64() * math.Trunc(math.Abs(power)))
	a := (math.Atan2(s.ty, s.tx) + 2*math.Pi*k) / power
	rr := w * math.Pow(s.sumsq, 1/power/2)
	sn, cs := math.Sincos(a)
	xn, yn := rr*cs, rr*sn
	sy, sx := math.Sin(p[PWavesnFreqx]*yn), math.Sin(p[PWavesnFreqy]*xn)
	s.px += w * (xn + 0.5*(p[PWavesnScalex]*sy+math.Abs(xn)*p[PWavesnIncx]*sy))
	s.py += w * (yn + 0.5*(p[PWavesnScaley]*sx+math.Abs(yn)*p[PWavesnIncy]*sx))
}

// unhonouredParam names a parameter of variation id whose value in p
// procgen does not render as its program does, or is "".
func unhonouredParam(id VarID, p *Params) string {
	if id == VarNBlur && ftoi(p[PNBlurExactCalc]) >= 1 && ftoi(p[PNBlurCircumCircle]) < 1 {
		return "nBlur_exactCalc"
	}
	if id == VarFalloff2 && p[PFalloff2MulC] > 0 { // scatters the colour (JWildfire clamps to [0, 1])
		return "falloff2_mul_c"
	}
	return unhonouredParam9(id, p)
}

// julian3Dx: Xyrus02's julian3Dx, julian's root of the point's image under
// its own affine (a..f), with z = x/|power| lifted by the same radius. The
// power is rounded to an integer, as JWildfire's.
func (s *varState) julian3Dx(w float64, r *rng.Stream) {
	p := s.p
	power := ftoi(p[PJulian3DxPower])
	absN := math.Abs(power)
	cN := (p[PJulian3DxDist]/power - 1) / 2
	z := s.tx / absN
	out := w * math.Pow(s.sumsq+z*z, cN)
	s.pz += out * z
	x := p[PJulian3DxA]*s.tx + p[PJulian3DxB]*s.ty + p[PJulian3DxE]
	y := p[PJulian3DxC]*s.tx + p[PJulian3DxD]*s.ty + p[PJulian3DxF]
	k := math.Trunc(r.Float64() * absN)
	sn, cs := math.Sincos((math.Atan2(y, x) + 2*math.Pi*k) / power)
	g := out * s.sqrt
	s.px += g * cs
	s.py += g * sn
}

// tileHlp: Zy0rg's tile_hlp, linear with the point moved by one tile
// width (towards 0) with a probability that rises across each tile. For
// x < 0 the "fraction" is x + trunc(x), as in JWildfire and Fractorium.
func (s *varState) tileHlp(w float64, r *rng.Stream) {
	width := s.p[PTileHlpWidth]
	x := s.tx / width
	f := x + math.Trunc(x)
	if x > 0 {
		f = x - math.Trunc(x)
	}
	shift := 0.0
	if math.Cos(f*math.Pi) < r.Float64()*2-1 {
		shift = width * w
		if x > 0 {
			shift = -shift
		}
	}
	s.px += s.tx*w + shift
	s.py += w * s.ty
}

// falloff2: Xyrus02's falloff2, a blur that grows with the distance d from
// (x0, y0, z0) beyond mindist (scaled by 0.04·scatter; invert measures
// 1 − d; the multipliers are clamped to [0, 1]): type 0 scatters x, y, z, type 1 the point's spherical
// coordinates (radius, azimuth, elevation), type 2 adds a random
// spherical offset. Its colour scatter (mul_c) is drawn but not applied.
func (s *varState) falloff2(w float64, r *rng.Stream) {
	p := s.p
	x, y, z := s.tx, s.ty, s.tz
	d := math.Sqrt((x-p[PFalloff2X0])*(x-p[PFalloff2X0]) + (y-p[PFalloff2Y0])*(y-p[PFalloff2Y0]) +
		(z-p[PFalloff2Z0])*(z-p[PFalloff2Z0]))
	if min(max(ftoi(p[PFalloff2Invert]), 0), 1) != 0 {
		d = 1 - d
	}
	// JWildfire clamps the parameters as it reads them.
	rmax := 0.04 * max(p[PFalloff2Scatter], 1e-6)
	d = max((max(d, 0)-max(p[PFalloff2Mindist], 0))*rmax, 0)
	unit := func(v float64) float64 { return min(max(v, 0), 1) }
	mx, my, mz := unit(p[PFalloff2MulX]), unit(p[PFalloff2MulY]), unit(p[PFalloff2MulZ])
	u1, u2, u3 := r.Float64(), r.Float64(), r.Float64()
	r.Float64() // the colour's
	switch min(max(ftoi(p[PFalloff2Type]), 0), 2) {
	case 1:
		rin := math.Sqrt(x*x+y*y+z*z) + 1e-6
		ss, cs := math.Sincos(math.Asin(z/rin) + mz*u1*d)
		sp, cp := math.Sincos(math.Atan2(y, x) + my*u2*d)
		rr := rin + mx*u3*d
		s.px += w * rr * cs * cp
		s.py += w * rr * cs * sp
		s.pz += w * ss
	case 2:
		ss, cs := math.Sincos(d * u1 * 2 * math.Pi)
		sp, cp := math.Sincos(d * u2 * math.Pi)
		rr := d * u3
		s.px += w * (x + mx*rr*cs*cp)
		s.py += w * (y + my*rr*cs*sp)
		s.pz += w * (z + mz*rr*ss)
	default:
		s.px += w * (x + mx*u1*d)
		s.py += w * (y + my*u2*d)
		s.pz += w * (z + mz*u3*d)
	}
}
