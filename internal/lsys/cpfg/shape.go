package cpfg

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// DefaultPrecision is the steps per patch side where neither the caller nor
// the file's PRECISION line gives them: cpfg's default (half its maximum).
const DefaultPrecision = 5

// MaxTriangles bounds the triangles of one tessellated surface: it is held
// once and instanced, or copied per use in OBJ and PLY, so it stays small.
const MaxTriangles = 1 << 22

// ReadSurface reads a surface file and tessellates it as Shape does.
func ReadSurface(name string, data []byte, precision int) (*mesh.Shape, error) {
	surf, err := ParseSurface(name, data)
	if err != nil {
		return nil, err
	}
	shape, err := surf.Shape(precision)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return shape, nil
}

// Shape tessellates the surface into triangles in the frame the turtle's
// surfaces are defined in (+Y along the turtle's heading H, +Z along its
// up U, -X along its left L), placed as cpfg places it: the contact point
// at the origin, the file's HEADING along +Y and its UP along +Z, scaled
// by 1/SIZE, and the file's HEADING×UP side along the turtle's left (cpfg
// draws a surface's x along the turtle's left vector), so a surface
// appears where cpfg draws it. precision is the steps along each side of
// a patch (1..MaxPrecision); 0 takes the file's PRECISION, else
// DefaultPrecision. Triangles of no area (a patch pinched to a point, as
// at a leaf's tip) are left out; each face turns its front to the side of
// the patch's ds×dt (s down the rows, t along them).
func (surf *Surface) Shape(precision int) (*mesh.Shape, error) {
	ps, pt := precision, precision
	if precision == 0 {
		ps, pt = surf.PrecS, surf.PrecT
		if ps == 0 {
			ps, pt = DefaultPrecision, DefaultPrecision
		}
	}
	if ps < 1 || pt < 1 || ps > MaxPrecision || pt > MaxPrecision {
		return nil, fmt.Errorf("precision %dx%d: want 1..%d steps a side", ps, pt, MaxPrecision)
	}
	if tris := 2 * ps * pt * len(surf.Patches); tris > MaxTriangles {
		return nil, fmt.Errorf("%d patches at precision %dx%d make %d triangles, over the %d a surface may have",
			len(surf.Patches), ps, pt, tris, MaxTriangles)
	}
	h, u, side, ok := surf.basis()
	if !ok {
		return nil, fmt.Errorf("UP is zero or parallel to HEADING")
	}
	place := func(p [3]float64) [3]float64 {
		q := scale(sub(p, surf.Contact), 1/surf.Size)
		return [3]float64{-dot(q, side), dot(q, h), dot(q, u)}
	}
	s := &mesh.Shape{}
	grid := make([][3]float64, (ps+1)*(pt+1))
	for _, p := range surf.Patches {
		for i := 0; i <= ps; i++ {
			for j := 0; j <= pt; j++ {
				grid[i*(pt+1)+j] = place(p.eval(float64(i)/float64(ps), float64(j)/float64(pt)))
			}
		}
		if err := addGrid(s, grid, ps, pt); err != nil {
			return nil, fmt.Errorf("patch %s: %w", p.Name, err)
		}
	}
	if len(s.FaceSizes) == 0 {
		return nil, fmt.Errorf("no patch has any area: nothing to draw")
	}
	return s, nil
}

// eval is the patch's point at (s, t): the Bernstein-weighted sum of its
// control points, s down the rows and t along them.
func (p *Patch) eval(s, t float64) [3]float64 {
	bs, bt := bernstein(s), bernstein(t)
	var out [3]float64
	for i := range 4 {
		for j := range 4 {
			w := bs[i] * bt[j]
			for k := range 3 {
				out[k] += w * p.Points[i][j][k]
			}
		}
	}
	return out
}

func bernstein(t float64) [4]float64 {
	r := 1 - t
	return [4]float64{r * r * r, 3 * t * r * r, 3 * t * t * r, t * t * t}
}

// addGrid appends a patch's (ps+1)x(pt+1) grid of placed points as
// triangles. The placement mirrors (the file's HEADING×UP goes to the
// turtle's left), so each triangle's corners are listed against the grid's
// s, t order: the face's winding then still fronts the side of ds×dt.
func addGrid(s *mesh.Shape, grid [][3]float64, ps, pt int) error {
	base := int32(len(s.Positions))
	for _, p := range grid {
		var f [3]float32
		for k := range 3 {
			if math.Abs(p[k]) > math.MaxFloat32/4 {
				return fmt.Errorf("a point lies %g from the contact point: out of range", norm(p))
			}
			f[k] = float32(p[k])
		}
		s.Positions = append(s.Positions, f)
	}
	at := func(i, j int) int32 { return base + int32(i*(pt+1)+j) }
	for i := range ps {
		for j := range pt {
			// In grid order (v00, v10, v11) and (v00, v11, v01) front ds×dt;
			// reversed for the mirror.
			for _, tri := range [2][3]int32{{at(i, j), at(i+1, j+1), at(i+1, j)}, {at(i, j), at(i, j+1), at(i+1, j+1)}} {
				if degenerate(s.Positions[tri[0]], s.Positions[tri[1]], s.Positions[tri[2]]) {
					continue
				}
				s.Faces = append(s.Faces, tri[0], tri[1], tri[2])
				s.FaceSizes = append(s.FaceSizes, 3)
			}
		}
	}
	return nil
}

// degenerate reports a triangle of (nearly) no area, whose normal would
// be meaningless.
func degenerate(a, b, c [3]float32) bool {
	d := func(p, q [3]float32) [3]float64 {
		return [3]float64{float64(p[0]) - float64(q[0]), float64(p[1]) - float64(q[1]), float64(p[2]) - float64(q[2])}
	}
	e1, e2 := d(b, a), d(c, a)
	n := norm(cross(e1, e2))
	return !(n > 1e-9*(dot(e1, e1)+dot(e2, e2)))
}
