package turtle

import "math"

// vec3 is a struct, not an array: Go keeps small structs in registers, but
// always spills arrays to memory, which costs several times over in the
// walkers' loops.
type vec3 struct{ x, y, z float64 }

func (a vec3) add(b vec3) vec3 { return vec3{a.x + b.x, a.y + b.y, a.z + b.z} }

func (a vec3) scale(s float64) vec3 { return vec3{a.x * s, a.y * s, a.z * s} }

func (a vec3) neg() vec3 { return vec3{-a.x, -a.y, -a.z} }

func cross(a, b vec3) vec3 {
	return vec3{a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x}
}

func dot(a, b vec3) float64 { return a.x*b.x + a.y*b.y + a.z*b.z }

func (a vec3) f32() [3]float32 { return [3]float32{float32(a.x), float32(a.y), float32(a.z)} }

// rot2 rotates the pair (a, b) in their plane by the angle with cosine c and
// sine s, a towards b. Every turtle rotation is one of these (see walk).
func rot2(a, b vec3, c, s float64) (vec3, vec3) {
	return vec3{a.x*c + b.x*s, a.y*c + b.y*s, a.z*c + b.z*s},
		vec3{b.x*c - a.x*s, b.y*c - a.y*s, b.z*c - a.z*s}
}

// frame is a turtle position and orientation. The same type is a relative
// transform: walking from identityFrame gives, in the coordinates of the
// walk's start frame, where the walk ends, and apply puts that onto any real
// start frame. Every command but tropism and $ is linear in the frame, which
// is what makes a chunk's effect one transform (see cpu.go).
type frame struct {
	p, h, l, u vec3
}

func identityFrame() frame {
	return frame{h: vec3{1, 0, 0}, l: vec3{0, 1, 0}, u: vec3{0, 0, 1}}
}

// startFrame is the turtle's initial state: at the origin, heading up (+Y),
// left -X, up +Z (H × L = U), so 2D systems lie in the XY plane.
func startFrame() frame {
	return frame{h: vec3{0, 1, 0}, l: vec3{-1, 0, 0}, u: vec3{0, 0, 1}}
}

// apply returns the frame reached by transform x started from f.
func (f *frame) apply(x *frame) frame {
	return frame{p: f.p.add(f.local(x.p)), h: f.local(x.h), l: f.local(x.l), u: f.local(x.u)}
}

// local maps coordinates in f's frame to world directions.
func (f *frame) local(v vec3) vec3 {
	return vec3{
		f.h.x*v.x + f.l.x*v.y + f.u.x*v.z,
		f.h.y*v.x + f.l.y*v.y + f.u.y*v.z,
		f.h.z*v.x + f.l.z*v.y + f.u.z*v.z,
	}
}

// tropism rotates the frame about H × t by e·|H × t| (ABOP chapter 2,
// with fig. 2.8), bending H towards t.
func tropism(h, l, u, t vec3, e float64) (vec3, vec3, vec3) {
	a := cross(h, t)
	n := math.Sqrt(dot(a, a))
	if n == 0 {
		return h, l, u
	}
	k := a.scale(1 / n)
	s, c := math.Sincos(e * n)
	return rodrigues(h, k, c, s), rodrigues(l, k, c, s), rodrigues(u, k, c, s)
}

// rodrigues rotates v about the unit axis k (right-handed) by the angle with
// cosine c and sine s.
func rodrigues(v, k vec3, c, s float64) vec3 {
	kv := cross(k, v)
	d := dot(k, v) * (1 - c)
	return vec3{v.x*c + kv.x*s + k.x*d, v.y*c + kv.y*s + k.y*d, v.z*c + kv.z*s + k.z*d}
}

// level rolls about H so that L is horizontal: L = V × H / |V × H| with V =
// +Y (against gravity), U = H × L (ABOP p. 57). With H vertical nothing is
// horizontal in particular, and the frame is left alone.
func level(h, l, u vec3) (vec3, vec3) {
	lx, lz := h.z, -h.x // (0,1,0) × H
	n := math.Hypot(lx, lz)
	if n < 1e-12 {
		return l, u
	}
	l = vec3{lx / n, 0, lz / n}
	return l, cross(h, l)
}

// sincosDeg is sin and cos of an angle in degrees, exact for multiples of
// 90° so that right-angle systems (Koch islands, Hilbert curves) land on
// exact integer coordinates.
func sincosDeg(deg float64) (s, c float64) {
	if q := deg / 90; q == math.Trunc(q) && math.Abs(q) < 1<<52 {
		switch int64(q) & 3 {
		case 0:
			return 0, 1
		case 1:
			return 1, 0
		case 2:
			return 0, -1
		default:
			return -1, 0
		}
	}
	return math.Sincos(deg * (math.Pi / 180))
}

// widthFn is a width update w -> max(w + add, min), the form that setting,
// decreasing with a floor at zero and increasing all take, and that is
// closed under composition. Widths are never negative, so {0, 0} is the
// identity; add = -Inf makes a constant.
type widthFn struct{ add, min float64 }

func (f widthFn) apply(w float64) float64 { return max(w+f.add, f.min) }

// then is f followed by g.
func (f widthFn) then(g widthFn) widthFn {
	return widthFn{f.add + g.add, max(f.min+g.add, g.min)}
}

// maxColor is the largest colour index; ' and ; saturate there, and , at 0.
const maxColor = math.MaxUint16

// colorFn is a colour update: add, then clamp to lo..hi. Increments and
// decrements that saturate at both ends do not compose into one saturating
// add (from 0, ",;" gives 1, a net add of 0 gives 0), but clamped adds do:
// clamp(clamp(c+a, l1, h1)+b, l2, h2) = clamp(c+a+b, clamp(l1+b, l2, h2),
// clamp(h1+b, l2, h2)). Setting to v is {0, v, v}; the identity {0, 0, maxColor}.
type colorFn struct {
	add, lo, hi int32
}

func identityColor() colorFn { return colorFn{0, 0, maxColor} }

func clampColor(c, lo, hi int32) int32 { return min(max(c, lo), hi) }

func (f colorFn) apply(c int32) int32 { return clampColor(c+f.add, f.lo, f.hi) }

// then is f followed by g.
func (f colorFn) then(g colorFn) colorFn {
	return colorFn{f.add + g.add, clampColor(f.lo+g.add, g.lo, g.hi), clampColor(f.hi+g.add, g.lo, g.hi)}
}

// colorIndex converts a parameter to a colour index: rounded, clamped to
// 0..maxColor, NaN to 0.
func colorIndex(v float64) int32 {
	if !(v > 0) {
		return 0
	}
	return int32(min(math.Round(v), maxColor))
}

// widthValue converts a parameter to a width: negative and NaN give 0.
func widthValue(v float64) float64 {
	if v > 0 {
		return v
	}
	return 0
}
