package pga

import (
	"context"
	"fmt"
	"math"
	"unsafe"

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
	terms     []Terminal     // Grammar.TermNames index -> declaration (Generate: the rule's)
	undefined []string       // PGA_SUCC_UNDEFINED ids -> successor name
	opPos     []Pos          // op id -> where it is in the source
	phase     int32          // the grammar's first phase
	rulePhase []int32        // rule id -> its phase
	needCtx   bool           // several phases, colliders or snap lines: the device keeps context
	// decoded tables, kept for tests and error messages
	code     []gpuInstr
	consts   []float64
	ops      []gpuOp
	branches []gpuBranch
	chains   []gpuChain
	ruleMain []int32 // rule id -> chain id of its body
	profiles []gpuProfile
	points   []float64
	poly     []int32 // footprints' ring lengths and cap triangles, their roofs' faces
	froof    []gpuFootRoof
	rpts     []float64 // the footprints' roofs' corners (x, y, height at unit slope)
	// fpStarts are the rules the footprint flow (footprintOpAt) started
	// from: only they may start an evaluation on a lot's own polygon.
	fpStarts map[string]bool
	// The footprints cut by Offset, Setback, SubDiv and Repeat
	// (compile_footcut.go): each such op's slot + 1 (its Mode), the cuts
	// made, each profile's together (gpuProfile.Cuts), their pieces, and
	// the pieces' footprints, which are the device's profiles from
	// nlotprof on.
	cutSlot  map[*Op]int32
	fcut     []gpuFootCut
	cpiece   []gpuCutPiece
	cutFPs   []cutFootprint
	nlotprof int32
	roofed   map[int32]uint8 // with cuts, the device profiles (lots' and pieces' views) that may take a roof: 1 << each RoofKind

	// faceDev: the device profiles of roofs' faces and undersides, by the
	// grammar's profile (compile_footsplit.go).
	faceDev map[int32]int32
	// rectFaces: where in poly the faces of roofs over rectangles have
	// their device profiles (rectRoofFaces), -1 for none.
	rectFaces int32
}

// UnsupportedError says which construct of a grammar the CUDA backend cannot
// run, so the caller can fall back to the CPU backend.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return e.What + " is not supported by the CUDA backend" }

type compiler struct {
	g       *Grammar
	p       *program
	und     map[string]int
	chainID map[*Chain]int32 // for the bilateral queries' reach table
	// The bilateral queries (link * 4 + QueryKind) of the op being
	// compiled, and of each op by id once compiled.
	bil   *[]int32
	opBil map[int32][]int32
	work  *hostWork // the roofs and cuts of the lots' polygons
}

// hdrWords is the size of gpuHeader in words; the tables follow it.
const hdrWords = int32(unsafe.Sizeof(gpuHeader{}) / 4)

// compileGrammar flattens g into device tables.
func compileGrammar(g *Grammar) (*program, error) {
	return compileContext(context.Background(), g, nil)
}

