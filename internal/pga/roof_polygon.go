package pga

import (
	"errors"
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/pga/skeleton"
)

// Roofs on a lot's own polygon (concave, or with holes) are built as CGA's
// roofHip, roofGable, roofPyramid and roofShed build them on any polygon:
// hip slopes are the straight skeleton's faces, every slope at the roof's
// angle; a gable turns each hip end (a triangular face under the end of a
// ridge) into a vertical wall by running the ridge on to the edge; a
// pyramid joins every edge to one apex; a shed is one plane over the whole
// polygon. The shape keeps its profile: the solid is built again when it is
// drawn, from the profile and the Box's size, its height along local Z.

// polyRoof is a roof over a footprint at unit slope (heights are
// horizontal run): corners in the footprint's plane with their heights,
// faces as corner indices counter-clockwise seen from outside. Corners
// 0..n-1 are the footprint's vertices at height 0.
type polyRoof struct {
	at    [][2]float64
	h     []float64
	faces [][]int
	parts []roofPart // the faces CompSplit gives, the underside left out
}

// roofPart is one planar face of a roof as CompSplit hands it out: rings of
// corner indices (outer first, counter-clockwise seen from outside), a
// slope (top) or a vertical face (side: a gable, a shed's wall).
type roofPart struct {
	rings [][]int
	side  bool
}

// footprintRoof builds kind's roof over footprint fp scaled to sx by sy.
func footprintRoof(fp *footprint, kind RoofKind, sx, sy float64) (*polyRoof, error) {
	rings := scaledRings(fp, sx, sy)
	switch kind {
	case Shed:
		return shedRoof(rings, fp, sx, sy), nil
	case Pyramid:
		return pyramidRoof(rings, fp)
	}
	sk, err := skeleton.Compute(rings[0], rings[1:], nil)
	if err != nil {
		return nil, err
	}
	r := &polyRoof{}
	for _, n := range sk.Nodes {
		r.at = append(r.at, n.P)
		r.h = append(r.h, n.T)
	}
	roofBase(r, fp)
	var gables map[int]bool
	if kind == Gable {
		if gables, err = gableEnds(r, sk); err != nil {
			return nil, err
		}
	}
	for _, f := range sk.Faces {
		r.parts = append(r.parts, roofPart{rings: [][]int{f.Nodes}, side: gables[f.Edge]})
		if gables[f.Edge] || len(f.Nodes) == 3 {
			r.faces = append(r.faces, f.Nodes)
			continue
		}
		pts := make([][2]float64, len(f.Nodes))
		for i, k := range f.Nodes {
			pts[i] = r.at[k]
		}
		tris, err := triangulate([][][2]float64{pts})
		if err != nil {
			return nil, fmt.Errorf("the slope of edge %d: %w", f.Edge, err)
		}
		for _, t := range tris {
			r.faces = append(r.faces, []int{f.Nodes[t[0]], f.Nodes[t[1]], f.Nodes[t[2]]})
		}
	}
	return r, nil
}

// roofBase adds the footprint's underside: its cap triangles, facing down.
func roofBase(r *polyRoof, fp *footprint) {
	for _, t := range fp.tris {
		r.faces = append(r.faces, []int{t[2], t[1], t[0]})
	}
}

// gableEnds moves the apex of every hip end onto its edge, along the ridge
// it ends, and returns the edges whose faces became gables. A hip end is a
// triangular face whose apex meets exactly three arcs, the third a ridge
// to a node above the footprint; the ridge's line lies in both neighbouring
// slopes, so running it on keeps them planar. A ridge that runs away from
// its edge, or would reach the edge's plane outside the edge (a skewed end
// of an irregular footprint), cannot make a gable there: that end stays a
// hip. Footprints where no end can take a gable (a square, whose slopes all
// meet in one apex) are refused.
func gableEnds(r *polyRoof, sk *skeleton.Skeleton) (map[int]bool, error) {
	degree := make([]int, len(sk.Nodes))
	for _, a := range sk.Arcs {
		degree[a.From]++
		degree[a.To]++
	}
	out := map[int]bool{}
	var last error
	var moved [][2]float64
	var movedAt []int
	var movedH []float64
	for _, f := range sk.Faces {
		if len(f.Nodes) != 3 {
			continue
		}
		a, b, apex := f.Nodes[0], f.Nodes[1], f.Nodes[2]
		if degree[apex] != 3 {
			continue
		}
		ridge := -1
		for _, arc := range sk.Arcs {
			if arc.From == apex && arc.To != a && arc.To != b {
				ridge = arc.To
			} else if arc.To == apex && arc.From != a && arc.From != b {
				ridge = arc.From
			}
		}
		if ridge < 0 || sk.Nodes[ridge].T <= 0 {
			continue
		}
		p, h, err := ridgeEnd(sk, a, b, apex, ridge)
		if err != nil {
			last = fmt.Errorf("over edge %d %w", f.Edge, err)
			continue // this end stays a hip
		}
		moved, movedAt, movedH = append(moved, p), append(movedAt, apex), append(movedH, h)
		out[f.Edge] = true
	}
	if len(out) == 0 && last != nil {
		return nil, fmt.Errorf("GABLE: no hip end of this footprint can take a gable (%w); use HIP or PYRAMID", last)
	}
	if len(out) == 0 {
		return nil, errors.New("GABLE: no ridge of this footprint's skeleton ends in a hip (its slopes meet in points, as a square's do); use HIP or PYRAMID")
	}
	for i, k := range movedAt {
		r.at[k], r.h[k] = moved[i], movedH[i]
	}
	return out, nil
}

