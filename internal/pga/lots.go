package pga

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/parallel"
	"github.com/procgen-dev/procgen/internal/rng"
)

// A lot's footprint is in metres on the ground plane: GeoJSON x is world X
// and GeoJSON y is world -Z, so with Y up (CompSplit's top face is +Y) the
// map reads the right way round from above.

// Lot is a building footprint: a simple polygon (counter-clockwise or
// clockwise, open: the first vertex is not repeated), its holes (open
// rings strictly inside it, none inside another) and its attributes.
type Lot struct {
	Index   int    // position among the lots; keys the lot's seed
	ID      string // the GeoJSON feature id, or "" when it had none
	Polygon [][2]float64
	Holes   [][][2]float64
	Height  float64            // metres; 0 means the caller's default
	Attrs   map[string]float64 // other numeric properties, kept for reporting
	Attr    *float64           // "attr" property: ShapeCustomAttribute() of the axiom
}

// Name is how errors and reports refer to the lot.
func (l Lot) Name() string {
	if l.ID != "" {
		return fmt.Sprintf("lot %d (id %q)", l.Index, l.ID)
	}
	return fmt.Sprintf("lot %d", l.Index)
}

// Rect is an oriented rectangle on the ground: a centre, the side lengths
// along its own axes and the angle of its first axis, counter-clockwise from
// +x in radians.
type Rect struct {
	Centre [2]float64
	Size   [2]float64
	Angle  float64
}

// Bounds is the smallest-area rectangle holding the lot's polygon. For a
// convex polygon one of its sides lies along an edge, so trying every edge
// direction finds it.
func (l Lot) Bounds() Rect {
	best := Rect{Size: [2]float64{math.Inf(1), math.Inf(1)}}
	p := l.Polygon
	for i := range p {
		q := p[(i+1)%len(p)]
		dx, dy := q[0]-p[i][0], q[1]-p[i][1]
		n := math.Hypot(dx, dy)
		if n == 0 {
			continue
		}
		ux, uy := dx/n, dy/n
		lo := [2]float64{math.Inf(1), math.Inf(1)}
		hi := [2]float64{math.Inf(-1), math.Inf(-1)}
		for _, v := range p {
			a := v[0]*ux + v[1]*uy
			b := -v[0]*uy + v[1]*ux
			lo[0], hi[0] = math.Min(lo[0], a), math.Max(hi[0], a)
			lo[1], hi[1] = math.Min(lo[1], b), math.Max(hi[1], b)
		}
		w, h := hi[0]-lo[0], hi[1]-lo[1]
		if w*h < best.Size[0]*best.Size[1] {
			ca, cb := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
			best = Rect{
				Centre: [2]float64{ca*ux - cb*uy, ca*uy + cb*ux},
				Size:   [2]float64{w, h},
				Angle:  math.Atan2(uy, ux),
			}
		}
	}
	return best
}

// LotAxiom is the axiom shape for a lot: a scope on the lot's bounding
// rectangle seeded with rng.Key(seed, lot index). The rectangle's first axis
// follows the polygon's first edge (for rectangles), whose outside is the
// lot's front: local +Z of a Box, local -Y of a Quad. A Box stands on the ground
// with the lot's height (defaultHeight when it has none) along Y; a Quad lies
// on the ground with its local +Z pointing up, ready for Extrude.
func LotAxiom(kind ShapeKind, l Lot, seed uint64, defaultHeight float64) Shape {
	r := l.Bounds()
	h := l.Height
	if h <= 0 {
		h = defaultHeight
	}
	deg := r.Angle * 180 / math.Pi
	base := Translation(Vec3{r.Centre[0], 0, -r.Centre[1]}).Mul(RotationY(deg))
	var s Shape
	if kind == Quad {
		s = NewAxiom(Quad, Vec3{r.Size[0], r.Size[1], 0}, rng.Key(seed, uint64(l.Index)))
		s.Transform = base.Mul(RotationX(-90))
	} else {
		s = NewAxiom(kind, Vec3{r.Size[0], h, r.Size[1]}, rng.Key(seed, uint64(l.Index)))
		s.Transform = base.Mul(Translation(Vec3{0, h / 2, 0}))
	}
	if l.Attr != nil {
		s.Attr = *l.Attr
	}
	return s
}

