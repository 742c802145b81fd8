package skeleton

import (
	"fmt"
	"math"
)

// event is the next change of the wavefront, dt from now: vertex a's edge
// to its successor collapses (split < 0), or reflex vertex a hits the edge
// starting at vertex split.
type event struct {
	dt    float64
	a     int
	split int
}

// run advances the wavefront event by event until it has vanished or time
// stop has come, and returns the rings alive at stop (nil when it vanished
// first).
func (s *sim) run(stop float64) ([][][2]float64, error) {
	limit := 8*len(s.verts) + 64
	for it := 0; ; it++ {
		if it > limit {
			return nil, errStuck
		}
		if err := s.collapseNow(); err != nil {
			return nil, err
		}
		ev, ok := s.next()
		if !ok {
			if !math.IsInf(stop, 1) {
				s.advance(stop - s.t)
				return s.rings(), nil
			}
			if s.anyAlive() {
				return nil, fmt.Errorf("skeleton: the wavefront stopped at time %g with no event ahead", s.t)
			}
			return nil, nil
		}
		if s.t+ev.dt >= stop {
			s.advance(stop - s.t)
			return s.rings(), nil
		}
		s.advance(ev.dt)
		if ev.split < 0 {
			s.collapse(ev.a)
		} else {
			s.splitAt(ev.a, ev.split)
		}
	}
}

func (s *sim) anyAlive() bool {
	for _, v := range s.verts {
		if v.alive {
			return true
		}
	}
	return false
}

// collapseNow takes every event due now: edges of zero length collapse,
// rings of two vertices (a ridge) end, and spikes (two antiparallel edges
// meeting, a part of the wavefront of no width) fold flat into a ridge.
func (s *sim) collapseNow() error {
	for changed := true; changed; {
		changed = false
		for i := range s.verts {
			v := &s.verts[i]
			if !v.alive {
				continue
			}
			switch {
			case s.verts[v.next].next == i || v.next == i:
				s.finish(i)
			case dist(v.p, s.verts[v.next].p) <= 16*s.eps:
				s.collapse(i)
			case v.spike:
				if err := s.fold(i); err != nil {
					return err
				}
			default:
				continue
			}
			changed = true
		}
	}
	return nil
}

// fold flattens spike i: its two edges lie on one line through it, back to
// back, so the wavefront between them has no width. The ridge runs from i
// back to the nearer of its neighbours, which then goes on along the
// farther neighbour's edge.
func (s *sim) fold(i int) error {
	v := s.verts[i]
	p, n := v.prev, v.next
	d := s.edges[v.in].d
	lp := d[0]*(v.p[0]-s.verts[p].p[0]) + d[1]*(v.p[1]-s.verts[p].p[1])
	ln := d[0]*(v.p[0]-s.verts[n].p[0]) + d[1]*(v.p[1]-s.verts[n].p[1])
	if lp < -s.eps || ln < -s.eps {
		return fmt.Errorf("skeleton: the wavefront folds onto itself at (%g, %g), time %g (a vertex event this skeleton does not resolve)", v.p[0], v.p[1], s.t)
	}
	if lp <= ln {
		q := s.node(s.verts[p].p)
		pv := s.verts[p]
		s.end(i, q)
		s.end(p, q)
		s.add(q, pv.in, v.out, pv.prev, n)
		return nil
	}
	q := s.node(s.verts[n].p)
	nv := s.verts[n]
	s.end(i, q)
	s.end(n, q)
	s.add(q, v.in, nv.out, p, nv.next)
	return nil
}

// finish ends a ring of two vertices: the arc between them is a ridge of
// the two edges left.
func (s *sim) finish(i int) {
	j := s.verts[i].next
	ni := s.node(s.verts[i].p)
	nj := s.node(s.verts[j].p)
	ei, ej := s.verts[i].out, s.verts[j].out
	s.end(i, ni)
	if j != i {
		s.end(j, nj)
		if ni != nj {
			s.arcs = append(s.arcs, Arc{From: ni, To: nj, Left: ei, Right: ej})
		}
	}
}

// collapse takes the edge event of vertex i's outgoing edge: i and its
// successor meet in a node, and a new vertex goes on between their other
// edges.
func (s *sim) collapse(i int) {
	j := s.verts[i].next
	p, q := s.verts[i].p, s.verts[j].p
	n := s.node([2]float64{(p[0] + q[0]) / 2, (p[1] + q[1]) / 2})
	in, out, prev, next := s.verts[i].in, s.verts[j].out, s.verts[i].prev, s.verts[j].next
	s.end(i, n)
	s.end(j, n)
	s.add(n, in, out, prev, next)
}

// splitAt takes the split event of reflex vertex r hitting the edge that
// starts at vertex x: the ring parts on either side of r go on as two rings
// (or, for an edge of another ring, the two rings go on as one).
func (s *sim) splitAt(r, x int) {
	n := s.node(s.verts[r].p)
	rv := s.verts[r]
	y := s.verts[x].next
	e := s.verts[x].out
	s.end(r, n)
	s.add(n, rv.in, e, rv.prev, y)
	s.add(n, e, rv.out, x, rv.next)
}

// advance moves every vertex dt on.
func (s *sim) advance(dt float64) {
	if dt <= 0 {
		return
	}
	for i := range s.verts {
		v := &s.verts[i]
		if v.alive {
			v.p = [2]float64{v.p[0] + v.v[0]*dt, v.p[1] + v.v[1]*dt}
		}
	}
	s.t += dt
}

