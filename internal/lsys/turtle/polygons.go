package turtle

import "fmt"

// assemble builds the polygons from the events in string order: '{' opens a
// polygon on a stack, '.' (and F and f, see moveVertices) adds a vertex to
// the innermost open one, '}' closes it with the colour the turtle has
// there. Events are few next to
// modules, so one sequential pass is enough.
func (g *Geometry) assemble(evs []event) error {
	var open [][][3]float32
	var free [][][3]float32 // vertex slices to reuse
	for _, e := range evs {
		switch e.kind {
		case cPolyStart:
			var vs [][3]float32
			if k := len(free) - 1; k >= 0 {
				vs, free = free[k][:0], free[:k]
			}
			open = append(open, vs)
		case cPolyVertex:
			// A vertex where the polygon's last one is adds nothing, so
			// that ".f." and "f" trace the same polygon.
			if k := len(open) - 1; k >= 0 && (len(open[k]) == 0 || !samePoint(open[k][len(open[k])-1], e.p)) {
				open[k] = append(open[k], e.p)
			}
		case cPolyEnd:
			k := len(open) - 1
			if k < 0 {
				return fmt.Errorf("turtle: %w: '}' at module %d closes no '{'", ErrUnbalanced, e.module)
			}
			vs := open[k]
			open = open[:k]
			if len(vs) >= 3 {
				g.Polygons = append(g.Polygons, Polygon{
					First: int32(len(g.PolyVerts)), Count: int32(len(vs)), Color: e.color,
				})
				g.PolyVerts = append(g.PolyVerts, vs...)
			}
			free = append(free, vs)
		}
	}
	return nil
}

// samePointTol is how far apart (relative to the coordinates, at least 1)
// two vertices may be and still be one: the GPU computes a '.' after a move
// and the move's own vertex along different paths (a prefix scan of turtle
// states), which may round apart in the last bits; the CPU's sequential walk
// gives them bit for bit. turtle_polygons.cuh's same_point is the twin.
const samePointTol = 1e-5

// samePoint reports whether a and b are one vertex. NaN is never the same.
func samePoint(a, b [3]float32) bool {
	for i := range a {
		d := a[i] - b[i]
		if d < 0 {
			d = -d
		}
		m := max(float32(1), a[i], -a[i], b[i], -b[i])
		if !(d <= samePointTol*m) {
			return false
		}
	}
	return true
}