// compileContext is compileGrammar with the work on the lots' polygons
// stopped by ctx and reported to progress (CompileCUDA).
func compileContext(ctx context.Context, g *Grammar, progress func(done, total int64)) (*program, error) {
	p := &program{ruleID: map[string]int{}, phase: 1, rectFaces: -1}
	c := &compiler{g: g, p: p, und: map[string]int{}, chainID: map[*Chain]int32{}, opBil: map[int32][]int32{},
		work: &hostWork{ctx: ctx, progress: progress}}
	if len(g.Phases) > 0 {
		p.phase = int32(g.Phases[0])
	}
	p.needCtx = len(g.Phases) > 1
	p.terms = make([]Terminal, len(g.TermNames))
	for i, n := range g.TermNames {
		p.terms[i] = Terminal{Name: n, ID: int32(i), Geometry: -1, Material: -1}
	}
	for _, t := range g.Terminals {
		if int(t.ID) < len(p.terms) {
			p.terms[t.ID] = t
		}
	}
	if err := c.profiles(); err != nil {
		return nil, err
	}
	at, rectSplits := roofSplitAt(g)
	if at != "" {
		return nil, &UnsupportedError{What: "CompSplit of a HIP roof over a rectangle, or of a roof of a roof or of a Box on a lot's polygon (at " + at +
			": its faces' polygons change with the roof's proportions, CPU only)"}
	}
	if rectSplits {
		if err := p.rectRoofFaces(g); err != nil {
			return nil, err
		}
	}
	for i, n := range g.RuleOrder {
		p.rules = append(p.rules, n)
		p.ruleID[n] = i
		p.rulePhase = append(p.rulePhase, int32(g.Rules[n].Phase))
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
		c.chainID[r.Body] = int32(i)
		ch, err := c.chain(r, r.Body)
		if err != nil {
			return nil, fmt.Errorf("pga: compile: rule %q: %w", n, err)
		}
		p.chains[i] = ch
	}
	links, reach, err := c.bilateralTables()
	if err != nil {
		return nil, err
	}
	var hdr gpuHeader
	hdr.NRules, hdr.NChains, hdr.NOps = int32(len(p.rules)), int32(len(p.chains)), int32(len(p.ops))
	hdr.NBranches, hdr.NCode, hdr.NConsts = int32(len(p.branches)), int32(len(p.code)), int32(len(p.consts))
	hdr.NTerms = int32(len(p.terms))
	hdr.MaxStack = gpuMaxStack
	hdr.NProfiles, hdr.NLotAttrs = int32(len(p.profiles)), int32(len(g.LotAttrs))
	hdr.NGroups = int32(len(g.Groups))
	hdr.NLinks = int32(len(links))
	// The tables of lots' polygons (profiles, points, rings, pieces) run
	// to millions of words: copied as they lie in memory into one array,
	// sized first, whose head the header takes at the end.
	big := [][]uint32{structWords(p.profiles), structWords(p.points), structWords(p.poly), structWords(p.froof),
		structWords(p.rpts), structWords(p.fcut), structWords(p.cpiece)}
	size := int(hdrWords) + 64
	for _, ws := range big {
		size += len(ws) + 1
	}
	words := make([]uint32, hdrWords, size+4*(len(p.code)+len(p.ops)*4+len(p.branches)+len(p.chains)))
	put := func(ws []uint32) int32 {
		off := int32(len(words))
		words = append(words, ws...)
		if len(words)%2 == 1 {
			words = append(words, 0) // keep every table 8-byte aligned
		}
		return off
	}
	hdr.OffCode = put(gpu.Words(p.code))
	hdr.OffConsts = put(gpu.Words(p.consts))
	hdr.OffOps = put(gpu.Words(p.ops))
	hdr.OffBranches = put(gpu.Words(p.branches))
	hdr.OffChains = put(gpu.Words(p.chains))
	hdr.OffRuleChain = put(gpu.Words(p.ruleMain))
	hdr.OffProfiles = put(big[0])
	hdr.OffPoints = put(big[1])
	hdr.OffPoly, hdr.NPoly = put(big[2]), int32(len(p.poly))
	hdr.OffFRoof = put(big[3])
	hdr.OffRPts = put(big[4])
	hdr.OffFCut, hdr.OffCutPiece = put(big[5]), put(big[6])
	hdr.RectFaces = p.rectFaces
	hdr.OffRulePhase = put(gpu.Words(p.rulePhase))
	hdr.OffLinks = put(gpu.Words(links))
	hdr.OffReach = put(reach)
	hdr.NWords = int32(len(words))
	p.hdr = hdr
	copy(words, gpu.Words(hdr))
	p.words = words
	return p, nil
}

