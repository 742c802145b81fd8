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
	type edge struct{ ox, oy, nx, ny float64 } // a point on the edge and its outward unit normal
	edges := make([][]edge, len(lots))
	for i, l := range lots {
		p := l.Polygon
		area := 0.0
		for k := range p {
			q := p[(k+1)%len(p)]
			area += p[k][0]*q[1] - q[0]*p[k][1]
		}
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
			edges[i] = append(edges[i], edge{p[k][0], p[k][1], nx, ny})
		}
	}
	bounds := parallel.Chunks(len(ts), 4096)
	worst := make([]map[int]float64, len(bounds)-1)
	parallel.For(len(ts), 4096, func(c, lo, hi int) {
		m := map[int]float64{}
		for i := lo; i < hi; i++ {
			s := &ts[i]
			l := int(s.Lot)
			if l < 0 || l >= len(lots) || len(edges[l]) == 0 {
				continue
			}
			for _, p := range g.solid(&s.Shape).corners {
				w := s.Transform.Apply(p)
				x, y := w[0], -w[2]
				d := math.Inf(-1)
				for _, e := range edges[l] {
					d = max(d, (x-e.ox)*e.nx+(y-e.oy)*e.ny)
				}
				if d > tol && d > m[l] {
					m[l] = d
				}
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
	out := make([]Overflow, 0, len(all))
	for l, d := range all {
		out = append(out, Overflow{l, d})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Lot < out[b].Lot })
	return out
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
