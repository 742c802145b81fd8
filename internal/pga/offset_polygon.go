package pga

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"sync"

	"github.com/procgen-dev/procgen/internal/pga/skeleton"
)

// Offset on a lot's own polygon (concave, or with holes) insets it as
// CGA's offset does, by the straight skeleton's wavefront: the inside is
// the polygon's mitred inset (in several pieces where a narrow neck
// closes, with holes where a courtyard's walls have not yet met), the
// border one strip per edge, between the edge and the inset. Every piece
// is a polygon of its own: a footprint registered while the grammar runs
// (dynFootprints), its shape framed by the piece's bounding rectangle in
// the parent's axes.

// dynFootprints holds the footprints Offset makes while a grammar runs,
// from any worker. A footprint's profile number is a hash of its rings
// (negative and even; its mirror image, the bottom cap's view, is the
// next number), so the same piece gets the same number whatever the order
// the workers reach it in; two pieces whose hashes meet probe on, which
// can number them by arrival (their geometry is unchanged).
type dynFootprints struct {
	mu  sync.RWMutex
	fps map[int32]*footprint
}

func (d *dynFootprints) get(p int32) *footprint {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.fps[p]
}

// add registers rings (unit square, outer counter-clockwise, holes
// clockwise) and returns the profile number.
func (d *dynFootprints) add(rings [][][2]float64) (int32, error) {
	h := fnv.New64a()
	var b [8]byte
	for _, r := range rings {
		binary.LittleEndian.PutUint64(b[:], uint64(len(r)))
		h.Write(b[:])
		for _, p := range r {
			for _, v := range p {
				binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
				h.Write(b[:])
			}
		}
	}
	id := -2 * int32(1+h.Sum64()%(1<<29))
	d.mu.RLock()
	for fp := d.fps[id]; fp != nil; fp = d.fps[id] {
		if sameRings(fp.rings, rings) {
			d.mu.RUnlock()
			return id, nil
		}
		id -= 2
	}
	d.mu.RUnlock()
	top, err := newFootprint(rings)
	if err != nil {
		return 0, err
	}
	bottom, err := newFootprint(mirrorRings(rings))
	if err != nil {
		return 0, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for fp := d.fps[id]; fp != nil; fp = d.fps[id] { // another worker may have come first
		if sameRings(fp.rings, rings) {
			return id, nil
		}
		id -= 2
	}
	d.fps[id], d.fps[id+1] = top, bottom
	return id, nil
}

func sameRings(a, b [][][2]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if len(a[k]) != len(b[k]) {
			return false
		}
		for i := range a[k] {
			if a[k][i] != b[k][i] {
				return false
			}
		}
	}
	return true
}

// mirrorRings is rings seen from below (v negated), still counter-clockwise.
func mirrorRings(rings [][][2]float64) [][][2]float64 {
	mirror := make([][][2]float64, len(rings))
	for k, ring := range rings {
		m := make([][2]float64, len(ring))
		for i, q := range ring {
			m[len(ring)-1-i] = [2]float64{q[0], -q[1]}
		}
		mirror[k] = m
	}
	return mirror
}

// groundAxes is where a footprint's (u, v) lie in s's frame: a Quad's X
// and Y, a prism's X and -Z.
func groundAxes(s *Shape) (Axis, float64) {
	if s.Kind == Quad {
		return AxisY, 1
	}
	return AxisZ, -1
}

// offsetPolygon is Offset(d) on a shape standing on footprint fp: the inset
// pieces to the first branch (children 0..k-1), the border strips to the
// second (child k+e for edge e, rings' edges numbered outer ring first);
// for d < 0 the outset (outsetPolygon).
func (ev *evaluator) offsetPolygon(r *Rule, op *Op, s Shape, fp *footprint, depth int) error {
	if s.Kind != Quad && s.Kind != Box {
		return fmt.Errorf("rule %q at %s: Offset needs a Quad or a prism", r.Name, op.Pos)
	}
	d := op.Args[0].Expr.Eval(ev.env(&s))
	if d < 0 && !math.IsInf(d, -1) {
		return ev.outsetPolygon(r, op, s, fp, -d, depth)
	}
	if !(d > 0) {
		return ev.sub(r, op.Branches[0].Body, 0, child(s, 0, 1), depth)
	}
	vAxis, vSign := groundAxes(&s)
	rings := scaledRings(fp, s.Size[AxisX], s.Size[vAxis])
	inner, strips, err := skeleton.Inset(rings[0], rings[1:], nil, d)
	if err != nil {
		return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: Offset on the lot's polygon: %w", r.Name, op.Pos, err)}
	}
	n := len(inner) + len(strips)
	return ev.emitPieces(r, op, s, vAxis, vSign, []pieceSet{
		{inner, 0, op.Branches[0].Body}, {edgePolys(strips, nil), len(inner), op.Branches[1].Body}}, n, depth, "Offset")
}

// pieceSet is polygons that go to one branch as children first, first+1...
type pieceSet struct {
	polys []skeleton.Polygon
	first int
	body  *Chain
}

// edgePolys is the strips of the edges keep allows (all for nil) as
// polygons, nil polygons where an edge has none (their child numbers stay
// the edge's).
func edgePolys(strips [][][2]float64, keep func(e int) bool) []skeleton.Polygon {
	out := make([]skeleton.Polygon, len(strips))
	for e, st := range strips {
		if st != nil && (keep == nil || keep(e)) {
			out[e] = skeleton.Polygon{Outer: st}
		}
	}
	return out
}