// chain compiles ch and the chains nested in its blocks.
func (c *compiler) chain(r *Rule, ch *Chain) (gpuChain, error) {
	p := c.p
	out := gpuChain{Op0: int32(len(p.ops)), NOps: int32(len(ch.Ops))}
	// Reserve this chain's ops first so they are contiguous.
	p.ops = append(p.ops, make([]gpuOp, len(ch.Ops))...)
	for i, op := range ch.Ops {
		var bil []int32
		prev := c.bil
		c.bil = &bil
		o, err := c.op(r, op)
		c.bil = prev
		if err != nil {
			return out, err
		}
		p.ops[int(out.Op0)+i] = o
		if len(bil) > 0 {
			c.opBil[out.Op0+int32(i)] = bil
		}
	}
	switch {
	case ch.term != nil:
		// A successor terminal, or the rule's own for Generate().
		out.SuccKind, out.Succ = succTerminal, ch.term.ID
		if int(ch.term.ID) < len(p.terms) {
			p.terms[ch.term.ID] = *ch.term
		}
	case ch.next != nil:
		out.SuccKind, out.Succ = succRule, int32(p.ruleID[ch.next.Name])
	case ch.Succ != "":
		{
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
		OpRandomRule, OpIf, OpIfSizeLess, OpSwapSize, OpSetAsPrism, OpDiscard, OpGenerate,
		OpRoof, OpOffset, OpSetback, OpCollider, OpIfCollides, OpSnapLines,
		OpSetupProjection, OpProjectUV, OpMaterial:
	case OpInsert:
		// The kernels end the chain as for Generate(): the chain's terminal
		// is the asset's own kind (Grammar.assetTerminal), which the host
		// draws as the asset, so the device needs nothing new.
		o.Kind = int32(OpGenerate)
	default:
		return o, &UnsupportedError{What: "operator " + op.Kind.String()}
	}
	if op.Kind == OpCollider || op.Kind == OpSnapLines {
		p.needCtx = true
	}
	if op.Kind == OpOffset || op.Kind == OpSetback || op.Kind == OpSubDiv {
		o.Mode = p.cutSlot[op] // 0: no lot's polygon is cut by it
	}
	if op.Kind == OpRepeat {
		o.Axis[1] = p.cutSlot[op] // Mode is the RepeatMode
	}
	if op.Kind == OpSetAsPrism {
		o.Mode = int32(op.Profile)
		o.Axis[0] = int32(setAsKind(op)) // what it makes of a Sphere
	}
	p.opPos = append(p.opPos, op.Pos)
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
			// SetAsDynamicConvexRightPrism's points are the profile table's.
		case argRoof:
			o.Mode = int32(a.Roof)
		case argPlane:
			o.Axis[0], o.Axis[1] = int32(a.Plane[0]), int32(a.Plane[1])
		case argString:
			o.Mode = int32(op.Material) // Texture, Color: the material is the parser's
		case argName:
			switch op.Kind {
			case OpCollider, OpIfCollides:
				o.Axis[0] = int32(a.Group)
			case OpSnapLines:
				o.Axis[1] = int32(a.Group)
			default: // SubDiv and Repeat snapping: the group + 1, 0 for none
				o.Axis[2] = int32(a.Group) + 1
				if op.Kind == OpSubDiv && len(op.Branches) > gpuMaxSnapBranches {
					return o, &UnsupportedError{What: fmt.Sprintf("SubDiv snapping with %d branches (at most %d)", len(op.Branches), gpuMaxSnapBranches)}
				}
			}
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
			c.chainID[b.Body] = gb.Chain
			p.chains = append(p.chains, gpuChain{})
			mine := c.bil
			ch, err := c.chain(r, b.Body)
			c.bil = mine
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
	"==": xEq, "!=": xNe, "<": xLt, ">": xGt, "<=": xLe, ">=": xGe, "&&": xAnd, "||": xOr}

var attrOps = map[string]int32{"ShapeSize": xSize, "ShapePosition": xPos,
	"ShapeNormal": xNormal, "ShapeSeed": xSeed, "ShapeCustomAttribute": xAttr,
	"ShapeIndex": xIndex, "ShapeSiblings": xSiblings}

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
	case Query:
		p.code = append(p.code, gpuInstr{Op: xQuery, Arg: int32(x.Group)*4 + int32(x.Kind)})
		return 1, nil
	case Bilateral:
		// The device reads the answer from its slot among the op's
		// queries (pga_ask computed them before the op ran).
		q := int32(x.Link)*4 + int32(x.Kind)
		slot := len(*c.bil)
		if slot >= gpuMaxOpQueries {
			return 0, &UnsupportedError{What: fmt.Sprintf("an operator with more than %d bilateral queries", gpuMaxOpQueries)}
		}
		*c.bil = append(*c.bil, q)
		p.code = append(p.code, gpuInstr{Op: xBilateral, Arg: int32(slot)*128 + q})
		return 1, nil
	case LotAttrRef:
		p.code = append(p.code, gpuInstr{Op: xNum, Arg: int32(len(p.consts))}, gpuInstr{Op: xLotAttr, Arg: int32(x.Index)})
		p.consts = append(p.consts, x.Default)
		return 1, nil
	case Rand:
		return c.emit(x.expand())
	case Frame:
		p.code = append(p.code, gpuInstr{Op: xFrame, Arg: int32(x.Comp)*4 + int32(x.Axis)})
		return 1, nil
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
		case xSize, xPos, xNormal:
			a := Axis(in.Arg)
			switch in.Op {
			case xSize:
				st[sp] = env.ShapeSize(a)
			case xPos:
				st[sp] = env.ShapePosition(a)
			default:
				st[sp] = env.ShapeNormal(a)
			}
			sp++
		case xFrame:
			st[sp] = env.ShapeFrame(Axis(in.Arg%4), Axis(in.Arg/4))
			sp++
		case xSeed:
			st[sp] = env.ShapeSeed()
			sp++
		case xAttr:
			st[sp] = env.ShapeCustomAttribute()
			sp++
		case xIndex:
			st[sp] = env.ShapeIndex()
			sp++
		case xSiblings:
			st[sp] = env.ShapeSiblings()
			sp++
		case xLotAttr:
			st[sp-1] = env.LotAttr(int(in.Arg), st[sp-1])
		case xQuery:
			st[sp] = env.Query(QueryKind(in.Arg%4), int(in.Arg/4))
			sp++
		case xBilateral:
			st[sp] = env.Related(QueryKind(in.Arg%4), int(in.Arg%128/4))
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
			case xAnd:
				v = b01(isTrue(l) && isTrue(r))
			case xOr:
				v = b01(isTrue(l) || isTrue(r))
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
