package pga

import "math"

// Vec3 is a size or a point.
type Vec3 [3]float64

// Mat4 is a row-major affine transform; shapes carry rigid ones (rotation
// and translation) from their centred local frame to world space, with the
// size kept apart so operators can read it.
type Mat4 [16]float64

// Identity is the transform that changes nothing.
func Identity() Mat4 { return Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} }

// Mul returns m·n: n is applied first.
func (m Mat4) Mul(n Mat4) Mat4 {
	var r Mat4
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			var s float64
			for k := 0; k < 4; k++ {
				s += m[i*4+k] * n[k*4+j]
			}
			r[i*4+j] = s
		}
	}
	return r
}

// Apply maps a point.
func (m Mat4) Apply(p Vec3) Vec3 {
	var r Vec3
	for i := 0; i < 3; i++ {
		r[i] = m[i*4]*p[0] + m[i*4+1]*p[1] + m[i*4+2]*p[2] + m[i*4+3]
	}
	return r
}

// Translation moves by t.
func Translation(t Vec3) Mat4 {
	m := Identity()
	m[3], m[7], m[11] = t[0], t[1], t[2]
	return m
}

// Scaling scales each axis.
func Scaling(s Vec3) Mat4 { return Mat4{s[0], 0, 0, 0, 0, s[1], 0, 0, 0, 0, s[2], 0, 0, 0, 0, 1} }

// sincosDeg is exact at multiples of 90°, so faces keep axis-aligned normals.
func sincosDeg(deg float64) (float64, float64) {
	d := math.Mod(deg, 360)
	if d < 0 {
		d += 360
	}
	switch d {
	case 0:
		return 0, 1
	case 90:
		return 1, 0
	case 180:
		return 0, -1
	case 270:
		return -1, 0
	}
	return math.Sincos(d * math.Pi / 180)
}

// RotationX/Y/Z rotate by degrees about a local axis.
func RotationX(deg float64) Mat4 {
	s, c := sincosDeg(deg)
	return Mat4{1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1}
}

func RotationY(deg float64) Mat4 {
	s, c := sincosDeg(deg)
	return Mat4{c, 0, s, 0, 0, 1, 0, 0, -s, 0, c, 0, 0, 0, 0, 1}
}

func RotationZ(deg float64) Mat4 {
	s, c := sincosDeg(deg)
	return Mat4{c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
}

// Rotation is Rotate(x, y, z) as OperatorGraph composes it:
// RotationZ(z)·RotationY(y)·RotationX(x), about the shape's X, then its
// original Y, then its original Z (Rotate(90, 90, 0) turns a box's roof
// prism as suburban_house.pga expects).
func Rotation(x, y, z float64) Mat4 { return RotationZ(z).Mul(RotationY(y)).Mul(RotationX(x)) }
