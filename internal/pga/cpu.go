package pga

import (
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
	Transform Mat4 // rigid: local (centre at origin) to world
	Size      Vec3
	Seed      uint64
	Attr      float64 // ShapeCustomAttribute(), inherited unchanged
}

// TerminalShape is one result: a terminal symbol placed in the world.
type TerminalShape struct {
	Name               string
	Geometry, Material int // from the terminal declaration; -1 for Generate()
	Shape
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
	return Shape{Kind: kind, Transform: Identity(), Size: size, Seed: seed,
		Attr: rng.Float64(rng.Key(seed, attrStream))}
}

// Options bound an evaluation.
type Options struct {
	Axiom     string // start rule; "" means the grammar's first axiom
	MaxShapes int    // shapes made (operator outputs, rule applications, terminals) over all axioms; 0 means 1<<24
	MaxDepth  int    // rule applications along one derivation; 0 means 1000
	Workers   int    // axioms expanded at once; 0 means GOMAXPROCS
	// Progress, when set, hears the number of axioms expanded so far; calls
	// are serialized.
	Progress func(done, total int64)
}

// ErrLimit is wrapped by errors from MaxShapes and MaxDepth.
var ErrLimit = errors.New("limit exceeded")

// Evaluate expands every axiom shape with the start rule and returns the
// terminals, axiom by axiom, each in depth-first branch order. The result
// does not depend on Workers: every random choice is keyed by the parent
// shape's seed and the child's index among its siblings.
func (g *Grammar) Evaluate(axioms []Shape, opt Options) ([]TerminalShape, error) {
	start := opt.Axiom
	if start == "" {
		if len(g.Axioms) == 0 {
			return nil, errors.New("pga: grammar has no axiom")
		}
		start = g.Axioms[0].Rule
	}
	rule, ok := g.Rules[start]
	if !ok {
		return nil, fmt.Errorf("pga: no rule %q", start)
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
	var count atomic.Int64
	out := make([][]TerminalShape, len(axioms))
	errs := make([]error, len(axioms))
	var next atomic.Int64
	var wg sync.WaitGroup
	var progressMu sync.Mutex
	var done int64
	for w := 0; w < min(opt.Workers, len(axioms)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(axioms) {
					return
				}
				ev := &evaluator{g: g, opt: &opt, count: &count}
				errs[i] = ev.apply(rule, axioms[i], 1)
				out[i] = ev.out
				if opt.Progress != nil {
					progressMu.Lock()
					done++
					opt.Progress(done, int64(len(axioms)))
					progressMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	var all []TerminalShape
	for i := range axioms {
		if errs[i] != nil {
			return nil, fmt.Errorf("pga: axiom %d: %w", i, errs[i])
		}
		all = append(all, out[i]...)
	}
	return all, nil
}

type evaluator struct {
	g     *Grammar
	opt   *Options
	count *atomic.Int64
	out   []TerminalShape
}

func (ev *evaluator) tick(rule string) error {
	if ev.count.Add(1) > int64(ev.opt.MaxShapes) {
		return fmt.Errorf("rule %q: more than %d shapes (MaxShapes): %w", rule, ev.opt.MaxShapes, ErrLimit)
	}
	return nil
}

func (ev *evaluator) apply(r *Rule, s Shape, depth int) error {
	if depth > ev.opt.MaxDepth {
		return fmt.Errorf("rule %q: derivation deeper than %d (MaxDepth): %w", r.Name, ev.opt.MaxDepth, ErrLimit)
	}
	if err := ev.tick(r.Name); err != nil {
		return err
	}
	return ev.chain(r, r.Body, 0, s, depth)
}

func (ev *evaluator) emit(r *Rule, name string, geo, mat int, s Shape) error {
	if err := ev.tick(r.Name); err != nil {
		return err
	}
	ev.out = append(ev.out, TerminalShape{Name: name, Geometry: geo, Material: mat, Shape: s})
	return nil
}

// child is the i-th output of an operator applied to s.
func child(s Shape, i int) Shape {
	s.Seed = rng.Key(s.Seed, uint64(i))
	return s
}

// sub counts a shape an operator made and runs the chain on it, so work
// that ends in Discard still counts against MaxShapes.
func (ev *evaluator) sub(r *Rule, c *Chain, from int, s Shape, depth int) error {
	if err := ev.tick(r.Name); err != nil {
		return err
	}
	return ev.chain(r, c, from, s, depth)
}

// chain runs c.Ops[from:] on s and hands the result to the successor.
func (ev *evaluator) chain(r *Rule, c *Chain, from int, s Shape, depth int) error {
	for i := from; i < len(c.Ops); i++ {
		op := c.Ops[i]
		env := shapeEnv{&s}
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
			h := ex(0)
			if s.Kind == Quad {
				s.Transform = s.Transform.Mul(Translation(Vec3{0, 0, h / 2}))
				s.Kind = Box
			}
			s.Size[2] = h
		case OpSwapSize:
			s.Size = Vec3{s.Size[op.Args[0].Axis], s.Size[op.Args[1].Axis], s.Size[op.Args[2].Axis]}
		case OpSetAsPrism:
			if s.Kind == Box {
				s.Kind = Prism
			}
		case OpCollider:
			// Collision tests need every shape of a generation step; the
			// CPU evaluator does not register colliders yet.
		case OpDiscard:
			return nil
		case OpGenerate:
			return ev.emit(r, r.Name, -1, -1, s)
		case OpRepeat:
			return ev.repeat(r, c, i, s, depth)
		case OpSubDiv:
			return ev.subdiv(r, op, s, depth)
		case OpCompSplit:
			return ev.compSplit(r, op, s, depth)
		case OpReplicate:
			for k, b := range op.Branches {
				if err := ev.sub(r, b.Body, 0, child(s, k), depth); err != nil {
					return err
				}
			}
			return nil
		case OpRandomRule:
			return ev.random(r, op, s, depth)
		case OpIf:
			return ev.branch(r, op, s, depth, !isTrue(ex(0)))
		case OpIfSizeLess:
			return ev.branch(r, op, s, depth, !(s.Size[op.Args[0].Axis] < ex(1)))
		case OpIfCollides:
			return ev.branch(r, op, s, depth, true) // nothing collides without colliders
		}
	}
	if t, ok := ev.g.Terminals[c.Succ]; ok {
		return ev.emit(r, t.Name, t.Geometry, t.Material, s)
	}
	next, ok := ev.g.Rules[c.Succ]
	if !ok {
		return fmt.Errorf("rule %q: undefined successor %q", r.Name, c.Succ)
	}
	return ev.apply(next, s, depth+1)
}

func isTrue(v float64) bool { return v != 0 && !math.IsNaN(v) }

// branch takes the first branch, or the second when second is set.
func (ev *evaluator) branch(r *Rule, op *Op, s Shape, depth int, second bool) error {
	k := 0
	if second {
		k = 1
	}
	return ev.sub(r, op.Branches[k].Body, 0, child(s, k), depth)
}
