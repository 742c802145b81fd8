package pga

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Shape is a scope: a centred local frame, a size along its axes and the
// seed its random choices derive from.
type Shape struct {
	Kind      ShapeKind
	Roof      RoofKind // a Box made by Roof: its solid is the roof, not the box
	UV        bool     // ProjectUV: drawn with texture coordinates (texture.go)
	Mat       int16    // Texture, Color: 1 + index into Grammar.Materials; 0: the kind's colour
	Profile   int32    // index into Grammar.Profiles; 0 = the plain rectangle
	Index     int32    // ShapeIndex(): position among its operator's outputs
	Siblings  int32    // ShapeSiblings(): how many outputs that operator made
	Lot       int32    // the axiom (lot) it descends from
	proj      int32    // SetupProjection: 1 + index in the lot's projTable, in a terminal Result.Projections'
	Transform Mat4     // rigid: local (centre at origin) to world
	Size      Vec3
	Seed      uint64
	Attr      float64 // ShapeCustomAttribute(), inherited unchanged
	anc       int32   // the newest ancestor record on its lineage (bilateral_eval.go); 0: none
}

// TerminalShape is one result: a terminal symbol placed in the world.
type TerminalShape struct {
	Term               int32 // kind: Grammar.TermNames[Term] (Grammar.TermName)
	Geometry, Material int32 // from the terminal declaration; -1 for Generate()
	Phase              int32 // the phase whose rule emitted it
	Shape                    // no pointers: a city's terminals cost the GC nothing
}

// Matrix is Transform with Size folded in: it maps the unit cube centred at
// the origin onto the shape.
func (t TerminalShape) Matrix() Mat4 { return t.Transform.Mul(Scaling(t.Size)) }

// attrStream keys the default custom attribute apart from child seeds.
const attrStream = 0xA77_A77

// NewAxiom is an axiom shape centred at the origin. Its custom attribute is
// drawn from seed, so RandomRule(ShapeCustomAttribute()) picks one style per
// axiom; callers may overwrite Attr.
func NewAxiom(kind ShapeKind, size Vec3, seed uint64) Shape {
	return Shape{Kind: kind, Transform: Identity(), Size: size, Seed: seed, Siblings: 1,
		Attr: rng.Float64(rng.Key(seed, attrStream))}
}

// ErrLimit is wrapped by errors from MaxShapes and MaxDepth.
var ErrLimit = errors.New("limit exceeded")

// Evaluate expands every axiom shape with the start rule and returns the
// terminals, axiom by axiom, phase by phase, each phase in depth-first
// branch order. Phases run one after another with a barrier between them:
// every axiom finishes phase p before any starts phase p+1, so queries and
// snapping see all shapes of earlier phases. Within a phase the axioms run on
// all workers. The result does not depend on Workers: every random choice is
// keyed by the parent shape's seed and the child's index among its siblings.
// The terminals' texture projections are left out: Result.Projections of
// CPU.Evaluate has them (Grammar.Mesh wants them for the UVs).
func (g *Grammar) Evaluate(axioms []Shape, opt Options) ([]TerminalShape, error) {
	ts, _, err := g.evaluateTerms(axioms, opt)
	return ts, err
}

// evaluateTerms is Evaluate with the projections the terminals refer to.
func (g *Grammar) evaluateTerms(axioms []Shape, opt Options) ([]TerminalShape, [][8]float32, error) {
	evs, err := g.evaluate(axioms, &opt, nil)
	if err != nil {
		return nil, nil, err
	}
	ts, projs := gather(evs, opt.Workers)
	return ts, projs, nil
}