// next is the earliest event of the wavefront; edge events win ties.
func (s *sim) next() (event, bool) {
	best, ok := event{dt: math.Inf(1)}, false
	for i := range s.verts {
		v := &s.verts[i]
		if !v.alive {
			continue
		}
		w := &s.verts[v.next]
		d := s.edges[v.out].d
		rate := d[0]*(w.v[0]-v.v[0]) + d[1]*(w.v[1]-v.v[1])
		if rate < 0 {
			l := d[0]*(w.p[0]-v.p[0]) + d[1]*(w.p[1]-v.p[1])
			if dt := math.Max(l, 0) / -rate; dt < best.dt {
				best, ok = event{dt: dt, a: i, split: -1}, true
			}
		}
	}
	s.markDirty(true)
	for r := range s.verts {
		if !s.verts[r].alive || !s.reflex(r) {
			continue
		}
		if t, x, hit := s.splitCandidate(r); hit && t-s.t < best.dt-s.eps {
			best, ok = event{dt: math.Max(t-s.t, 0), a: r, split: x}, true
		}
	}
	s.markDirty(false)
	s.dirty = s.dirty[:0]
	return best, ok
}

// cand is a reflex vertex's earliest split event as last computed: the
// time it hits the edge starting at vertex x, which then ended at vertex
// next. It stays right while neither end of that edge changes and no
// edge that changed since offers an earlier hit: the other edges' lines,
// ends and speeds are what they were.
type cand struct {
	t       float64
	x, next int
	hit     bool
	set     bool
}

// markDirty sets (or clears) the marks of the edges changed since the last
// call of next: those starting at a vertex made since and at its
// predecessor.
func (s *sim) markDirty(on bool) {
	for len(s.mark) < len(s.verts) {
		s.mark = append(s.mark, false)
		s.cands = append(s.cands, cand{})
	}
	for _, k := range s.dirty {
		s.mark[k] = on
		s.mark[s.verts[k].prev] = on
	}
}

// splitCandidate is reflex vertex r's earliest split event (an absolute
// time), from its cache where that is still right.
func (s *sim) splitCandidate(r int) (float64, int, bool) {
	c := &s.cands[r]
	if !c.set || c.hit && (!s.verts[c.x].alive || s.verts[c.x].next != c.next || s.mark[c.x]) {
		*c = cand{t: math.Inf(1), set: true}
		for x := range s.verts {
			s.offer(c, r, x)
		}
		return c.t, c.x, c.hit
	}
	for _, k := range s.dirty {
		s.offer(c, r, k)
		s.offer(c, r, s.verts[k].prev)
	}
	return c.t, c.x, c.hit
}

// offer makes the edge starting at x r's candidate if r hits it earlier.
func (s *sim) offer(c *cand, r, x int) {
	if dt, hit := s.hits(r, x); hit && s.t+dt < c.t {
		*c = cand{t: s.t + dt, x: x, next: s.verts[x].next, hit: true, set: true}
	}
}

// hits is when reflex vertex r reaches the edge starting at vertex x within
// its end points, if it does.
func (s *sim) hits(r, x int) (float64, bool) {
	rv, xv := &s.verts[r], &s.verts[x]
	if !xv.alive || x == r || xv.next == r {
		return 0, false
	}
	yv := &s.verts[xv.next]
	e := &s.edges[xv.out]
	gap := e.n[0]*(rv.p[0]-xv.p[0]) + e.n[1]*(rv.p[1]-xv.p[1])
	rate := e.n[0]*rv.v[0] + e.n[1]*rv.v[1] - e.w
	if gap < -s.eps || rate >= 0 {
		return 0, false
	}
	dt := math.Max(gap, 0) / -rate
	p := [2]float64{rv.p[0] + rv.v[0]*dt, rv.p[1] + rv.v[1]*dt}
	a := [2]float64{xv.p[0] + xv.v[0]*dt, xv.p[1] + xv.v[1]*dt}
	b := [2]float64{yv.p[0] + yv.v[0]*dt, yv.p[1] + yv.v[1]*dt}
	l := e.d[0]*(b[0]-a[0]) + e.d[1]*(b[1]-a[1])
	u := e.d[0]*(p[0]-a[0]) + e.d[1]*(p[1]-a[1])
	if l <= 0 || u < -s.eps || u > l+s.eps {
		return 0, false
	}
	return dt, true
}

// rings is the wavefront's rings as they stand now.
func (s *sim) rings() [][][2]float64 {
	seen := make([]bool, len(s.verts))
	var out [][][2]float64
	for i, v := range s.verts {
		if !v.alive || seen[i] {
			continue
		}
		var ring [][2]float64
		for k := i; !seen[k]; k = s.verts[k].next {
			seen[k] = true
			ring = append(ring, s.verts[k].p)
		}
		out = append(out, ring)
	}
	return out
}

// stopAt closes the faces where the wavefront stands now: each live
// vertex's arc ends in a node here and each live edge adds its piece of the
// wavefront as an arc of its face alone.
func (s *sim) stopAt() {
	nodes := make([]int, len(s.verts))
	for i, v := range s.verts {
		if v.alive {
			nodes[i] = s.node(v.p)
		}
	}
	for i, v := range s.verts {
		if v.alive && nodes[i] != nodes[v.next] {
			s.arcs = append(s.arcs, Arc{From: nodes[i], To: nodes[v.next], Left: v.out, Right: -1})
		}
	}
	for i, v := range s.verts {
		if v.alive {
			s.end(i, nodes[i])
		}
	}
}
