package mesh

import (
	"fmt"
	"math"
)

// Instance places one copy of an instanced part: a point p of the part's
// geometry lands at T + S·R(p), where R is the rotation of the unit
// quaternion Q (x, y, z, w, glTF's order). A normal n becomes R(n): the
// scale is uniform and positive, so normals need no other correction.
//
// S3, when not all zero, is a scale per axis instead (T + R(S3 ⊙ p)), as
// an asset fitted to a box needs; the copies' normals are then
// R(n / S3) made unit length again.
type Instance struct {
	T  [3]float32
	Q  [4]float32
	S  float32
	S3 [3]float32
}

// scale is the instance's scale on each axis.
func (in *Instance) scale() [3]float32 {
	if in.S3 != ([3]float32{}) {
		return in.S3
	}
	return [3]float32{in.S, in.S, in.S}
}

// check reports a non-finite field, a scale that is not positive, or a
// quaternion that is not of unit length (to float32 rounding): glTF's
// validator refuses those, and a copy would be distorted.
func (in *Instance) check() error {
	q := [3]float32{in.Q[0], in.Q[1], in.Q[2]}
	sc := in.scale()
	if !finite(in.T) || !finite(q) || !finite([3]float32{in.Q[3], 0, 0}) || !finite(sc) || !(sc[0] > 0 && sc[1] > 0 && sc[2] > 0) {
		return fmt.Errorf("translation %v, rotation %v or scale %v not finite or not positive", in.T, in.Q, sc)
	}
	n := 0.0
	for _, x := range in.Q {
		n += float64(x) * float64(x)
	}
	if math.Abs(n-1) > 1e-5 {
		return fmt.Errorf("rotation %v is not a unit quaternion", in.Q)
	}
	return nil
}

// rotation is the instance's rotation as a 3x3 matrix (rows).
func (in *Instance) rotation() [3][3]float64 {
	x, y, z, w := float64(in.Q[0]), float64(in.Q[1]), float64(in.Q[2]), float64(in.Q[3])
	return [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
		{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
		{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
	}
}

// Apply is the instance's transform of point p.
func (in *Instance) Apply(p [3]float32) [3]float32 {
	r := in.rotation()
	var out [3]float32
	if in.S3 != ([3]float32{}) {
		for i := range 3 {
			v := r[i][0]*float64(in.S3[0])*float64(p[0]) + r[i][1]*float64(in.S3[1])*float64(p[1]) + r[i][2]*float64(in.S3[2])*float64(p[2])
			out[i] = float32(float64(in.T[i]) + v)
		}
		return out
	}
	for i := range 3 {
		v := r[i][0]*float64(p[0]) + r[i][1]*float64(p[1]) + r[i][2]*float64(p[2])
		out[i] = float32(float64(in.T[i]) + float64(in.S)*v)
	}
	return out
}

// rotate maps a normal: by the rotation alone under a uniform scale; by
// the inverse scale first, then made unit length, under S3 (the inverse
// transpose of R·diag(S3)).
func (in *Instance) rotate(r *[3][3]float64, n [3]float32) [3]float32 {
	if in.S3 != ([3]float32{}) {
		m := [3]float64{float64(n[0]) / float64(in.S3[0]), float64(n[1]) / float64(in.S3[1]), float64(n[2]) / float64(in.S3[2])}
		var w [3]float64
		l := 0.0
		for i := range 3 {
			w[i] = r[i][0]*m[0] + r[i][1]*m[1] + r[i][2]*m[2]
			l += w[i] * w[i]
		}
		if l = math.Sqrt(l); l > 0 {
			return [3]float32{float32(w[0] / l), float32(w[1] / l), float32(w[2] / l)}
		}
		return n
	}
	var out [3]float32
	for i := range 3 {
		out[i] = float32(r[i][0]*float64(n[0]) + r[i][1]*float64(n[1]) + r[i][2]*float64(n[2]))
	}
	return out
}

// QuatFromFrame is the unit quaternion (x, y, z, w) of the rotation whose
// matrix has columns a, b, c (an orthonormal, right-handed frame), by
// Shepperd's method: the largest of the four candidate divisors keeps it
// accurate for every rotation.
func QuatFromFrame(a, b, c [3]float64) [4]float32 {
	m00, m11, m22 := a[0], b[1], c[2]
	var x, y, z, w float64
	switch tr := m00 + m11 + m22; {
	case tr > 0:
		s := 2 * math.Sqrt(1+tr)
		w, x, y, z = s/4, (b[2]-c[1])/s, (c[0]-a[2])/s, (a[1]-b[0])/s
	case m00 > m11 && m00 > m22:
		s := 2 * math.Sqrt(1+m00-m11-m22)
		w, x, y, z = (b[2]-c[1])/s, s/4, (b[0]+a[1])/s, (c[0]+a[2])/s
	case m11 > m22:
		s := 2 * math.Sqrt(1+m11-m00-m22)
		w, x, y, z = (c[0]-a[2])/s, (b[0]+a[1])/s, s/4, (c[1]+b[2])/s
	default:
		s := 2 * math.Sqrt(1+m22-m00-m11)
		w, x, y, z = (a[1]-b[0])/s, (c[0]+a[2])/s, (c[1]+b[2])/s, s/4
	}
	n := math.Sqrt(x*x + y*y + z*z + w*w)
	return [4]float32{float32(x / n), float32(y / n), float32(z / n), float32(w / n)}
}

// flat is m with each instanced part replaced by a part of transformed
// copies, for the formats without instancing (OBJ, PLY). The copies are
// built from one build of the part's geometry per chunk.
func (m *Mesh) flat() *Mesh {
	has := false
	for i := range m.Parts {
		has = has || m.Parts[i].Instances != nil
	}
	if !has {
		return m
	}
	out := *m
	out.Parts = make([]Part, len(m.Parts))
	for i, p := range m.Parts {
		if p.Instances == nil {
			out.Parts[i] = p
			continue
		}
		out.Parts[i] = p.repeated()
	}
	return &out
}

// repeated is p's instances as elements, each a transformed copy of p's
// Count elements.
func (p Part) repeated() Part {
	base := p
	q := Part{Name: p.Name, Material: p.Material, Concave: p.Concave, Count: len(p.Instances),
		Grain: max(1, DefaultGrain/max(1, p.Count))}
	if p.Count == 0 {
		q.Count = 0
		return q
	}
	q.Build = func(lo, hi int, c *Chunk) {
		var one Chunk
		base.Build(0, base.Count, &one)
		for k := lo; k < hi; k++ {
			in := &base.Instances[k]
			r := in.rotation()
			p0, n0, v0, t0 := int32(len(c.Positions)), int32(len(c.Normals)), int32(len(c.Vertices)), int32(len(c.UVs))
			c.UVs = append(c.UVs, one.UVs...)
			for _, v := range one.Positions {
				c.Positions = append(c.Positions, in.Apply(v))
			}
			for _, n := range one.Normals {
				c.Normals = append(c.Normals, in.rotate(&r, n))
			}
			for _, v := range one.Vertices {
				c.Vertices = append(c.Vertices, Vertex{P: v.P + p0, N: v.N + n0, T: v.T + t0})
			}
			for _, f := range one.Faces {
				c.Faces = append(c.Faces, f+v0)
			}
			c.FaceSizes = append(c.FaceSizes, one.FaceSizes...)
			for _, l := range one.Lines {
				c.Lines = append(c.Lines, l+p0)
			}
			c.LineSizes = append(c.LineSizes, one.LineSizes...)
		}
	}
	return q
}