// LotAxioms makes one axiom per lot, in order.
func LotAxioms(kind ShapeKind, lots []Lot, seed uint64, defaultHeight float64) []Shape {
	out := make([]Shape, len(lots))
	parallel.For(len(lots), 1024, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = LotAxiom(kind, lots[i], seed, defaultHeight)
		}
	})
	return out
}

// LotAttrValues is what LotAttr(name, default) reads for each lot: its
// numeric properties, with "height" in metres when the lot has one.
func LotAttrValues(lots []Lot) []map[string]float64 {
	out := make([]map[string]float64, len(lots))
	parallel.For(len(lots), 1024, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			l := &lots[i]
			m := make(map[string]float64, len(l.Attrs)+1)
			for k, v := range l.Attrs {
				m[k] = v
			}
			if l.Height > 0 {
				m["height"] = l.Height
			}
			out[i] = m
		}
	})
	return out
}

// Grid lays out Cols x Rows lots along streets: blocks of BlockLots lots
// side by side and two lots deep (back to back), with streets between the
// blocks. Every lot's footprint, setback and height vary with
// rng.Key(Seed, lot index), inside its cell, so lots never overlap.
type Grid struct {
	Cols, Rows int
	Seed       uint64
	LotWidth   float64 // cell width along the street, metres (0: 20)
	LotDepth   float64 // cell depth from the street, metres (0: 30)
	Street     float64 // street width, metres (0: 12)
	BlockLots  int     // lots along a block before a cross street (0: 5)
	MinHeight  float64 // heights are drawn from [MinHeight, MaxHeight) (0: 9, 60)
	MaxHeight  float64
}

// MaxGridLots bounds Cols*Rows so a typo cannot ask for billions of lots.
const MaxGridLots = 1 << 22

// Lots returns the grid's lots, row by row.
func (g Grid) Lots() ([]Lot, error) {
	if g.Cols < 1 || g.Rows < 1 || g.Cols*g.Rows > MaxGridLots || g.Cols > MaxGridLots || g.Rows > MaxGridLots {
		return nil, fmt.Errorf("pga: grid %dx%d: want 1 to %d lots", g.Cols, g.Rows, MaxGridLots)
	}
	def := func(v, d float64) float64 {
		if v > 0 {
			return v
		}
		return d
	}
	w, d, st := def(g.LotWidth, 20), def(g.LotDepth, 30), def(g.Street, 12)
	lo, hi := def(g.MinHeight, 9), def(g.MaxHeight, 60)
	block := g.BlockLots
	if block <= 0 {
		block = 5
	}
	lots := make([]Lot, g.Cols*g.Rows)
	// Rows on every core: a lot depends only on its row, column and seed.
	parallel.For(g.Rows, 8, func(_, rlo, rhi int) {
		for r := rlo; r < rhi; r++ {
			g.row(lots, r, w, d, st, lo, hi, block)
		}
	})
	return lots, nil
}

// row lays out row r of the grid into lots.
func (g Grid) row(lots []Lot, r int, w, d, st, lo, hi float64, block int) {
	// Rows pair up back to back; a street runs in front of each pair.
	y0 := float64(r/2)*(2*d+st) + float64(r%2)*d
	for c := 0; c < g.Cols; c++ {
		i := r*g.Cols + c
		x0 := float64(c)*w + float64(c/block)*st
		k := rng.Key(g.Seed, uint64(i))
		u := func(stream uint64) float64 { return rng.Float64(rng.Key(k, stream)) }
		lw := w * (0.7 + 0.25*u(1)) // side gaps
		setback := 2 + 4*u(2)       // from the street
		rear := 1 + 2*u(3)
		ld := d - setback - rear
		cx := x0 + w/2 + (w-lw)*(u(4)-0.5)
		// Even rows face the street below them, odd rows the one above.
		cy := y0 + setback + ld/2
		if r%2 == 1 {
			cy = y0 + d - setback - ld/2
		}
		// The first edge runs along the street side, so the lot's
		// frame (Bounds, LotAxiom) puts its front towards the street.
		poly := [][2]float64{{cx - lw/2, cy - ld/2}, {cx + lw/2, cy - ld/2}, {cx + lw/2, cy + ld/2}, {cx - lw/2, cy + ld/2}}
		if r%2 == 1 {
			poly = append(poly[2:], poly[:2]...)
		}
		lots[i] = Lot{Index: i, Polygon: poly, Height: lo + (hi-lo)*u(5),
			Attrs: map[string]float64{"setback": setback}}
	}
}
