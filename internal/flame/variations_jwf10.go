package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The tenth set of plugin variations, all JWildfire's and all reading and
// writing z: exblur (Zephyrtronium's: a spherical blur whose radius grows
// as the distance from an origin to the power dist), glitchy1 (bezo97's
// lazysensen mirrors in n-cell bands, scaled by a hash of the block the
// point falls in), lazysensen (bezo97's: mirror each coordinate in every
// other band of width 1/scale) and shredded (Stefanov and Sidwell's:
// staircase sines of the coordinates, optionally blurred).
//
// Random draws (u = Float64):
//
//	exblur   u1..u4 u5 u6: radius factor u1+u2+u3+u4−2, angles 2π·u5, 2π·u6
//	shredded u1 u2 u3    : the x, y, z blur angles 2π·u (drawn whatever blur is)
//	farblur  u1..u4 u5 u6: radius factor u1+u2+u3+u4−2, angles 2π·u5, 2π·u6
//	sym_ng15 u1          : map k = trunc(12·u1) of its twelve
//	pRose3D  u1 u2       : u1 < transp² with u2 < ½ draws the reflection
//	sattractor_js u1 u2  : map l = trunc(m·u1)+1 of m; u2 < ½ the halving
//	maurer_rose u1..u4   : u1 picks line, point or curve; u2, u3 the jitter
//	                       (the point's radius and angle); u4 where on the line
//
// exblur's radius factor is, in JWildfire, the sum of the last four draws
// of a ring the variation keeps across iterations (each call replaces one);
// here each call draws all four, the same distribution without the
// correlation from one iteration to the next. lazysensen mirrors the
// affine point itself in JWildfire, so a variation after it in the same
// xform sees the mirrored point; here only its own term does.

// jwf10DefaultParams sets JWildfire's defaults for these variations.
func jwf10DefaultParams(p *Params) {
	p[PExBlurDist], p[PExBlurR] = 0.5, 0.25
	p[PGlitchy1ScaleX], p[PGlitchy1NX], p[PGlitchy1ScaleY], p[PGlitchy1NY], p[PGlitchy1NZ] = 1, 2, 1, 2, 2
	p[PGlitchy1Width], p[PGlitchy1Seed], p[PGlitchy1Angle] = 1, 42, 30
	p[PGlitchy1U], p[PGlitchy1V], p[PGlitchy1W] = 1, 1, 1
	p[PLazysensenScaleX], p[PLazysensenScaleY] = 1, 1
	p[PShreddedX1], p[PShreddedX2], p[PShreddedX3], p[PShreddedXBlurAmount] = 1, 3, 1, 0.1
	p[PShreddedY1], p[PShreddedY2], p[PShreddedY3], p[PShreddedYBlurAmount] = 1, 3, 1, 0.1
	p[PShreddedZ1], p[PShreddedZ2], p[PShreddedZ3], p[PShreddedZBlurAmount] = 1, 3, 1, 0.1
	p[PCrackleCellsize], p[PCracklePower], p[PCrackleScale] = 1, 0.2, 1
	p[PPlaneWfPosition], p[PPlaneWfSize], p[PPlaneWfAxis], p[PPlaneWfDirectColor], p[PPlaneWfColorMode] = 3, 10, 2, 1, 3
	p[PPlaneWfBlendColormap], p[PPlaneWfDisplAmount], p[PPlaneWfBlendDisplMap] = 1, 0.1, 1
	for id := PTqmirrorA; id <= PTqmirrorK; id++ { // preset 0
		p[id] = 1
	}
	p[PTqmirrorR], p[PTqmirrorS] = 1, 1
	p[PTrigReciprocal] = 1
	p[PScramblyL], p[PScramblySeed], p[PScramblyCellsize] = 3, 51, 0.1
	p[PFarblurX], p[PFarblurY], p[PFarblurZ] = 1, 1, 1
	p[PMaurerRoseKn], p[PMaurerRoseKd], p[PMaurerRoseLineOffsetDegrees], p[PMaurerRoseLineCount] = 2, 1, 71, 360
	p[PMaurerRoseShowLines], p[PMaurerRoseShowCurve] = 1, 0.05
	p[PMaurerRoseLineThickness], p[PMaurerRosePointThickness], p[PMaurerRoseCurveThickness] = 0.5, 3, 1
	// pRose3D's k is random in JWildfire (3 plus a draw of [0, 10) or of
	// 0..14); 8 here. Its files set it.
	p[PPRose3DL], p[PPRose3DK], p[PPRose3DZ1], p[PPRose3DZ2], p[PPRose3DRefSc] = 1, 8, 1, 1, 1
	p[PPRose3DOpt], p[PPRose3DOptSc], p[PPRose3DTransp], p[PPRose3DDist], p[PPRose3DF] = 1, 1, 0.5, 1, 3
	p[PCliffordJsA], p[PCliffordJsB], p[PCliffordJsC], p[PCliffordJsD] = -1.4, 1.6, 1, 0.7
	p[PSattractorJsM] = 10
	jwf12DefaultParams(p)
}

