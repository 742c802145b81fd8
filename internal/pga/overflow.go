package pga

import (
	"fmt"
	"math"
	"sort"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// Overflow is a lot whose building reaches beyond its polygon.
type Overflow struct {
	Lot     int     // index into the lots
	Outside float64 // metres: how far the farthest corner lies outside the polygon
}

// Overflows lists, by lot, the lots whose terminals reach more than tol
// metres outside their polygon (seen from above: world x and -z are the
// lot's x and y, as LotAxiom places them). The distance outside is the
// largest signed distance of a corner to the lines of the lot's edges.
// Terminals are matched to lots by TerminalShape.Lot.
func (g *Grammar) Overflows(ts []TerminalShape, lots []Lot, tol float64) []Overflow {
	edges := lotEdges(lots)
	bounds := parallel.Chunks(len(ts), 4096)
	worst := make([]map[int]float64, len(bounds)-1)
	parallel.For(len(ts), 4096, func(c, lo, hi int) {
		m := map[int]float64{}
		for i := lo; i < hi; i++ {
			l := int(ts[i].Lot)
			if d := g.outside(&ts[i], edges, tol); d > tol && d > m[l] {
				m[l] = d
			}
		}
		worst[c] = m
	})
	all := map[int]float64{}
	for _, m := range worst {
		for l, d := range m {
			all[l] = max(all[l], d)
		}
	}
	return overflowList(all)
}

// overflowList is the lots of worst (lot -> metres outside) in lot order.
func overflowList(worst map[int]float64) []Overflow {
	out := make([]Overflow, 0, len(worst))
	for l, d := range worst {
		out = append(out, Overflow{l, d})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Lot < out[b].Lot })
	return out
}

// lotEdge is a point on a lot's edge and the edge's outward unit normal.
type lotEdge struct{ ox, oy, nx, ny float64 }

// lotEdges are the edges of every lot, with normals pointing out of the
// polygon whichever way it winds.
func lotEdges(lots []Lot) [][]lotEdge {
	edges := make([][]lotEdge, len(lots))
	parallel.For(len(lots), 1024, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			edges[i] = lotEdgesOf(lots[i])
		}
	})
	return edges
}

// lotEdgesOf is one lot's edges.
func lotEdgesOf(l Lot) []lotEdge {
	p := overflowRing(l)
	area := ringArea(p)
	edges := make([]lotEdge, 0, len(p))
	for k := range p {
		q := p[(k+1)%len(p)]
		dx, dy := q[0]-p[k][0], q[1]-p[k][1]
		n := math.Hypot(dx, dy)
		if n == 0 {
			continue
		}
		nx, ny := dy/n, -dx/n // right of the edge: outside of a counter-clockwise polygon
		if area < 0 {
			nx, ny = -nx, -ny
		}
		edges = append(edges, lotEdge{p[k][0], p[k][1], nx, ny})
	}
	return edges
}

// outside is how far (metres) the farthest corner of s lies outside the
// polygon of its lot; -Inf when the lot is unknown or has no edges. Where
// that cannot exceed tol, it may return any value up to tol instead: a box,
// quad or roof lies within its half-diagonal of its centre (the transform
// is rigid), so most terminals are settled without building their solid,
// which took 2/3 of a --stats-only tally.
func (g *Grammar) outside(s *TerminalShape, edges [][]lotEdge, tol float64) float64 {
	worst := math.Inf(-1)
	l := int(s.Lot)
	if l < 0 || l >= len(edges) || len(edges[l]) == 0 {
		return worst
	}
	if (s.Kind == Box || s.Kind == Quad) && s.Profile == 0 {
		c := s.Transform.Apply(Vec3{})
		x, y := c[0], -c[2]
		r := math.Sqrt(s.Size[0]*s.Size[0]+s.Size[1]*s.Size[1]+s.Size[2]*s.Size[2]) / 2
		bound := math.Inf(-1)
		for _, e := range edges[l] {
			bound = max(bound, (x-e.ox)*e.nx+(y-e.oy)*e.ny)
		}
		// A margin for rounding: the corners' distances are computed
		// through the transform, the bound through the centre.
		if bound += r; bound+1e-6*(1+math.Abs(bound)) <= tol {
			return bound
		}
	}
	for _, p := range g.solid(&s.Shape).corners {
		w := s.Transform.Apply(p)
		x, y := w[0], -w[2]
		d := math.Inf(-1)
		for _, e := range edges[l] {
			d = max(d, (x-e.ox)*e.nx+(y-e.oy)*e.ny)
		}
		worst = max(worst, d)
	}
	return worst
}

// OverflowWarning is one line naming up to five overflowing lots (the
// farthest first) and how many more there are; "" when there are none.
func OverflowWarning(ov []Overflow, lots []Lot) string {
	if len(ov) == 0 {
		return ""
	}
	s := append([]Overflow(nil), ov...)
	sort.SliceStable(s, func(a, b int) bool { return s[a].Outside > s[b].Outside })
	msg := fmt.Sprintf("%d of %d buildings reach outside their lot:", len(ov), len(lots))
	for k, o := range s[:min(5, len(s))] {
		if k > 0 {
			msg += ","
		}
		msg += fmt.Sprintf(" %s by %.1f m", lots[o.Lot].Name(), o.Outside)
	}
	if len(s) > 5 {
		msg += fmt.Sprintf(" and %d more", len(s)-5)
	}
	return msg
}
