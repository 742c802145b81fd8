package skeleton

import (
	"errors"
	"fmt"
	"math"
)

// Polygon is a simple polygon with holes: the outer ring counter-clockwise,
// the holes clockwise.
type Polygon struct {
	Outer [][2]float64
	Holes [][][2]float64
}

// Offset is the polygon moved by d along its edges' normals, its corners
// mitred, as the straight skeleton's wavefront is at time |d|: inward for
// d > 0 (an inset, possibly in several pieces or none), outward for d < 0
// (an outset, where holes shrink and close and outer parts grow together).
func Offset(outer [][2]float64, holes [][][2]float64, d float64) ([]Polygon, error) {
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return nil, errors.New("skeleton: offset distance is not finite")
	}
	rings := [][][2]float64{orient(outer, true)}
	for _, h := range holes {
		rings = append(rings, orient(h, false))
	}
	if d == 0 {
		return group(rings), nil
	}
	if d < 0 { // the outside's wavefront: every ring turned around
		for k, r := range rings {
			rings[k] = reversed(r)
		}
	}
	s, err := newSim(rings, nil)
	if err != nil {
		return nil, err
	}
	out, err := s.run(math.Abs(d))
	if err != nil {
		return nil, err
	}
	if d < 0 {
		for k, r := range out {
			out[k] = reversed(r)
		}
	}
	return group(out), nil
}

// Inset is the polygon's wavefront at time d (as Offset for d > 0) with
// weights as Compute takes them, and the strip each edge swept to get
// there: strips[e] is edge e's face of the skeleton below d (nil where it
// has none), and the strips and the inset tile the polygon. With weights
// the rings must come oriented (outer counter-clockwise, holes clockwise),
// so that the weights' order is the edges' order.
func Inset(outer [][2]float64, holes [][][2]float64, weights []float64, d float64) ([]Polygon, [][][2]float64, error) {
	if !(d > 0) || math.IsInf(d, 0) {
		return nil, nil, errors.New("skeleton: inset distance must be positive and finite")
	}
	rings := [][][2]float64{orient(outer, true)}
	for _, h := range holes {
		rings = append(rings, orient(h, false))
	}
	if weights != nil {
		for k, r := range rings {
			if k == 0 && area(r) != area(outer) || k > 0 && area(r) != area(holes[k-1]) {
				return nil, nil, fmt.Errorf("skeleton: weighted ring %d is not oriented (outer counter-clockwise, holes clockwise)", k)
			}
		}
	}
	front, strips, err := sweep(rings, weights, d)
	if err != nil {
		return nil, nil, err
	}
	return group(front), strips, nil
}

// sweep runs the wavefront of rings (each with the side it sweeps on its
// left; weights as Compute takes them) to time d and returns the wavefront
// there and each edge's face below d (nil where it has none), edges
// numbered ring after ring.
func sweep(rings [][][2]float64, weights []float64, d float64) ([][][2]float64, [][][2]float64, error) {
	s, err := newSim(rings, weights)
	if err != nil {
		return nil, nil, err
	}
	front, err := s.run(d)
	if err != nil {
		return nil, nil, err
	}
	s.stopAt()
	left := 0.0
	for _, r := range front {
		left += area(r)
	}
	sk := &Skeleton{Nodes: s.nodes, Arcs: s.arcs, Rings: s.input}
	if err := s.faces(sk, left); err != nil {
		return nil, nil, err
	}
	strips := make([][][2]float64, len(s.edges))
	for _, f := range sk.Faces {
		ring := make([][2]float64, len(f.Nodes))
		for i, k := range f.Nodes {
			ring[i] = s.nodes[k].P
		}
		if area(ring) > 0 {
			strips[f.Edge] = ring
		}
	}
	return front, strips, nil
}

// group makes polygons of rings: each counter-clockwise ring an outer
// ring, each clockwise one a hole of the smallest outer ring around it.
// Rings of no area (a wavefront collapsing at this very time) are dropped.
func group(rings [][][2]float64) []Polygon {
	var polys []Polygon
	var areas []float64
	for _, r := range rings {
		if a := area(r); a > 0 {
			polys = append(polys, Polygon{Outer: r})
			areas = append(areas, a)
		}
	}
	for _, r := range rings {
		if area(r) >= 0 {
			continue
		}
		best := -1
		for k, p := range polys {
			if Inside(r[0], p.Outer) && (best < 0 || areas[k] < areas[best]) {
				best = k
			}
		}
		if best >= 0 {
			polys[best].Holes = append(polys[best].Holes, r)
		}
	}
	return polys
}

// Inside reports whether p lies inside ring r (even-odd rule).
func Inside(p [2]float64, r [][2]float64) bool {
	in := false
	for i, a := range r {
		b := r[(i+1)%len(r)]
		if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < a[0]+(p[1]-a[1])*(b[0]-a[0])/(b[1]-a[1]) {
			in = !in
		}
	}
	return in
}

// Border is the part of each edge's face below time d (its strip of the
// polygon's border d wide), edge by edge; nil for an edge whose face does
// not reach below d. The strips and Offset(d)'s polygons tile the polygon.
func (sk *Skeleton) Border(d float64) [][][2]float64 {
	out := make([][][2]float64, len(sk.Faces))
	for k, f := range sk.Faces {
		var ring [][2]float64
		for i, a := range f.Nodes {
			p, q := sk.Nodes[a], sk.Nodes[f.Nodes[(i+1)%len(f.Nodes)]]
			if p.T <= d {
				ring = append(ring, p.P)
			}
			if (p.T < d) != (q.T < d) && p.T != q.T {
				u := (d - p.T) / (q.T - p.T)
				if u > 0 && u < 1 {
					ring = append(ring, [2]float64{p.P[0] + u*(q.P[0]-p.P[0]), p.P[1] + u*(q.P[1]-p.P[1])})
				}
			}
		}
		if len(ring) >= 3 && area(ring) > 0 {
			out[k] = ring
		}
	}
	return out
}