// ridgeEnd is where the ridge from node ridge through apex meets the
// vertical plane over the edge from node a to node b, and its height there.
func ridgeEnd(sk *skeleton.Skeleton, a, b, apex, ridge int) ([2]float64, float64, error) {
	pa, pb := sk.Nodes[a].P, sk.Nodes[b].P
	l := math.Hypot(pb[0]-pa[0], pb[1]-pa[1])
	d := [2]float64{(pb[0] - pa[0]) / l, (pb[1] - pa[1]) / l}
	off := func(p [2]float64) float64 { return d[0]*(p[1]-pa[1]) - d[1]*(p[0]-pa[0]) }
	A, B := sk.Nodes[apex], sk.Nodes[ridge]
	da, db := off(A.P), off(B.P)
	if !(db > da) {
		return [2]float64{}, 0, errors.New("the ridge does not run towards the edge")
	}
	s := da / (db - da)
	p := [2]float64{A.P[0] + s*(A.P[0]-B.P[0]), A.P[1] + s*(A.P[1]-B.P[1])}
	h := A.T + s*(A.T-B.T)
	u := d[0]*(p[0]-pa[0]) + d[1]*(p[1]-pa[1])
	if u <= 1e-9*l || u >= l-1e-9*l || h <= 0 {
		return [2]float64{}, 0, fmt.Errorf("the ridge reaches the edge's plane outside the edge (at %.3g of its %.3g m)", u, l)
	}
	return p, h, nil
}

// pyramidRoof joins every edge of the outer ring to one apex over the
// middle of the skeleton's top (the centre of a rectangle or a regular
// polygon), as high as the hip roof's top. The apex must see every edge:
// footprints with holes or not star-shaped around it are refused.
func pyramidRoof(rings [][][2]float64, fp *footprint) (*polyRoof, error) {
	if len(rings) > 1 {
		return nil, errors.New("PYRAMID on a footprint with holes: a pyramid has one apex over a solid footprint; use HIP")
	}
	sk, err := skeleton.Compute(rings[0], nil, nil)
	if err != nil {
		return nil, err
	}
	top := sk.MaxT()
	var c [2]float64
	k := 0.0
	for _, n := range sk.Nodes {
		if top-n.T <= 1e-9*top {
			c[0], c[1], k = c[0]+n.P[0], c[1]+n.P[1], k+1
		}
	}
	c = [2]float64{c[0] / k, c[1] / k}
	ring := rings[0]
	r := &polyRoof{at: append(append([][2]float64(nil), ring...), c), h: make([]float64, len(ring)+1)}
	r.h[len(ring)] = top
	roofBase(r, fp)
	for i, p := range ring {
		q := ring[(i+1)%len(ring)]
		if cross(p, q, c) <= 0 {
			return nil, fmt.Errorf("PYRAMID: the apex at (%.3g, %.3g) does not see edge %d (the footprint is not star-shaped around it); use HIP", c[0], c[1], i)
		}
		r.faces = append(r.faces, []int{i, (i + 1) % len(ring), len(ring)})
		r.parts = append(r.parts, roofPart{rings: [][]int{r.faces[len(r.faces)-1]}})
	}
	return r, nil
}