// applyJWF10 adds plugin variation id with weight w to s, for the ids
// applyJWF sends here.
func (s *varState) applyJWF10(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarExBlur:
		s.exblur(w, r)
	case VarGlitchy1:
		s.glitchy1(w)
	case VarLazysensen:
		p := s.p
		s.px += w * lazyMirror(s.tx, p[PLazysensenScaleX])
		s.py += w * lazyMirror(s.ty, p[PLazysensenScaleY])
		s.pz += w * lazyMirror(s.tz, p[PLazysensenScaleZ])
	case VarShredded:
		s.shredded(w, r)
	case VarCrackle:
		s.crackle(w, r)
	case VarPlaneWf:
		s.planeWf(w, r)
	case VarTqmirror:
		s.tqmirror(w)
	case VarTrig:
		s.trig(w, r)
	case VarScrambly:
		s.scrambly(w)
	case VarFarblur:
		s.farblur(w, r)
	case VarSymNg15:
		s.symNg15(w, r)
	case VarMaurerRose:
		s.maurerRose(w, r)
	case VarPRose3D:
		s.pRose3D(w, r)
	case VarSattractorJs:
		s.sattractorJs(w, r)
	case VarCliffordJs: // the Clifford attractor's map (Jesus Sosa's plugin)
		p := s.p
		a, b := p[PCliffordJsA], p[PCliffordJsB]
		s.px += w * (math.Sin(a*s.ty) + p[PCliffordJsC]*math.Cos(a*s.tx))
		s.py += w * (math.Sin(b*s.tx) + p[PCliffordJsD]*math.Cos(b*s.ty))
	}
}

// lazyMirror is lazysensen's map of one coordinate: negated in the bands
// n = floor(v·scale) that are odd for n >= 0 and even for n < 0 (so the
// bands either side of 0 both keep it); scale 0 leaves it.
func lazyMirror(v, scale float64) float64 {
	if scale == 0 {
		return v
	}
	nr := javaInt(math.Floor(v * scale))
	if nr >= 0 && math.Mod(nr, 2) == 1 || nr < 0 && math.Mod(nr, 2) == 0 {
		return -v
	}
	return v
}