// evaluate runs every phase on every axiom; with proto set the evaluators
// tally their terminals (in tallies like proto) instead of keeping them.
func (g *Grammar) evaluate(axioms []Shape, o *Options, proto *tally) ([]*evaluator, error) {
	opt := *o
	start, err := g.startRule(opt.Axiom)
	if err != nil {
		return nil, err
	}
	if opt.MaxShapes <= 0 {
		opt.MaxShapes = 1 << 24
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 1000
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	var shapes atomic.Int64
	evs := make([]*evaluator, len(axioms))
	prof := g.axiomProfile(start.Name)
	for i, a := range axioms {
		a.Lot = int32(i)
		if a.Profile == 0 {
			a.Profile = prof
		}
		ev := &evaluator{g: g, opt: &opt, count: &shapes, pending: map[int][]pendingShape{}}
		if proto != nil {
			ev.tally = proto.sibling(g)
		}
		ev.attrs = make([]float64, len(g.LotAttrs))
		for k, name := range g.LotAttrs {
			ev.attrs[k] = math.NaN()
			if i < len(opt.LotAttrs) {
				if v, ok := opt.LotAttrs[i][name]; ok {
					ev.attrs[k] = v
				}
			}
		}
		ev.pending[start.Phase] = []pendingShape{{start, a, 1}}
		if len(g.Links) > 0 {
			ev.anc = &ancStore{}
		}
		if g.projects {
			ev.projs = &projTable{}
		}
		ev.view = &ev.ctx
		// With fewer lots than twice the workers, lots alone cannot keep
		// every core busy: each lot's phases are split into subtrees.
		ev.split = opt.Workers > 1 && len(axioms) < 2*opt.Workers
		evs[i] = ev
	}
	var progressMu sync.Mutex
	var done int64
	total := int64(len(axioms) * len(g.Phases))
	for _, phase := range g.Phases {
		errs := make([]error, len(axioms))
		eachIndex(len(axioms), opt.Workers, func(i int) {
			errs[i] = evs[i].runPhase(phase)
			if opt.Progress != nil {
				progressMu.Lock()
				done++
				opt.Progress(done, total)
				progressMu.Unlock()
			}
		})
		for i, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("pga: axiom %d: %w", i, err)
			}
		}
	}
	*o = opt
	return evs, nil
}

// gather concatenates the evaluators' terminals in axiom order. The copy
// runs on all workers: most of its cost is faulting in the fresh pages of
// the result.
func gather(evs []*evaluator, workers int) ([]TerminalShape, [][8]float32) {
	at := make([]int, len(evs)+1)
	pat := make([]int32, len(evs)+1) // where each lot's projections start
	for i, ev := range evs {
		n := 0
		for _, c := range ev.out {
			n += len(c)
		}
		at[i+1] = at[i] + n
		pat[i+1] = pat[i]
		if ev.projs != nil {
			pat[i+1] += int32(len(ev.projs.p))
		}
	}
	all := make([]TerminalShape, at[len(evs)])
	var projs [][8]float32
	if pat[len(evs)] > 0 {
		projs = make([][8]float32, pat[len(evs)])
	}
	eachIndex(len(evs), workers, func(i int) {
		dst := all[at[i]:at[i]]
		for _, c := range evs[i].out {
			dst = append(dst, c...)
		}
		evs[i].out = nil
		if pat[i+1] > pat[i] {
			copy(projs[pat[i]:], evs[i].projs.p)
			for k := range dst {
				if dst[k].proj != 0 {
					dst[k].proj += pat[i]
				}
			}
		}
	})
	return all, projs
}