// shedRoof is one plane rising across the footprint's shorter side as the
// rectangle's shed does: towards +Y from its lowest point, or towards -X
// when Y is the longer side; walls close it on every edge (hole edges
// included) where the plane stands above the footprint.
func shedRoof(rings [][][2]float64, fp *footprint, sx, sy float64) *polyRoof {
	rise := func(p [2]float64) float64 { return p[1] }
	if sy > sx {
		rise = func(p [2]float64) float64 { return -p[0] }
	}
	low := math.Inf(1)
	r := &polyRoof{}
	for _, ring := range rings {
		for _, p := range ring {
			low = math.Min(low, rise(p))
			r.at = append(r.at, p)
		}
	}
	n := len(r.at)
	r.h = make([]float64, n)
	// top[i] is vertex i's corner on the roof plane: itself where the
	// plane meets the footprint (the low edge), so the solid stays closed.
	flat := 1e-9 * math.Max(sx, sy)
	top := make([]int, n)
	for i := 0; i < n; i++ {
		top[i] = i
		if h := rise(r.at[i]) - low; h > flat {
			top[i] = len(r.at)
			r.at = append(r.at, r.at[i])
			r.h = append(r.h, h)
		}
	}
	roofBase(r, fp)
	for _, t := range fp.tris {
		r.faces = append(r.faces, []int{top[t[0]], top[t[1]], top[t[2]]})
	}
	var plane [][]int
	for k, ring := range rings {
		q := make([]int, len(ring))
		for i := range ring {
			q[i] = top[fpBase(rings, k)+i]
		}
		plane = append(plane, q)
	}
	r.parts = append(r.parts, roofPart{rings: plane})
	base := 0
	for _, ring := range rings {
		m := len(ring)
		for i := 0; i < m; i++ {
			a, b := base+i, base+(i+1)%m
			var wall []int
			switch ha, hb := top[a] != a, top[b] != b; {
			case ha && hb:
				wall = []int{a, b, top[b], top[a]}
			case ha:
				wall = []int{a, b, top[a]}
			case hb:
				wall = []int{a, b, top[b]}
			default:
				continue
			}
			r.faces = append(r.faces, wall)
			r.parts = append(r.parts, roofPart{rings: [][]int{wall}, side: true})
		}
		base += m
	}
	return r
}

// fpBase is the index of ring k's first vertex among all rings' vertices.
func fpBase(rings [][][2]float64, k int) int {
	n := 0
	for _, r := range rings[:k] {
		n += len(r)
	}
	return n
}

// solid is the roof as a solid of height h: its base at z = -h/2, its
// highest corner at +h/2.
func (r *polyRoof) solid(h float64) solid {
	top := 0.0
	for _, v := range r.h {
		top = math.Max(top, v)
	}
	k := 0.0
	if top > 0 {
		k = h / top
	}
	sd := solid{faces: r.faces}
	for i, p := range r.at {
		sd.corners = append(sd.corners, Vec3{p[0], p[1], r.h[i]*k - h/2})
	}
	return sd
}

// top is the roof's height at unit slope.
func (r *polyRoof) top() float64 {
	m := 0.0
	for _, v := range r.h {
		m = math.Max(m, v)
	}
	return m
}

// triangles is the number of triangles the encoders draw of it.
func (r *polyRoof) triangles() int {
	t := 0
	for _, f := range r.faces {
		t += len(f) - 2
	}
	return t
}

// roofOn is the Roof operation on s: a roof over a lot's own polygon when
// s is a Quad carrying one, else the rectangle's roof.
func (g *Grammar) roofOn(s *Shape, kind RoofKind, angle float64) error {
	fp := g.footprintOf(s.Profile)
	if fp == nil || s.Kind != Quad {
		return roof(s, kind, angle)
	}
	if !(angle > 0 && angle < 90) {
		//lint:ignore ST1005 Roof is the grammar operation's name
		return fmt.Errorf("Roof angle %g: want degrees between 0 and 90", angle)
	}
	r, err := footprintRoof(fp, kind, s.Size[0], s.Size[1])
	if err != nil {
		//lint:ignore ST1005 Roof is the grammar operation's name
		return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("Roof %s on the lot's polygon: %w", kind, err)}
	}
	h := math.Tan(angle*math.Pi/180) * r.top()
	s.Transform = s.Transform.Mul(Translation(Vec3{0, 0, h / 2}))
	s.Kind, s.Roof, s.Size[2] = Box, kind, h
	return nil
}

// polygonRoofSolid is the solid of a roof made by roofOn on footprint fp.
// Its build cannot fail where roofOn's succeeded (the same footprint and
// size); an empty solid stands for that impossible case.
func polygonRoofSolid(fp *footprint, s *Shape) (solid, *polyRoof) {
	r, err := footprintRoof(fp, s.Roof, s.Size[0], s.Size[1])
	if err != nil {
		return solid{}, &polyRoof{}
	}
	return r.solid(s.Size[2]), r
}
