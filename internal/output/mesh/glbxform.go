package mesh

import (
	"fmt"
	"math"
)

// mat4 is an affine transform as glTF writes one: column-major, m[c*4+r].
type mat4 [16]float64

func identity() mat4 { return mat4{0: 1, 5: 1, 10: 1, 15: 1} }

func (a mat4) mul(b mat4) mat4 {
	var out mat4
	for c := range 4 {
		for r := range 4 {
			s := 0.0
			for k := range 4 {
				s += a[k*4+r] * b[c*4+k]
			}
			out[c*4+r] = s
		}
	}
	return out
}

func (a mat4) point(p [3]float32) [3]float32 {
	var out [3]float32
	for r := range 3 {
		out[r] = float32(a[r]*float64(p[0]) + a[4+r]*float64(p[1]) + a[8+r]*float64(p[2]) + a[12+r])
	}
	return out
}

// det3 is the determinant of the linear part.
func (a mat4) det3() float64 {
	return a[0]*(a[5]*a[10]-a[9]*a[6]) - a[4]*(a[1]*a[10]-a[9]*a[2]) + a[8]*(a[1]*a[6]-a[5]*a[2])
}

// normalMatrix is the inverse transpose of the linear part (as a mat4
// without translation), which keeps normals perpendicular to surfaces under
// non-uniform scales: the cofactor matrix, whose scale normalising removes,
// negated where the transform mirrors (the cofactors carry the
// determinant's sign).
func (a mat4) normalMatrix() mat4 {
	sign := 1.0
	if a.det3() < 0 {
		sign = -1
	}
	m := func(r, c int) float64 { return a[c*4+r] }
	cof := func(r, c int) float64 {
		r1, r2 := (r+1)%3, (r+2)%3
		c1, c2 := (c+1)%3, (c+2)%3
		return m(r1, c1)*m(r2, c2) - m(r1, c2)*m(r2, c1)
	}
	var out mat4
	for r := range 3 {
		for c := range 3 {
			out[c*4+r] = sign * cof(r, c)
		}
	}
	out[15] = 1
	return out
}

// direction is a normal transformed and normalised; ok is false for a
// zero normal or one a zero scale flattens.
func (a mat4) direction(n [3]float32) (d [3]float32, ok bool) {
	var v [3]float64
	for r := range 3 {
		v[r] = a[r]*float64(n[0]) + a[4+r]*float64(n[1]) + a[8+r]*float64(n[2])
	}
	l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
	if !(l > 1e-30) || math.IsInf(l, 0) {
		return n, false
	}
	return [3]float32{float32(v[0] / l), float32(v[1] / l), float32(v[2] / l)}, true
}

// transform is the node's local transform: its matrix, or T·R·S.
func (nd *glbInNode) transform() (mat4, error) {
	for _, v := range [][]float64{nd.Matrix, nd.Translation, nd.Rotation, nd.Scale} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e30 {
				return mat4{}, fmt.Errorf("transform value %v out of range", x)
			}
		}
	}
	if nd.Matrix != nil {
		if len(nd.Matrix) != 16 || nd.Translation != nil || nd.Rotation != nil || nd.Scale != nil {
			return mat4{}, fmt.Errorf("matrix of %d numbers, or with translation, rotation or scale too", len(nd.Matrix))
		}
		return mat4(nd.Matrix), nil
	}
	t, q, s := []float64{0, 0, 0}, []float64{0, 0, 0, 1}, []float64{1, 1, 1}
	for _, f := range []struct {
		v   []float64
		dst *[]float64
		n   int
	}{{nd.Translation, &t, 3}, {nd.Rotation, &q, 4}, {nd.Scale, &s, 3}} {
		if f.v != nil {
			if len(f.v) != f.n {
				return mat4{}, fmt.Errorf("translation, rotation or scale of %d numbers, want %d", len(f.v), f.n)
			}
			*f.dst = f.v
		}
	}
	x, y, z, w := q[0], q[1], q[2], q[3]
	if l := math.Sqrt(x*x + y*y + z*z + w*w); math.Abs(l-1) > 1e-3 {
		return mat4{}, fmt.Errorf("rotation %v is not a unit quaternion", q)
	}
	// The rotation's columns, each scaled by its axis's scale.
	rot := [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w)},
		{2 * (x*y - z*w), 1 - 2*(x*x+z*z), 2 * (y*z + x*w)},
		{2 * (x*z + y*w), 2 * (y*z - x*w), 1 - 2*(x*x+y*y)},
	}
	var m mat4
	for c := range 3 {
		for r := range 3 {
			m[c*4+r] = rot[c][r] * s[c]
		}
		m[12+c] = t[c]
	}
	m[15] = 1
	return m, nil
}
