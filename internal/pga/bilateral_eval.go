package pga

import (
	"errors"
	"fmt"
	"sync"
)

// ancStore keeps one lot's ancestor records: the shapes that entered a
// marked rule (an ancestor or a target rule of a bilateral query), each
// pointing at the record before it on its lineage. Shapes carry the index
// of their newest record (Shape.anc, 0 for none), so a query walks up its
// own lineage; records outlive phases, as shapes waiting for a later phase
// keep theirs. Subtrees of a lot run in parallel (split_lot.go), hence the
// lock; which index a record gets is never seen in a result.
type ancStore struct {
	mu   sync.Mutex
	recs []ancRec
}

// ancRec is a shape as it entered rule, at depth; s.anc is the record
// before it on the lineage.
type ancRec struct {
	s     Shape
	rule  *Rule
	depth int
}

func (a *ancStore) add(r *Rule, s Shape, depth int) int32 {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recs = append(a.recs, ancRec{s, r, depth})
	return int32(len(a.recs))
}

func (a *ancStore) get(i int32) ancRec {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.recs[i-1]
}

// dryRun is a bilateral query's derivation from the ancestor: it emits and
// registers nothing, follows only chains that lead to the link's target,
// and tests each target against the querying shape as it is made.
type dryRun struct {
	link    *Link
	q       QueryKind
	me      obb
	lineage []uint64 // seeds of the target applications the querying shape descends from
	level   int      // multi-output operators on the current path
}

// errFound ends a dry run at the first target that answers the query.
var errFound = errors.New("pga: bilateral query answered")

// related answers q for s against what the link's ancestor derives for its
// target. An error (a limit, an operator that fails) is kept in ev.err and
// ends the evaluation at the next shape made.
func (ev *evaluator) related(q QueryKind, link int, s *Shape) bool {
	if ev.anc == nil || ev.err != nil || link < 0 || link >= len(ev.g.Links) {
		return false
	}
	l := ev.g.Links[link]
	// One dry evaluator per evaluator, reused: a city asks many queries.
	dev := ev.dryEv
	if dev == nil {
		dev = &evaluator{g: ev.g, opt: ev.opt, count: ev.count, attrs: ev.attrs, view: ev.view, dry: &dryRun{}, projs: ev.projs}
		ev.dryEv = dev
	}
	d := dev.dry
	*d = dryRun{link: l, q: q, me: shapeOBB(s), lineage: d.lineage[:0]}
	dev.phase, dev.err = l.anc.Phase, nil
	var root ancRec
	found := false
	for i := s.anc; i != 0; {
		rec := ev.anc.get(i)
		if rec.rule == l.anc {
			root, found = rec, true
			break
		}
		if rec.rule == l.target {
			d.lineage = append(d.lineage, rec.s.Seed)
		}
		i = rec.s.anc
	}
	if !found {
		return false
	}
	err := dev.chain(l.anc, l.anc.Body, 0, root.s, root.depth)
	dev.flush()
	switch {
	case errors.Is(err, errFound):
		return true
	case err != nil:
		ev.err = fmt.Errorf("%s: %w", Bilateral{Kind: q, Anc: l.Anc, Target: l.Target}, err)
	}
	return false
}

// target is a target shape the dry run made: errFound when it answers the
// query (shapes on the querying shape's own lineage do not count).
func (d *dryRun) target(s *Shape) error {
	for _, seed := range d.lineage {
		if seed == s.Seed {
			return nil
		}
	}
	b := shapeOBB(s)
	if matches(d.q, &d.me, &b) {
		return errFound
	}
	return nil
}

// matches is the test of query q of shape a against the solid b.
func matches(q QueryKind, a, b *obb) bool {
	if q == QueryInside {
		return inside(a, b)
	}
	overlap, touch := contact(a, b)
	return (q == QueryOverlaps && overlap) || (q == QueryTouches && touch && !overlap)
}

// splits reports the operators with several outputs: each is one level of
// a dry run (one frame on the GPU).
func splits(k OpKind) bool {
	switch k {
	case OpRepeat, OpSubDiv, OpCompSplit, OpReplicate, OpSetback, OpOffset:
		return true
	}
	return false
}

// drySplit runs the multi-output operator c.Ops[i] one level deeper.
func (ev *evaluator) drySplit(r *Rule, c *Chain, i int, s Shape, depth int) error {
	ev.dry.level++
	defer func() { ev.dry.level-- }()
	return ev.splitOp(r, c, i, s, depth)
}

// splitOp runs the multi-output operator c.Ops[i] (Repeat, SubDiv,
// CompSplit, Offset, Setback, Replicate) on s.
func (ev *evaluator) splitOp(r *Rule, c *Chain, i int, s Shape, depth int) error {
	op := c.Ops[i]
	switch op.Kind {
	case OpRepeat:
		return ev.repeat(r, c, i, s, depth)
	case OpSubDiv:
		return ev.subdiv(r, op, s, depth)
	case OpCompSplit:
		return ev.compSplit(r, op, s, depth)
	case OpOffset:
		return ev.offset(r, op, s, depth)
	case OpSetback:
		return ev.setback(r, op, s, depth)
	}
	for k, b := range op.Branches { // Replicate
		if err := ev.sub(r, b.Body, 0, child(s, k, len(op.Branches)), depth); err != nil {
			return err
		}
	}
	return nil
}

// drySub decides, in a dry run, whether an output continues on chain c:
// only when c leads to the target; deeper than maxRelatedSplits is an
// error.
func (d *dryRun) drySub(r *Rule, c *Chain) (bool, error) {
	if d.level > maxRelatedSplits {
		return false, fmt.Errorf("rule %q: a target lies more than %d splitting operators below ancestor %q", r.Name, maxRelatedSplits, d.link.Anc)
	}
	return d.link.reach[c], nil
}

// dryApply decides, in a dry run, what a shape handed to rule r does: it is
// a target, or it goes on when r is of the ancestor's phase and leads to
// the target.
func (d *dryRun) dryApply(r *Rule, s *Shape, phase int) (goOn bool, err error) {
	if r == d.link.target {
		return false, d.target(s)
	}
	return r.Phase == phase && d.link.reach[r.Body], nil
}