// emitPieces hands each set's polygons to its branch.
func (ev *evaluator) emitPieces(r *Rule, op *Op, s Shape, vAxis Axis, vSign float64, sets []pieceSet, n, depth int, name string) error {
	for _, set := range sets {
		for i, p := range set.polys {
			if p.Outer == nil {
				continue
			}
			c, ok, err := ev.polygonPiece(s, append([][][2]float64{p.Outer}, p.Holes...), vAxis, vSign, set.first+i, n)
			if err != nil {
				return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: %s on the lot's polygon: %w", r.Name, op.Pos, name, err)}
			}
			if ok {
				if err := ev.sub(r, set.body, 0, c, depth); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// scaledRings is fp's rings in metres for a footprint sx by sy.
func scaledRings(fp *footprint, sx, sy float64) [][][2]float64 {
	rings := make([][][2]float64, len(fp.rings))
	for k, ring := range fp.rings {
		q := make([][2]float64, len(ring))
		for i, p := range ring {
			q[i] = [2]float64{p[0] * sx, p[1] * sy}
		}
		rings[k] = q
	}
	return rings
}

// stillEdge is the speed of the edges a setback does not move: slow enough
// that their strips (its width times d) are far below float32's resolution
// of the output.
const stillEdge = 1e-9

// setbackPolygon is Setback(d) on a shape standing on footprint fp, as
// CGA's setback on its street side: the outer ring's edges facing the
// front (outward normals within 45° of the footprint's -v, else the one
// facing it most) move in by d while the others stay, by the weighted
// straight skeleton. Their strips go to the first branch (child e for
// edge e), the rest of the polygon, in one piece or more, to the second
// (children from the number of edges on).
func (ev *evaluator) setbackPolygon(r *Rule, op *Op, s Shape, fp *footprint, depth int) error {
	if s.Kind != Quad && s.Kind != Box {
		return fmt.Errorf("rule %q at %s: Setback needs a Quad or a prism", r.Name, op.Pos)
	}
	d := op.Args[0].Expr.Eval(ev.env(&s))
	if !(d > 0) {
		return ev.sub(r, op.Branches[1].Body, 0, child(s, 1, 2), depth)
	}
	vAxis, vSign := groundAxes(&s)
	rings := scaledRings(fp, s.Size[AxisX], s.Size[vAxis])
	outer := rings[0]
	var weights []float64
	best, bestX := 0, math.Inf(-1)
	front := 0
	for _, ring := range rings {
		for i, p := range ring {
			q := ring[(i+1)%len(ring)]
			dx := (q[0] - p[0]) / math.Hypot(q[0]-p[0], q[1]-p[1])
			w := stillEdge
			if len(weights) < len(outer) {
				if dx > math.Sqrt(0.5) {
					w, front = 1, front+1
				}
				if dx > bestX {
					best, bestX = i, dx
				}
			}
			weights = append(weights, w)
		}
	}
	if front == 0 {
		weights[best] = 1
	}
	inner, strips, err := skeleton.Inset(outer, rings[1:], weights, d)
	if err != nil {
		return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: Setback on the lot's polygon: %w", r.Name, op.Pos, err)}
	}
	n := len(strips) + len(inner)
	return ev.emitPieces(r, op, s, vAxis, vSign, []pieceSet{
		{edgePolys(strips, func(e int) bool { return weights[e] == 1 }), 0, op.Branches[0].Body},
		{inner, len(strips), op.Branches[1].Body}}, n, depth, "Setback")
}

// polygonPiece is child i of n of s standing on the polygon rings (metres
// in s's ground plane): framed by the rings' bounding rectangle, with the
// rings registered as its footprint. Pieces of no extent are dropped.
func (ev *evaluator) polygonPiece(s Shape, rings [][][2]float64, vAxis Axis, vSign float64, i, n int) (Shape, bool, error) {
	prof, c, size, ok, err := ev.g.piece(rings)
	if !ok || err != nil {
		return Shape{}, false, err
	}
	ch := child(s, i, n)
	var t Vec3
	t[AxisX], t[vAxis] = c[0], vSign*c[1]
	ch.Transform = s.Transform.Mul(Translation(t))
	ch.Size[AxisX], ch.Size[vAxis] = size[0], size[1]
	ch.Profile = prof
	return ch, true, nil
}

// piece registers the polygon rings (metres in some plane) as a footprint
// framed by its bounding rectangle: its profile number, the rectangle's
// centre and size. ok is false for a polygon of no extent.
func (g *Grammar) piece(rings [][][2]float64) (prof int32, centre, size [2]float64, ok bool, err error) {
	lo, hi := ringBox(rings[0])
	w, h := hi[0]-lo[0], hi[1]-lo[1]
	if !(w > 0 && h > 0) {
		return 0, centre, size, false, nil
	}
	cx, cy := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	unit := make([][][2]float64, len(rings))
	for k, ring := range rings {
		q := make([][2]float64, len(ring))
		for j, p := range ring {
			q[j] = [2]float64{(p[0] - cx) / w, (p[1] - cy) / h}
		}
		unit[k] = q
	}
	if g.dyn == nil {
		return 0, centre, size, false, errors.New("no footprint store (LotAxioms makes it)")
	}
	prof, err = g.dyn.add(unit)
	if err != nil {
		return 0, centre, size, false, err
	}
	return prof, [2]float64{cx, cy}, [2]float64{w, h}, true, nil
}
