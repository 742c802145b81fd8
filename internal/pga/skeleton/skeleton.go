// Package skeleton computes the straight skeleton of a simple polygon with
// holes, weighted or not, by simulating its wavefront: every edge moves
// inward along its normal at its own speed, and the polygon's vertices move
// along the bisectors that keep them on their two edges. The wavefront
// changes only at events: an edge shrinks to nothing (edge event) or a
// reflex vertex runs into an edge that is not its own (split event). The
// simulation takes the earliest event of the whole wavefront each time and
// moves every vertex to it, so the wavefront stays a set of simple rings
// between events and coincident events are taken one after another at the
// same time (the later ones find zero-length edges and fire at once).
// Each edge's face of the skeleton is traced by the vertices that carry the
// edge; heights are times, so a roof at slope angle a is T·tan(a).
//
// Degenerate cases the simulation cannot resolve (a wavefront that folds
// onto itself, faces that do not tile the polygon) are errors, never a
// skeleton that looks right and is not: Compute checks that its faces
// cover the polygon's area before returning them.
package skeleton

import (
	"errors"
	"fmt"
	"math"
)

// Node is a point of the skeleton: where it lies and when the wavefront
// reached it (its height for unit speeds and a 45° slope).
type Node struct {
	P [2]float64
	T float64
}

// Face is the part of the polygon swept by one edge: node indices,
// counter-clockwise, starting with the edge's two end points.
type Face struct {
	Edge  int
	Nodes []int
}

// Arc is a segment of the skeleton between two nodes, separating the faces
// of edges Left and Right; Right is -1 for a piece of the wavefront where
// Inset stopped it.
type Arc struct {
	From, To    int
	Left, Right int
}

// Skeleton is the straight skeleton of a polygon. Edges are numbered ring
// after ring (outer first), edge i of a ring running from its vertex i to
// vertex i+1; node k < number of polygon vertices is the polygon's vertex k.
type Skeleton struct {
	Nodes []Node
	Faces []Face
	Arcs  []Arc
	Rings [][][2]float64 // the input rings, outer counter-clockwise, holes clockwise
}

// MaxT is the time the last part of the wavefront vanished: the roof's top.
func (s *Skeleton) MaxT() float64 {
	m := 0.0
	for _, n := range s.Nodes {
		m = math.Max(m, n.T)
	}
	return m
}

// edge is one polygon edge's supporting line as it moves: n·x = c + w·t.
type edge struct {
	a, b [2]float64 // end points at time 0
	d, n [2]float64 // unit direction and inward (left) normal
	w    float64    // speed
	na   int        // its start and end nodes
	nb   int
}

// vert is a wavefront vertex at the current time.
type vert struct {
	p, v       [2]float64
	in, out    int // edges ending and starting here
	prev, next int
	node       int // where it started
	alive      bool
	spike      bool // its edges are antiparallel: no bisector
}

type sim struct {
	edges []edge
	verts []vert
	nodes []Node
	arcs  []Arc
	t     float64
	eps   float64 // lengths below this are zero (relative to the polygon's size)
	input [][][2]float64
	// split event caches (events.go): per vertex its candidate, the
	// vertices made since the last look, and marks of the edges they changed
	cands []cand
	dirty []int
	mark  []bool
}

// Compute is the straight skeleton of the polygon with outer ring outer and
// holes (any orientation; they are turned as needed). weights gives each
// edge's speed, numbered as in Skeleton; nil means all 1.
func Compute(outer [][2]float64, holes [][][2]float64, weights []float64) (*Skeleton, error) {
	rings := [][][2]float64{orient(outer, true)}
	for _, h := range holes {
		rings = append(rings, orient(h, false))
	}
	s, err := newSim(rings, weights)
	if err != nil {
		return nil, err
	}
	if _, err := s.run(math.Inf(1)); err != nil {
		return nil, err
	}
	sk := &Skeleton{Nodes: s.nodes, Arcs: s.arcs, Rings: s.input}
	if err := s.faces(sk, 0); err != nil {
		return nil, err
	}
	return sk, nil
}

