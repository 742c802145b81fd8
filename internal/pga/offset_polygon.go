package pga

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"sync"
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
// can number them by arrival (their geometry is unchanged). The pairs sit
// in a sync.Map, whose reads take no lock: with a mutex, the host's cuts
// on 16 cores spent longer waiting for it than cutting (a compile of
// parts.pga on 2,500 lots ran faster on one core than on two).
type dynFootprints struct {
	pairs sync.Map // even profile number -> *footPair
	// rect: the faces' profiles of each kind of roof over a rectangle,
	// registered here once (rectFaceProfiles).
	rect [Pyramid + 1]struct {
		once  sync.Once
		profs []int32
		err   error
	}
}

// footPair is a registered footprint and its mirror image.
type footPair struct{ top, bottom *footprint }

func (d *dynFootprints) get(p int32) *footprint {
	v, ok := d.pairs.Load(p &^ 1)
	if !ok {
		return nil
	}
	pair := v.(*footPair)
	if p&1 == 0 {
		return pair.top
	}
	return pair.bottom
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
	for v, ok := d.pairs.Load(id); ok; v, ok = d.pairs.Load(id) {
		if sameRings(v.(*footPair).top.rings, rings) {
			return id, nil
		}
		id -= 2
	}
	top, err := newFootprint(rings)
	if err != nil {
		return 0, err
	}
	bottom, err := newFootprint(mirrorRings(rings))
	if err != nil {
		return 0, err
	}
	bottom.mirror = true
	pair := &footPair{top, bottom}
	for {
		v, loaded := d.pairs.LoadOrStore(id, pair)
		if !loaded || sameRings(v.(*footPair).top.rings, rings) { // another worker may have come first
			return id, nil
		}
		id -= 2
	}
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
// for d < 0 the outset (outsetCut).
func (ev *evaluator) offsetPolygon(r *Rule, op *Op, s Shape, fp *footprint, depth int) error {
	if s.Kind != Quad && s.Kind != Box {
		return fmt.Errorf("rule %q at %s: Offset needs a Quad or a prism", r.Name, op.Pos)
	}
	d := op.Args[0].Expr.Eval(ev.env(&s))
	vAxis, _ := groundAxes(&s)
	cut, err := offsetCut(fp, s.Size[AxisX], s.Size[vAxis], d)
	if err != nil {
		return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: Offset on the lot's polygon: %w", r.Name, op.Pos, err)}
	}
	return ev.emitCut(r, op, s, cut, depth, "Offset")
}

// emitCut hands the pieces of cut to their branches, or s itself when the
// cut leaves it whole.
func (ev *evaluator) emitCut(r *Rule, op *Op, s Shape, cut polygonCut, depth int, name string) error {
	if cut.whole {
		return ev.sub(r, op.Branches[cut.wholeBranch].Body, 0, child(s, cut.wholeChild, cut.n), depth)
	}
	vAxis, vSign := groundAxes(&s)
	for _, pc := range cut.pieces {
		c, ok, err := ev.polygonPiece(s, pc.rings, vAxis, vSign, pc.child, cut.n)
		if err != nil {
			return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: %s on the lot's polygon: %w", r.Name, op.Pos, name, err)}
		}
		if ok {
			if err := ev.sub(r, op.Branches[pc.branch].Body, 0, c, depth); err != nil {
				return err
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

// setbackPolygon is Setback(d) on a shape standing on footprint fp
// (setbackCut).
func (ev *evaluator) setbackPolygon(r *Rule, op *Op, s Shape, fp *footprint, depth int) error {
	if s.Kind != Quad && s.Kind != Box {
		return fmt.Errorf("rule %q at %s: Setback needs a Quad or a prism", r.Name, op.Pos)
	}
	d := op.Args[0].Expr.Eval(ev.env(&s))
	vAxis, _ := groundAxes(&s)
	cut, err := setbackCut(fp, s.Size[AxisX], s.Size[vAxis], d)
	if err != nil {
		return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: Setback on the lot's polygon: %w", r.Name, op.Pos, err)}
	}
	return ev.emitCut(r, op, s, cut, depth, "Setback")
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