// exblur: the direction from the origin (x_origin, −y_origin, z_origin)
// in spherical angles, blurred by a sphere of relative radius r, at the
// distance's square to the power dist times a bell-shaped factor.
func (s *varState) exblur(w float64, r *rng.Stream) {
	p := s.p
	ox, oy, oz := s.tx-p[PExBlurXOrigin], s.ty+p[PExBlurYOrigin], s.tz-p[PExBlurZOrigin]
	n := ox*ox + oy*oy + oz*oz
	bell := r.Float64() + r.Float64() + r.Float64() + r.Float64() - 2
	rr := w * math.Pow(n, p[PExBlurDist]) * bell
	su, cu := math.Sincos(math.Atan2(oy, ox))
	sv, cv := math.Sincos(math.Acos(oz / math.Sqrt(n)))
	sru, cru := math.Sincos(r.Float64() * 2 * math.Pi)
	srv, crv := math.Sincos(r.Float64() * 2 * math.Pi)
	rsrv := p[PExBlurR] * srv
	s.px += rr * (sv*cu + rsrv*cru)
	s.py += rr * (sv*su + rsrv*sru)
	s.pz += rr * (cv + p[PExBlurR]*crv)
}

// glitchHash is Bob Jenkins' 32-bit integer hash as glitchy1 uses it, in
// Java's wrapping int arithmetic, over the int range: about [−1, 1].
func glitchHash(a int32) float64 {
	a = (a ^ 61) ^ (a >> 16)
	a += a << 3
	a ^= a >> 4
	a *= 0x27d4eb2d
	a ^= a >> 15
	return float64(a) / math.MaxInt32
}

// glitchMirror is glitchy1's map of one coordinate: mirrored about shift
// in the last band of every n bands floor((v−shift)·scale) (the first,
// below 0); scale 0 leaves it.
func glitchMirror(v, shift, scale, n float64) float64 {
	if scale == 0 {
		return v
	}
	nr := javaInt(math.Floor((v - shift) * scale))
	if nr >= 0 && math.Mod(nr, n) == n-1 || nr < 0 && math.Mod(nr, n) == 0 {
		return 2*shift - v
	}
	return v
}

// glitchy1: the point mirrored in bands, scaled by hashes of the blocks
// it falls in along u and along two directions at ±angle.
func (s *varState) glitchy1(w float64) {
	p := s.p
	n := func(id ParamID) float64 { return min(max(ftoi(p[id]), 1), 100) }
	x := glitchMirror(s.tx, p[PGlitchy1ShiftX], p[PGlitchy1ScaleX], n(PGlitchy1NX))
	y := glitchMirror(s.ty, p[PGlitchy1ShiftY], p[PGlitchy1ScaleY], n(PGlitchy1NY))
	z := glitchMirror(s.tz, p[PGlitchy1ShiftZ], p[PGlitchy1ScaleZ], n(PGlitchy1NZ))
	h, k := math.Sincos(p[PGlitchy1Angle] * math.Pi / 180)
	seed := int32(ftoi(p[PGlitchy1Seed]))
	width := p[PGlitchy1Width]
	uu := p[PGlitchy1U] * s.tx
	vv := p[PGlitchy1V] * (k*uu + h*s.ty)
	ww := p[PGlitchy1W] * (k*uu - h*s.ty)
	// Each block index moves by up to ±2 with its own hash (Java's int +=
	// of a double: the sum truncated).
	block := func(v float64) int32 {
		b := int32(javaInt(math.Floor(v * width)))
		return int32(javaInt(float64(b) + (2 - 4*glitchHash(b*seed+1))))
	}
	bu, bv, bw := block(uu), block(vv), block(ww)
	f := glitchHash(bu+bv+bw*-seed) + glitchHash(bu+bv+bw*seed/2)
	s.px += w * x * f
	s.py += w * y * f
	s.pz += w * z * f
}

