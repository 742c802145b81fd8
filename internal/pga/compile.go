package pga

import (
	"fmt"
	"math"
	"sort"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// program is a grammar compiled for the CUDA backend: one array of 32-bit
// words (a gpuHeader and the tables it points to, cuda/pga_types.cuh) and
// the names the device's ids stand for.
type program struct {
	words     []uint32
	hdr       gpuHeader
	rules     []string       // rule id -> name (source order)
	ruleID    map[string]int // name -> rule id
	terms     []Terminal     // terminal id -> declaration (sorted by name)
	undefined []string       // PGA_SUCC_UNDEFINED ids -> successor name
	// decoded tables, kept for tests and error messages
	code     []gpuInstr
	consts   []float64
	ops      []gpuOp
	branches []gpuBranch
	chains   []gpuChain
	ruleMain []int32 // rule id -> chain id of its body
}

// UnsupportedError says which construct of a grammar the CUDA backend cannot
// run, so the caller can fall back to the CPU backend.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return e.What + " is not supported by the CUDA backend" }

type compiler struct {
	g    *Grammar
	p    *program
	term map[string]int
	und  map[string]int
}

// compileGrammar flattens g into device tables.
func compileGrammar(g *Grammar) (*program, error) {
	p := &program{ruleID: map[string]int{}}
	c := &compiler{g: g, p: p, term: map[string]int{}, und: map[string]int{}}
	names := make([]string, 0, len(g.Terminals))
	for n := range g.Terminals {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		p.terms = append(p.terms, g.Terminals[n])
		c.term[n] = i
	}
	for i, n := range g.RuleOrder {
		p.rules = append(p.rules, n)
		p.ruleID[n] = i
	}
	// Rule bodies take chain ids 0..nrules-1, nested chains follow.
	p.chains = make([]gpuChain, len(p.rules))
	p.ruleMain = make([]int32, len(p.rules))
	for i := range p.rules {
		p.ruleMain[i] = int32(i)
	}
	for i, n := range p.rules {
		r := g.Rules[n]
		if r == nil || r.Body == nil {
			return nil, fmt.Errorf("pga: compile: rule %q has no body", n)
		}
		ch, err := c.chain(r, r.Body)
		if err != nil {
			return nil, fmt.Errorf("pga: compile: rule %q: %w", n, err)
		}
		p.chains[i] = ch
	}
	var hdr gpuHeader
	hdr.NRules, hdr.NChains, hdr.NOps = int32(len(p.rules)), int32(len(p.chains)), int32(len(p.ops))
	hdr.NBranches, hdr.NCode, hdr.NConsts = int32(len(p.branches)), int32(len(p.code)), int32(len(p.consts))
	hdr.NTerms = int32(len(p.terms))
	hdr.MaxStack = gpuMaxStack
	var body []uint32
	put := func(ws []uint32) int32 {
		off := int32(16 + len(body)) // the header is 16 words
		body = append(body, ws...)
		if len(body)%2 == 1 {
			body = append(body, 0) // keep every table 8-byte aligned
		}
		return off
	}
	hdr.OffCode = put(gpu.Words(p.code))
	hdr.OffConsts = put(gpu.Words(p.consts))
	hdr.OffOps = put(gpu.Words(p.ops))
	hdr.OffBranches = put(gpu.Words(p.branches))
	hdr.OffChains = put(gpu.Words(p.chains))
	hdr.OffRuleChain = put(gpu.Words(p.ruleMain))
	hdr.NWords = int32(16 + len(body))
	p.hdr = hdr
	p.words = append(gpu.Words(hdr), body...)
	return p, nil
}

// chain compiles ch and the chains nested in its blocks.
func (c *compiler) chain(r *Rule, ch *Chain) (gpuChain, error) {
	p := c.p
	out := gpuChain{Op0: int32(len(p.ops)), NOps: int32(len(ch.Ops))}
	// Reserve this chain's ops first so they are contiguous.
	p.ops = append(p.ops, make([]gpuOp, len(ch.Ops))...)
	for i, op := range ch.Ops {
		o, err := c.op(r, op)
		if err != nil {
			return out, err
		}
		p.ops[int(out.Op0)+i] = o
	}
	if ch.Succ != "" {
		if t, ok := c.term[ch.Succ]; ok {
			out.SuccKind, out.Succ = succTerminal, int32(t)
		} else if id, ok := p.ruleID[ch.Succ]; ok {
			out.SuccKind, out.Succ = succRule, int32(id)
		} else {
			// The CPU fails only when the successor is reached; so does the device.
			id, ok := c.und[ch.Succ]
			if !ok {
				id = len(p.undefined)
				p.undefined = append(p.undefined, ch.Succ)
				c.und[ch.Succ] = id
			}
			out.SuccKind, out.Succ = succUndefined, int32(id)
		}
	}
	return out, nil
}

func (c *compiler) op(r *Rule, op *Op) (gpuOp, error) {
	p := c.p
	o := gpuOp{Kind: int32(op.Kind), Expr: [3]int32{-1, -1, -1}}
	switch op.Kind {
	case OpTranslate, OpRotate, OpScale, OpExtrude, OpSubDiv, OpRepeat, OpCompSplit, OpReplicate,
		OpRandomRule, OpIf, OpIfSizeLess, OpIfCollides, OpCollider, OpSwapSize, OpSetAsPrism,
		OpDiscard, OpGenerate:
	default:
		return o, &UnsupportedError{What: "operator " + op.Kind.String()}
	}
	nexpr := 0
	for k, a := range op.Args {
		switch opSpecs[op.Kind].args[min(k, len(opSpecs[op.Kind].args)-1)] {
		case argExpr:
			if nexpr >= 3 {
				return o, &UnsupportedError{What: fmt.Sprintf("operator %s with %d expression arguments", op.Kind, nexpr+1)}
			}
			off, err := c.expr(a.Expr)
			if err != nil {
				return o, err
			}
			o.Expr[nexpr] = off
			nexpr++
		case argAxis:
			if k < 3 {
				o.Axis[k] = int32(a.Axis)
			}
		case argMode:
			o.Mode = int32(a.Mode)
		case argPoint:
			// SetAsDynamicConvexRightPrism's points only matter for its
			// geometry, which the CPU evaluator keeps as bounds too.
		}
	}
	if op.Kind == OpRepeat && len(op.Args) <= 2 {
		o.Mode = int32(AdjustToFill)
	}
	if len(op.Branches) > 0 {
		o.Branch0, o.NBranches = int32(len(p.branches)), int32(len(op.Branches))
		p.branches = append(p.branches, make([]gpuBranch, len(op.Branches))...)
		for k, b := range op.Branches {
			gb := gpuBranch{Weight: -1, Chain: int32(len(p.chains))}
			p.chains = append(p.chains, gpuChain{})
			ch, err := c.chain(r, b.Body)
			if err != nil {
				return o, err
			}
			p.chains[gb.Chain] = ch
			if b.Weight != nil {
				off, err := c.expr(b.Weight)
				if err != nil {
					return o, err
				}
				gb.Weight = off
			}
			p.branches[int(o.Branch0)+k] = gb
		}
	}
	return o, nil
}

// expr compiles x to a postfix program and returns its offset.
func (c *compiler) expr(x Expr) (int32, error) {
	start := int32(len(c.p.code))
	depth, err := c.emit(x)
	if err != nil {
		return 0, err
	}
	if depth > gpuMaxStack {
		return 0, &UnsupportedError{What: fmt.Sprintf("expression %s (stack depth %d, at most %d)", x, depth, gpuMaxStack)}
	}
	c.p.code = append(c.p.code, gpuInstr{Op: xEnd})
	return start, nil
}

var binaryOps = map[string]int32{"+": xAdd, "-": xSub, "*": xMul, "/": xDiv,
	"==": xEq, "!=": xNe, "<": xLt, ">": xGt, "<=": xLe, ">=": xGe}

var attrOps = map[string]int32{"ShapeSize": xSize, "ShapePosition": xPos, "ShapeRotation": xRot,
	"ShapeNormal": xNormal, "ShapeSeed": xSeed, "ShapeCustomAttribute": xAttr}

// emit appends x's instructions and returns the stack depth it needs.
func (c *compiler) emit(x Expr) (int, error) {
	p := c.p
	switch x := x.(type) {
	case Num:
		p.code = append(p.code, gpuInstr{Op: xNum, Arg: int32(len(p.consts))})
		p.consts = append(p.consts, float64(x))
		return 1, nil
	case Neg:
		d, err := c.emit(x.X)
		p.code = append(p.code, gpuInstr{Op: xNeg})
		return d, err
	case Binary:
		op, ok := binaryOps[x.Op]
		if !ok {
			return 0, &UnsupportedError{What: "expression operator " + x.Op}
		}
		dl, err := c.emit(x.L)
		if err != nil {
			return 0, err
		}
		dr, err := c.emit(x.R)
		if err != nil {
			return 0, err
		}
		p.code = append(p.code, gpuInstr{Op: op})
		return max(dl, dr+1), nil
	case Attr:
		op, ok := attrOps[x.Name]
		if !ok {
			return 0, &UnsupportedError{What: "expression " + x.Name + "()"}
		}
		p.code = append(p.code, gpuInstr{Op: op, Arg: int32(x.Axis)})
		return 1, nil
	}
	return 0, &UnsupportedError{What: fmt.Sprintf("expression %s", x)}
}

// evalCode runs a compiled expression on the CPU the way the device does; the
// encoding test checks it against Expr.Eval.
func (p *program) evalCode(off int32, env Env) float64 {
	var st [gpuMaxStack]float64
	sp := 0
	b01 := func(v bool) float64 { return bool01(v) }
	for pc := off; ; pc++ {
		in := p.code[pc]
		switch in.Op {
		case xEnd:
			return st[0]
		case xNum:
			st[sp] = p.consts[in.Arg]
			sp++
		case xNeg:
			st[sp-1] = -st[sp-1]
		case xSize, xPos, xRot, xNormal:
			a := Axis(in.Arg)
			switch in.Op {
			case xSize:
				st[sp] = env.ShapeSize(a)
			case xPos:
				st[sp] = env.ShapePosition(a)
			case xRot:
				st[sp] = env.ShapeRotation(a)
			default:
				st[sp] = env.ShapeNormal(a)
			}
			sp++
		case xSeed:
			st[sp] = env.ShapeSeed()
			sp++
		case xAttr:
			st[sp] = env.ShapeCustomAttribute()
			sp++
		default:
			l, r := st[sp-2], st[sp-1]
			sp--
			var v float64
			switch in.Op {
			case xAdd:
				v = l + r
			case xSub:
				v = l - r
			case xMul:
				v = l * r
			case xDiv:
				v = l / r
			case xEq:
				v = b01(math.Abs(l-r) <= cmpEps)
			case xNe:
				v = b01(math.Abs(l-r) > cmpEps)
			case xLt:
				v = b01(l < r)
			case xGt:
				v = b01(l > r)
			case xLe:
				v = b01(l <= r)
			case xGe:
				v = b01(l >= r)
			default:
				v = math.NaN()
			}
			st[sp-1] = v
		}
	}
}

// termName is the name a device terminal id stands for.
func (p *program) termInfo(id int32) (name string, geo, mat int) {
	if id >= 0 {
		t := p.terms[id]
		return t.Name, t.Geometry, t.Material
	}
	return p.rules[-1-id], -1, -1
}