// newSim starts the wavefront of rings, each with the inside on its left.
func newSim(rings [][][2]float64, weights []float64) (*sim, error) {
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	s := &sim{input: rings}
	for k, r := range rings {
		if len(r) < 3 {
			return nil, fmt.Errorf("skeleton: ring %d has %d vertices, want 3 or more", k, len(r))
		}
		for _, p := range r {
			if math.IsNaN(p[0]) || math.IsNaN(p[1]) || math.IsInf(p[0], 0) || math.IsInf(p[1], 0) {
				return nil, fmt.Errorf("skeleton: ring %d has a coordinate that is not finite", k)
			}
			for j := 0; j < 2; j++ {
				lo[j], hi[j] = math.Min(lo[j], p[j]), math.Max(hi[j], p[j])
			}
		}
	}
	s.eps = 1e-9 * math.Hypot(hi[0]-lo[0], hi[1]-lo[1])
	// Sized for the rings and as many events again: grown append by
	// append, these were a tenth of a roof table's allocations.
	total := 0
	for _, r := range rings {
		total += len(r)
	}
	s.edges = make([]edge, 0, total)
	s.nodes = make([]Node, 0, 2*total)
	s.verts = make([]vert, 0, 2*total)
	for k, r := range rings {
		base := len(s.edges)
		for i, a := range r {
			b := r[(i+1)%len(r)]
			l := math.Hypot(b[0]-a[0], b[1]-a[1])
			if l <= s.eps {
				return nil, fmt.Errorf("skeleton: ring %d: vertices %d and %d coincide", k, i, (i+1)%len(r))
			}
			w := 1.0
			if weights != nil {
				if len(weights) <= len(s.edges) {
					return nil, fmt.Errorf("skeleton: %d weights for more edges", len(weights))
				}
				w = weights[len(s.edges)]
				if !(w > 0) || math.IsInf(w, 0) {
					return nil, fmt.Errorf("skeleton: edge %d: weight %g, want a finite positive speed", len(s.edges), w)
				}
			}
			d := [2]float64{(b[0] - a[0]) / l, (b[1] - a[1]) / l}
			s.edges = append(s.edges, edge{a: a, b: b, d: d, n: [2]float64{-d[1], d[0]}, w: w,
				na: len(s.edges), nb: base + (i+1)%len(r)})
		}
		n := len(r)
		for i, p := range r {
			e := base + i
			s.nodes = append(s.nodes, Node{P: p})
			s.verts = append(s.verts, vert{p: p, in: base + (i+n-1)%n, out: e,
				prev: base + (i+n-1)%n, next: base + (i+1)%n, node: e, alive: true})
		}
	}
	if weights != nil && len(weights) != len(s.edges) {
		return nil, fmt.Errorf("skeleton: %d weights for %d edges", len(weights), len(s.edges))
	}
	for i := range s.verts {
		s.bisect(i)
	}
	return s, nil
}

// orient returns ring r counter-clockwise (ccw) or clockwise.
func orient(r [][2]float64, ccw bool) [][2]float64 {
	if (area(r) > 0) == ccw {
		return r
	}
	return reversed(r)
}

// area is the signed area of ring r (positive counter-clockwise).
func area(r [][2]float64) float64 {
	a := 0.0
	for i, p := range r {
		q := r[(i+1)%len(r)]
		a += p[0]*q[1] - q[0]*p[1]
	}
	return a / 2
}

// bisect sets vertex i's velocity: the one that keeps it on both its edges'
// moving lines.
func (s *sim) bisect(i int) {
	v := &s.verts[i]
	e1, e2 := s.edges[v.in], s.edges[v.out]
	det := e1.n[0]*e2.n[1] - e1.n[1]*e2.n[0]
	v.spike = false
	dot := e1.n[0]*e2.n[0] + e1.n[1]*e2.n[1]
	if math.Abs(det) < 1e-12 && dot > 0 { // collinear edges: move with them
		w := (e1.w + e2.w) / 2
		v.v = [2]float64{e1.n[0] * w, e1.n[1] * w}
		return
	}
	// Edges back to back: a spike. Nearly so counts too: the bisector of
	// two edges a hair from antiparallel (an arm's sides, once its end has
	// collapsed, in coordinates rounded to millimetres) runs at a speed of
	// 1/det, and a vertex sent off at 1e8 m per unit of time left the
	// wavefront with no event ahead.
	if math.Abs(det) < spikeSine && dot < 0 {
		v.v, v.spike = [2]float64{}, true
		return
	}
	v.v = [2]float64{(e1.w*e2.n[1] - e2.w*e1.n[1]) / det, (e1.n[0]*e2.w - e2.n[0]*e1.w) / det}
}

// spikeSine is the sine of the angle under which two edges' normals count
// as opposite at a vertex (a spike): 1e-9 still left the failures of one in
// 50,000 generated L and U lots (TestSkeletonRoundedArms); 1e-7 and 1e-5
// none of 200,000.
const spikeSine = 1e-6

// reflex reports whether vertex i turns right (into the polygon's inside).
func (s *sim) reflex(i int) bool {
	v := &s.verts[i]
	d1, d2 := s.edges[v.in].d, s.edges[v.out].d
	return d1[0]*d2[1]-d1[1]*d2[0] < -1e-12
}

// node is the skeleton node at p now: an existing one when a node of this
// time lies within eps (coincident events meet in one node).
func (s *sim) node(p [2]float64) int {
	for k := len(s.nodes) - 1; k >= 0; k-- {
		n := s.nodes[k]
		if n.T < s.t-s.eps { // nodes come in the order of time
			break
		}
		if math.Abs(n.T-s.t) <= s.eps && math.Hypot(n.P[0]-p[0], n.P[1]-p[1]) <= 16*s.eps {
			return k
		}
	}
	s.nodes = append(s.nodes, Node{P: p, T: s.t})
	return len(s.nodes) - 1
}

// end ends vertex i's arc at node n.
func (s *sim) end(i, n int) {
	v := &s.verts[i]
	v.alive = false
	if v.node != n {
		s.arcs = append(s.arcs, Arc{From: v.node, To: n, Left: v.out, Right: v.in})
	}
}

// add makes a vertex at node n between edges in and out, linked between
// prev and next.
func (s *sim) add(n, in, out, prev, next int) int {
	k := len(s.verts)
	s.verts = append(s.verts, vert{p: s.nodes[n].P, in: in, out: out, prev: prev, next: next, node: n, alive: true})
	s.verts[prev].next, s.verts[next].prev = k, k
	s.bisect(k)
	s.dirty = append(s.dirty, k)
	return k
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

var errStuck = errors.New("skeleton: the wavefront did not collapse (too many events)")