// shredded: per coordinate, weight·c3 times a sine (cosine for y) of c1
// times the staircase floor(c2·v), times the point (type 2), the other
// coordinate (type 1), or, with the sine of the other coordinate's
// staircase added, the other coordinate (type 0); blur 1 adds a random
// amount blur_amount·sin(2πu) of the point (not weighted).
func (s *varState) shredded(w float64, r *rng.Stream) {
	p := s.p
	bx := p[PShreddedXBlurAmount] * math.Sin(2*math.Pi*r.Float64())
	by := p[PShreddedYBlurAmount] * math.Sin(2*math.Pi*r.Float64())
	bz := p[PShreddedZBlurAmount] * math.Sin(2*math.Pi*r.Float64())
	x, y, z := s.tx, s.ty, s.tz
	sx := math.Sin(p[PShreddedX1] * math.Floor(p[PShreddedX2]*x))
	cy := math.Cos(p[PShreddedY1] * math.Floor(p[PShreddedY2]*y))
	sz := math.Sin(p[PShreddedZ1] * math.Floor(p[PShreddedZ2]*z))
	typ := javaInt(min(max(p[PShreddedType], 0), 2))
	mx, my, mz := y, x, z // what each term multiplies: types 0 and 1
	switch typ {
	case 2:
		mx, my = x, y
	case 0:
		sx += math.Cos(p[PShreddedX1] * math.Floor(p[PShreddedX2]*y))
		cy += math.Sin(p[PShreddedY1] * math.Floor(p[PShreddedY2]*x))
		sz += math.Cos(p[PShreddedZ1] * math.Floor(p[PShreddedZ2]*z))
	}
	ax, ay, az := w*p[PShreddedX3]*sx, w*p[PShreddedY3]*cy, w*p[PShreddedZ3]*sz
	if javaInt(min(max(p[PShreddedBlur], 0), 1)) == 0 {
		s.px += ax * mx
		s.py += ay * my
		s.pz += az * mz
		return
	}
	// Blurred, the term is not multiplied by the point; the blur is (by
	// z only in type 0).
	s.px += ax + bx*mx
	s.py += ay + by*my
	if typ == 0 {
		s.pz += az + bz*z
	} else {
		s.pz += az + bz
	}
}

// unhonouredParam10 is unhonouredParam for these variations.
func unhonouredParam10(id VarID, p *Params) string {
	if id == VarPlaneWf && ftoi(p[PPlaneWfDirectColor]) > 0 { // colour from the plane's u, v (or an image)
		return "plane_wf_direct_color"
	}
	return ""
}

// planeWf: a uniformly random point of the square of side size on the
// plane at position along the axis (0: xy, 1: yz, 2: zx), ignoring the
// input point. Its maps need image files (a displacement and colour map),
// which a file without their names does not use.
func (s *varState) planeWf(w float64, r *rng.Stream) {
	p := s.p
	a, b := 0.5-r.Float64(), 0.5-r.Float64()
	pos, size := p[PPlaneWfPosition], p[PPlaneWfSize]
	switch min(max(ftoi(p[PPlaneWfAxis]), 0), 2) {
	case 0:
		s.px += w * a * size
		s.py += w * b * size
		s.pz += w * pos
	case 1:
		s.px += w * pos
		s.py += w * a * size
		s.pz += w * b * size
	default:
		s.px += w * a * size
		s.py += w * pos
		s.pz += w * b * size
	}
}

// tqmirror (Nic Anderson's, JWildfire's): points past (l, m) by more than
// the weight times (d, e) are swapped across y = x (type 0) or kept (type
// 1), scaled by (r, s); those below (n, o) are moved by the weight times
// (f, g); the rest are flipped across y = x, scaled by (h, i), inside the
// box the weight times (a, b, c) bounds with q, l and p, or scaled by (j,
// k) outside it, signs by mode. Only the two branches that say so are
// weighted. preset is read but not applied: JWildfire applies it only as
// it is set, and writes the letters after it, which then decide.
func (s *varState) tqmirror(w float64) {
	p := s.p
	x, y := s.tx, s.ty
	if w*p[PTqmirrorD]+x < p[PTqmirrorL] || w*p[PTqmirrorE]+y < p[PTqmirrorM] { // too far
		if javaInt(min(max(p[PTqmirrorType], 0), 1)) != 0 {
			s.px += x * p[PTqmirrorR]
			s.py += y * p[PTqmirrorS]
		} else {
			s.px += y * p[PTqmirrorR]
			s.py += x * p[PTqmirrorS]
		}
		return
	}
	if x < p[PTqmirrorN] && y < p[PTqmirrorO] {
		s.px += x + w*p[PTqmirrorF]
		s.py += y + w*p[PTqmirrorG]
		return
	}
	in := x+p[PTqmirrorQ] < w && y < w*p[PTqmirrorA] && x+w*p[PTqmirrorB] > p[PTqmirrorL] && y+w*p[PTqmirrorC] > p[PTqmirrorP]
	fx, fy := -y*p[PTqmirrorH], -x*p[PTqmirrorI] // mode 0 and 1 inside
	ox, oy := x*p[PTqmirrorJ], y*p[PTqmirrorK]   // mode 0 outside
	switch javaInt(min(max(p[PTqmirrorMode], 0), 2)) {
	case 1:
		ox, oy = -ox, -oy
	case 2:
		fx, oy = -fx, -oy
	}
	if in {
		s.px += fx
		s.py += fy
	} else {
		s.px += ox
		s.py += oy
	}
}