// eachIndex calls fn(i) for every i in [0, n) on up to workers goroutines
// that take the next index as they finish (lots and subtrees vary in size,
// so a fixed split would leave workers idle), and waits.
func eachIndex(n, workers int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

func (g *Grammar) startRule(name string) (*Rule, error) {
	if name == "" {
		if len(g.Axioms) == 0 {
			return nil, errors.New("pga: grammar has no axiom")
		}
		name = g.Axioms[0].Rule
	}
	rule, ok := g.Rules[name]
	if !ok {
		return nil, fmt.Errorf("pga: no rule %q", name)
	}
	return rule, nil
}

// axiomProfile is the profile an axiom declared for rule gives its shapes
// (a Triangle, a Prism5, a Dynamic polygon...); 0 for Box and Quad.
func (g *Grammar) axiomProfile(rule string) int32 {
	for _, a := range g.Axioms {
		if a.Rule == rule {
			return int32(a.Profile)
		}
	}
	return 0
}

// pendingShape waits for its rule's phase.
type pendingShape struct {
	rule  *Rule
	shape Shape
	depth int
}

// evaluator expands one axiom; it keeps what later phases of that axiom
// query: colliders and snap lines by group.
type evaluator struct {
	g       *Grammar
	opt     *Options
	count   *atomic.Int64
	out     [][]TerminalShape // in chunks of outChunk
	attrs   []float64         // LotAttr values by Grammar.LotAttrs index; NaN = absent
	phase   int
	pending map[int][]pendingShape
	ctx     lotContext  // what this evaluator registers (colliders, snap lines)
	view    *lotContext // what queries read: the lot's context, complete for finished phases
	split   bool        // spread each phase of this lot over Workers (few lots)
	record  *[]item     // while splitting: outputs are recorded instead of expanded
	tally   *tally      // when set, terminals are counted here instead of kept in out
	anc     *ancStore   // the lot's ancestor records, when the grammar has bilateral queries
	projs   *projTable  // the lot's projections, when the grammar has SetupProjection
	dry     *dryRun     // set while re-deriving for a bilateral query
	dryEv   *evaluator  // the evaluator this one re-derives with (bilateral_eval.go)
	err     error       // a bilateral query's failure, returned at the next shape made
	cur     Shape       // the shape expressions are evaluated on (env)
	curEnv  shapeEnv    // the Env over cur that env hands out
	local   int64       // shapes counted since the last flush to count
	flushed int64       // shapes of this evaluator already in count
}

func (ev *evaluator) runPhase(phase int) error {
	ev.phase = phase
	work := ev.pending[phase]
	delete(ev.pending, phase)
	if ev.split {
		if err := ev.runSplit(work); err != nil {
			return err
		}
	} else {
		for _, p := range work {
			if err := ev.apply(p.rule, p.shape, p.depth); err != nil {
				return err
			}
		}
	}
	ev.ctx.seal()
	return ev.err
}

// tick counts one shape against MaxShapes. Counts reach the shared counter
// in batches (an atomic add per shape made the cores fight over one cache
// line); a batch is small against any useful cap, and the lot's own count
// is exact.
func (ev *evaluator) tick(rule string) error {
	if ev.err != nil {
		return ev.err
	}
	ev.local++
	if ev.local < tickBatch && ev.local+ev.flushed <= int64(ev.opt.MaxShapes) {
		return nil
	}
	ev.flushed += ev.local
	n := ev.count.Add(ev.local)
	ev.local = 0
	if n > int64(ev.opt.MaxShapes) {
		return fmt.Errorf("rule %q: more than %d shapes (MaxShapes): %w", rule, ev.opt.MaxShapes, ErrLimit)
	}
	return ev.opt.Context.Err()
}

const tickBatch = 512

func (ev *evaluator) apply(r *Rule, s Shape, depth int) error {
	if ev.dry != nil {
		if on, err := ev.dry.dryApply(r, &s, ev.phase); !on || err != nil {
			return err
		}
	}
	if depth > ev.opt.MaxDepth {
		return fmt.Errorf("rule %q: derivation deeper than %d (MaxDepth): %w", r.Name, ev.opt.MaxDepth, ErrLimit)
	}
	if r.Phase > ev.phase {
		if ev.record != nil {
			*ev.record = append(*ev.record, item{pend: &pendingShape{r, s, depth}})
			return nil
		}
		ev.pending[r.Phase] = append(ev.pending[r.Phase], pendingShape{r, s, depth})
		return nil
	}
	if err := ev.tick(r.Name); err != nil {
		return err
	}
	if r.marked && ev.dry == nil {
		s.anc = ev.anc.add(r, s, depth)
	}
	return ev.chain(r, r.Body, 0, s, depth)
}

func (ev *evaluator) emit(r *Rule, t *Terminal, s Shape) error {
	if err := ev.tick(r.Name); err != nil {
		return err
	}
	if ev.dry != nil {
		if ev.dry.link.target == nil && t.Name == ev.dry.link.Target {
			return ev.dry.target(&s)
		}
		return nil
	}
	if err := finite(&s); err != nil {
		return fmt.Errorf("rule %q: terminal %s: %w", r.Name, t.Name, err)
	}
	s.anc = 0 // a terminal is a result: no trace of the evaluation
	if ev.record != nil {
		*ev.record = append(*ev.record, item{term: &TerminalShape{Term: t.ID, Geometry: int32(t.Geometry), Material: int32(t.Material), Phase: int32(r.Phase), Shape: s}})
		return nil
	}
	ev.appendTerm(TerminalShape{Term: t.ID, Geometry: int32(t.Geometry), Material: int32(t.Material), Phase: int32(r.Phase), Shape: s})
	return nil
}

// appendTerm adds a terminal to the evaluator's output.
func (ev *evaluator) appendTerm(ts TerminalShape) {
	if ev.tally != nil {
		ev.tally.add(ev.g, &ts)
		return
	}
	if n := len(ev.out); n == 0 || len(ev.out[n-1]) == cap(ev.out[n-1]) {
		// Fixed chunks: growing one slice copies every terminal again
		// and again, which dominated the evaluation.
		// Chunks grow from 16 terminals, so a small lot allocates little.
		size := outChunk
		if n < 7 {
			size = 16 << n
		}
		ev.out = append(ev.out, make([]TerminalShape, 0, size))
	}
	last := &ev.out[len(ev.out)-1]
	*last = append(*last, ts)
}

const outChunk = 1024

// child is the i-th of n outputs of an operator applied to s.
func child(s Shape, i, n int) Shape {
	s.Seed = rng.Key(s.Seed, uint64(i))
	s.Index, s.Siblings = int32(i), int32(n)
	return s
}

// sub counts a shape an operator made and runs the chain on it, so work
// that ends in Discard still counts against MaxShapes.
func (ev *evaluator) sub(r *Rule, c *Chain, from int, s Shape, depth int) error {
	if err := ev.tick(r.Name); err != nil {
		return err
	}
	if ev.dry != nil {
		if on, err := ev.dry.drySub(r, c); !on || err != nil {
			return err
		}
	}
	if ev.record != nil {
		*ev.record = append(*ev.record, item{task: &task{r, c, from, s, depth}})
		return nil
	}
	return ev.chain(r, c, from, s, depth)
}

// env is what expressions on s see. It reads a copy of s kept in the
// evaluator: handing &s itself to the Expr interface would move every shape
// to the heap. Expressions are evaluated before any recursion, so one copy
// per evaluator suffices. The Env is a pointer to a shapeEnv kept in the
// evaluator too: a shapeEnv value would be copied to the heap at every
// conversion to the interface (a quarter of a large city's CPU time).
func (ev *evaluator) env(s *Shape) Env {
	ev.cur = *s
	ev.curEnv = shapeEnv{&ev.cur, ev}
	return &ev.curEnv
}

// chain runs c.Ops[from:] on s and hands the result to the successor.
func (ev *evaluator) chain(r *Rule, c *Chain, from int, s Shape, depth int) error {
	for i := from; i < len(c.Ops); i++ {
		op := c.Ops[i]
		if s.Kind == Sphere && !sphereTakes(op.Kind) {
			return sphereError(r.Name, op.Pos.String(), op.Kind)
		}
		if ev.dry != nil && splits(op.Kind) {
			return ev.drySplit(r, c, i, s, depth)
		}
		env := ev.env(&s)
		ex := func(k int) float64 { return op.Args[k].Expr.Eval(env) }
		switch op.Kind {
		case OpTranslate:
			s.Transform = s.Transform.Mul(Translation(Vec3{ex(0), ex(1), ex(2)}))
		case OpRotate:
			s.Transform = s.Transform.Mul(Rotation(ex(0), ex(1), ex(2)))
		case OpScale:
			v := Vec3{ex(0), ex(1), ex(2)}
			for k := range v {
				if v[k] < 0 {
					s.Size[k] *= -v[k]
				} else {
					s.Size[k] = v[k]
				}
			}
		case OpExtrude:
			extrude(&s, ex(0))
		case OpSwapSize:
			s.Size = Vec3{s.Size[op.Args[0].Axis], s.Size[op.Args[1].Axis], s.Size[op.Args[2].Axis]}
		case OpSetAsPrism:
			s.Profile = int32(op.Profile)
			s.Roof = NoRoof
			if s.Kind == Sphere {
				s.Kind = setAsKind(op)
			}
		case OpRoof:
			if err := ev.g.roofOn(&s, op.Args[0].Roof, ex(1)); err != nil {
				return fmt.Errorf("rule %q at %s: %w", r.Name, op.Pos, err)
			}
		case OpSetupProjection:
			s.proj = ev.projs.add(projection(&s, op.Args[0].Plane, ex(1), ex(2)))
		case OpProjectUV:
			s.UV = true
		case OpMaterial:
			s.Mat = int16(op.Material)
		case OpCollider:
			if ev.dry == nil {
				ev.ctx.addCollider(op.Args[0].Group, &s)
			}
		case OpSnapLines:
			if ev.dry == nil {
				ev.ctx.addSnap(op.Args[1].Group, &s, op.Args[0].Axis)
			}
		case OpDiscard:
			return nil
		case OpGenerate, OpInsert:
			return ev.emit(r, c.term, s)
		case OpRepeat, OpSubDiv, OpCompSplit, OpOffset, OpSetback, OpReplicate:
			return ev.splitOp(r, c, i, s, depth)
		case OpRandomRule:
			return ev.random(r, op, s, depth)
		case OpIf:
			return ev.branch(r, op, s, depth, !isTrue(ex(0)))
		case OpIfSizeLess:
			return ev.branch(r, op, s, depth, !(s.Size[op.Args[0].Axis] < ex(1)))
		case OpIfCollides:
			return ev.branch(r, op, s, depth, !ev.view.query(QueryOverlaps, op.Args[0].Group, &s))
		}
	}
	if c.term != nil {
		return ev.emit(r, c.term, s)
	}
	return ev.apply(c.next, s, depth+1)
}

func isTrue(v float64) bool { return v != 0 && !math.IsNaN(v) }

// branch takes the first branch, or the second when second is set.
func (ev *evaluator) branch(r *Rule, op *Op, s Shape, depth int, second bool) error {
	k := 0
	if second {
		k = 1
	}
	return ev.sub(r, op.Branches[k].Body, 0, reseed(s, k), depth)
}

// reseed is s after a choice between branches took branch i: the same
// shape (ShapeIndex unchanged) with the seed of that branch.
func reseed(s Shape, i int) Shape {
	s.Seed = rng.Key(s.Seed, uint64(i))
	return s
}