// farblur (Zephyrtronium's, JWildfire's): a spherical blur of the sum of
// the xform's variations so far, around (x_origin, y_origin, z_origin),
// of radius the weight times the squared distance from it times a
// bell-shaped factor (as exblur's, four fresh draws), scaled per axis by
// x, y, z. JWildfire runs it where the file writes it (its files write
// farblur_fx_priority="0", the normal stage), so it reads the variations
// written before it; procgen applies variations in ID order, farblur's
// last, so a file that writes another variation after farblur is
// reported as not honoured (parse_xform.go).
func (s *varState) farblur(w float64, r *rng.Stream) {
	p := s.p
	dx, dy, dz := s.px-p[PFarblurXOrigin], s.py-p[PFarblurYOrigin], s.pz-p[PFarblurZOrigin]
	rr := w * (dx*dx + dy*dy + dz*dz) * (r.Float64() + r.Float64() + r.Float64() + r.Float64() - 2)
	su, cu := math.Sincos(r.Float64() * 2 * math.Pi)
	sv, cv := math.Sincos(r.Float64() * 2 * math.Pi)
	s.px += p[PFarblurX] * rr * sv * cu
	s.py += p[PFarblurY] * rr * sv * su
	s.pz += p[PFarblurZ] * rr * cv
}

// symNg15Maps are sym_ng15's six linear parts (a, b, d, e of x' = a·x +
// b·y, y' = d·x + e·y): quarter turn and reflections at multiples of 30°,
// with the plugin's 0.866 for cos 30°. Maps 0..5 shift by −step/2, maps
// 6..11 repeat them shifted by +step/2.
var symNg15Maps = [6][4]float64{
	{0, 1, -1, 0}, {0, -1, -1, 0}, {0.866, -0.5, 0.5, 0.866},
	{0.866, 0.5, 0.5, -0.866}, {-0.866, -0.5, 0.5, -0.866}, {-0.866, 0.5, 0.5, 0.866},
}

// symNg15 (Jesus Sosa's sym_ng15, JWildfire's): the point moved by
// (√(radius²/2), the same) then mapped by one of twelve maps picked at
// random (JWildfire draws it from Java's Math.random, not the flame's
// generator; here from the stream).
func (s *varState) symNg15(w float64, r *rng.Stream) {
	p := s.p
	k := min(int(12*r.Float64()), 11)
	sp := math.Sqrt(p[PSymNg15Radius] * p[PSymNg15Radius] / 2)
	x, y := s.tx+sp, s.ty+sp
	m := &symNg15Maps[k%6]
	dx, dy := -p[PSymNg15Stepx]/2, -p[PSymNg15Stepy]/2
	if k >= 6 {
		dx, dy = -dx, -dy
	}
	s.px += w * (m[0]*x + m[1]*y + dx)
	s.py += w * (m[2]*x + m[3]*y + dy)
}
