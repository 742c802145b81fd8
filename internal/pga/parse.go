package pga

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Parse reads a PGA-shape grammar. file names the source in error
// messages, which read "file:line:col: expected X, found Y".
func Parse(file string, src []byte) (*Grammar, error) {
	toks, err := lex(file, src)
	if err != nil {
		return nil, err
	}
	g := &Grammar{File: file, Terminals: map[string]Terminal{}, Rules: map[string]*Rule{},
		Profiles: [][][2]float64{nil}, dyn: &dynFootprints{}}
	p := &parser{toks: toks, g: g, phase: 1, vars: map[string]float64{}}
	for p.tok().kind != tEOF {
		if err := p.statement(g); err != nil {
			return nil, err
		}
	}
	if !p.phased {
		if err := p.inferPhases(); err != nil {
			return nil, err
		}
	}
	if err := check(g, p.succs); err != nil {
		return nil, err
	}
	if err := checkGroups(g, p.uses, p.defs); err != nil {
		return nil, err
	}
	if err := checkBilateral(g); err != nil {
		return nil, err
	}
	return g, nil
}

type parser struct {
	toks  []token
	i     int
	depth int
	g     *Grammar
	phase int                // of the rules being read
	succs []succRef          // every successor name, checked once all rules are known
	uses  []groupRef         // queries and snapping splits
	defs  []groupRef         // Collider and SnapLines
	rule  string             // being read
	vars  map[string]float64 // "var NAME = number;" constants
	// phased is set by a "phase N;" statement; without one, phases are
	// inferred for IfCollides as OperatorGraph does (parse_phases.go).
	phased bool
}

// succRef is a successor named in a rule of the given phase (0: an axiom).
type succRef struct {
	tok   token
	phase int
	rule  string
}

// groupRef is one mention of a collider or snap-line group.
type groupRef struct {
	group int
	phase int
	what  string // how the error names it, e.g. "Overlaps(mass)"
	pos   Pos
	snap  bool // a snap-line group, not a collider group
	op    *Op  // the operator that mentions it; nil in an expression
}

// intern returns the index of name in list, adding it when new.
func intern(list *[]string, name string) int {
	for i, n := range *list {
		if n == name {
			return i
		}
	}
	*list = append(*list, name)
	return len(*list) - 1
}

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) isPunct(s string) bool { t := p.tok(); return t.kind == tPunct && t.text == s }

func (p *parser) errAt(t token, msg string) error { return &SyntaxError{t.pos, msg} }

func (p *parser) expected(what string) error {
	return p.errAt(p.tok(), fmt.Sprintf("expected %s, found %s", what, p.tok().describe()))
}

func (p *parser) expect(punct string) error {
	if !p.isPunct(punct) {
		return p.expected(fmt.Sprintf("%q", punct))
	}
	p.next()
	return nil
}

func (p *parser) ident(what string) (token, error) {
	if p.tok().kind != tIdent {
		return token{}, p.expected(what)
	}
	return p.next(), nil
}

var keywords = map[string]bool{"axiom": true, "terminal": true, "phase": true, "var": true, "else": true}

// maxPhase bounds "phase N;" so a typo cannot ask for a billion barriers.
const maxPhase = 64

func (p *parser) statement(g *Grammar) error {
	t, err := p.ident("axiom, terminal, var, phase or rule name")
	if err != nil {
		return err
	}
	switch t.text {
	case "phase":
		n := p.tok()
		v, err := p.integer()
		if err != nil {
			return err
		}
		if v < 1 || v > maxPhase {
			return p.errAt(n, fmt.Sprintf("phase %d: want 1 to %d", v, maxPhase))
		}
		p.phase = v
		p.phased = true
		return p.expect(";")
	case "var":
		return p.variable()
	case "axiom":
		return p.axiom(g)
	case "terminal":
		var names []token
		for p.tok().kind == tIdent {
			names = append(names, p.next())
		}
		if len(names) == 0 {
			return p.expected("terminal name")
		}
		geo, mat, err := p.terminalParams()
		if err != nil {
			return err
		}
		for _, n := range names {
			if keywords[n.text] {
				return p.errAt(n, fmt.Sprintf("%q is a keyword, not a terminal name", n.text))
			}
			if _, dup := g.Terminals[n.text]; dup {
				return p.errAt(n, fmt.Sprintf("terminal %q declared twice", n.text))
			}
			g.Terminals[n.text] = Terminal{Name: n.text, ID: g.termID(n.text), Geometry: geo, Material: mat, Pos: n.pos}
		}
		return p.expect(";")
	}
	if _, isOp := lookupOp(t.text); isOp {
		return p.errAt(t, fmt.Sprintf("expected rule name, found operator %s", t.text))
	}
	if err := p.arrow(); err != nil {
		return err
	}
	p.rule = t.text
	body, err := p.ruleBody()
	if err != nil {
		return err
	}
	if _, dup := g.Rules[t.text]; dup {
		return p.errAt(t, fmt.Sprintf("rule %q defined twice", t.text))
	}
	g.Rules[t.text] = &Rule{Name: t.text, Body: body, Pos: t.pos, Phase: p.phase}
	if !slices.Contains(g.Phases, p.phase) {
		g.Phases = append(g.Phases, p.phase)
		slices.Sort(g.Phases)
	}
	g.RuleOrder = append(g.RuleOrder, t.text)
	return p.expect(";")
}

func (p *parser) integer() (int, error) {
	t := p.tok()
	if t.kind != tNumber || t.num != math.Trunc(t.num) || t.num > 1<<30 {
		return 0, p.expected("integer")
	}
	p.next()
	return int(t.num), nil
}

// chain := { op } ( successor | blockop | Discard() | Generate() )
func (p *parser) chain() (*Chain, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxExprDepth {
		return nil, p.errAt(p.tok(), "blocks nested too deeply")
	}
	c := &Chain{}
	for {
		if err := p.innerProbability(); err != nil {
			return nil, err
		}
		t, err := p.ident("operator or successor")
		if err != nil {
			return nil, err
		}
		kind, isOp := lookupOp(t.text)
		// An operator name without "(" is a successor: grammars declare
		// terminals such as Roof.
		if isOp && !p.isPunct("(") {
			isOp = false
		}
		if !isOp {
			if p.isPunct("(") {
				return nil, p.errAt(t, fmt.Sprintf("unknown operator %q", t.text))
			}
			if keywords[t.text] {
				return nil, p.errAt(t, fmt.Sprintf("expected operator or successor, found keyword %q", t.text))
			}
			c.Succ, c.Pos = t.text, t.pos
			p.succs = append(p.succs, succRef{tok: t, phase: p.phase, rule: p.rule})
			return c, nil
		}
		op, err := p.op(kind, t)
		if err != nil {
			return nil, err
		}
		c.Ops = append(c.Ops, op)
		if spec := opSpecs[kind]; spec.block || spec.ends {
			return c, nil
		}
	}
}

func (p *parser) op(kind OpKind, name token) (*Op, error) {
	spec := opSpecs[kind]
	op := &Op{Kind: kind, Pos: name.pos, Name: name.text}
	op.Concave = strings.Contains(name.text, "Concave")
	if err := p.expect("("); err != nil {
		return nil, err
	}
	for !p.isPunct(")") {
		if len(op.Args) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		i := len(op.Args)
		if i >= len(spec.args) && !(spec.variadic && len(spec.args) > 0) {
			return nil, p.errAt(p.tok(), arityMsg(spec, i+1))
		}
		ak := spec.args[min(i, len(spec.args)-1)]
		a, err := p.arg(ak)
		if err != nil {
			return nil, err
		}
		op.Args = append(op.Args, a)
	}
	if n := len(op.Args); n < len(spec.args)-spec.optional {
		return nil, p.errAt(p.tok(), arityMsg(spec, n))
	}
	if err := p.opGroups(op); err != nil {
		return nil, err
	}
	p.next() // ")"
	if !spec.block {
		return op, nil
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	brace := p.toks[p.i-1]
	for {
		var b Branch
		if spec.weighted {
			w, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect(":"); err != nil {
				return nil, err
			}
			b.Weight = w
		}
		body, err := p.chain()
		if err != nil {
			return nil, err
		}
		b.Body = body
		op.Branches = append(op.Branches, b)
		if p.isPunct("|") {
			p.next()
			continue
		}
		if err := p.expect("}"); err != nil {
			return nil, err
		}
		break
	}
	if spec.branches > 0 && len(op.Branches) != spec.branches {
		return nil, p.errAt(brace, fmt.Sprintf("%s takes %d branches, found %d", spec.name, spec.branches, len(op.Branches)))
	}
	return op, nil
}

func arityMsg(spec opSpec, got int) string {
	want := fmt.Sprint(len(spec.args))
	switch {
	case spec.variadic:
		want = fmt.Sprintf("at least %d", len(spec.args))
	case spec.optional == 1:
		want = fmt.Sprintf("%d or %d", len(spec.args)-1, len(spec.args))
	case spec.optional > 1:
		want = fmt.Sprintf("%d to %d", len(spec.args)-spec.optional, len(spec.args))
	}
	return fmt.Sprintf("%s takes %s arguments, found %d", spec.name, want, got)
}

// opGroups records the groups an operator defines or queries, and turns
// prism points into a profile.
func (p *parser) opGroups(op *Op) error {
	name := func(i int) string { return p.g.Groups[op.Args[i].Group] }
	switch op.Kind {
	case OpCollider:
		p.defs = append(p.defs, groupRef{op.Args[0].Group, p.phase, "Collider(" + name(0) + ")", op.Pos, false, op})
	case OpSnapLines:
		p.defs = append(p.defs, groupRef{op.Args[1].Group, p.phase, "SnapLines(" + name(1) + ")", op.Pos, true, op})
	case OpIfCollides:
		p.uses = append(p.uses, groupRef{op.Args[0].Group, p.phase, "IfCollides(" + name(0) + ")", op.Args[0].Pos, false, op})
	case OpRepeat:
		if len(op.Args) == 4 {
			p.uses = append(p.uses, groupRef{op.Args[3].Group, p.phase, "Repeat snapping to " + name(3), op.Args[3].Pos, true, op})
		}
	case OpSubDiv:
		if len(op.Args) == 2 {
			p.uses = append(p.uses, groupRef{op.Args[1].Group, p.phase, "SubDiv snapping to " + name(1), op.Args[1].Pos, true, op})
		}
	case OpSetAsPrism:
		return p.profile(op)
	case OpMaterial:
		return p.material(op)
	case OpInsert:
		return p.asset(op)
	case OpSetupProjection:
		p.g.projects = true
	}
	return nil
}

// profile checks that a prism's points are numbers forming a convex polygon
// of positive area, and stores it counter-clockwise with its mirror image.
func (p *parser) profile(op *Op) error {
	pts := make([][2]float64, len(op.Args))
	for i, a := range op.Args {
		for k := 0; k < 2; k++ {
			n, ok := a.Point[k].(Num)
			if !ok {
				return &SyntaxError{a.Pos, "prism points must be numbers"}
			}
			pts[i][k] = float64(n)
		}
	}
	area := 0.0
	for i := range pts {
		q := pts[(i+1)%len(pts)]
		area += pts[i][0]*q[1] - q[0]*pts[i][1]
	}
	if area < 0 {
		slices.Reverse(pts)
	}
	if op.Concave {
		if !simple(pts) || !(math.Abs(area) > 1e-12) {
			return &SyntaxError{op.Pos, "polygon points must form a simple polygon of positive area (edges that do not cross), without repeated points"}
		}
	} else if !convex(pts) {
		return &SyntaxError{op.Pos, "prism points must form a convex polygon of positive area, without repeated points"}
	}
	mirror := make([][2]float64, len(pts))
	for i, q := range pts {
		mirror[len(pts)-1-i] = [2]float64{q[0], -q[1]}
	}
	op.Profile = len(p.g.Profiles)
	p.g.Profiles = append(p.g.Profiles, pts, mirror)
	return nil
}

// convex reports whether the counter-clockwise polygon pts turns left at
// every corner.
func convex(pts [][2]float64) bool {
	if len(pts) < 3 {
		return false
	}
	for i := range pts {
		a, b, c := pts[i], pts[(i+1)%len(pts)], pts[(i+2)%len(pts)]
		if (b[0]-a[0])*(c[1]-b[1])-(b[1]-a[1])*(c[0]-b[0]) <= 1e-12 {
			return false
		}
	}
	return true
}

func (p *parser) arg(k argKind) (Arg, error) {
	at := p.tok().pos
	a, err := p.arg1(k)
	a.Pos = at
	return a, err
}

func (p *parser) arg1(k argKind) (Arg, error) {
	switch k {
	case argName:
		// OperatorGraph tags colliders with numbers: Collider(1).
		if t := p.tok(); t.kind == tNumber {
			p.next()
			return Arg{Group: intern(&p.g.Groups, t.text)}, nil
		}
		t, err := p.ident("group name")
		if err != nil {
			return Arg{}, err
		}
		return Arg{Group: intern(&p.g.Groups, t.text)}, nil
	case argRoof:
		t := p.tok()
		for k, n := range roofNames {
			if k > 0 && t.kind == tIdent && t.text == n {
				p.next()
				return Arg{Roof: RoofKind(k)}, nil
			}
		}
		return Arg{}, p.expected("roof kind GABLE, HIP, SHED or PYRAMID")
	case argAxis:
		ax, err := p.axis()
		return Arg{Axis: ax}, err
	case argPlane:
		return p.plane()
	case argString:
		t := p.tok()
		if t.kind != tString {
			return Arg{}, p.expected("a \"quoted\" string")
		}
		p.next()
		return Arg{Str: t.text}, nil
	case argMode:
		t := p.tok()
		modes := map[string]RepeatMode{"ADJUST_TO_FILL": AdjustToFill, "ANCHOR_TO_START": AnchorToStart, "ANCHOR_TO_END": AnchorToEnd}
		if m, ok := modes[t.text]; ok && t.kind == tIdent {
			p.next()
			return Arg{Mode: m}, nil
		}
		return Arg{}, p.expected("repeat mode ANCHOR_TO_START, ANCHOR_TO_END or ADJUST_TO_FILL")
	case argPoint:
		if err := p.expect("("); err != nil {
			return Arg{}, err
		}
		x, err := p.expr()
		if err != nil {
			return Arg{}, err
		}
		if err := p.expect(","); err != nil {
			return Arg{}, err
		}
		y, err := p.expr()
		if err != nil {
			return Arg{}, err
		}
		return Arg{Point: [2]Expr{x, y}}, p.expect(")")
	}
	x, err := p.expr()
	return Arg{Expr: x}, err
}

// check resolves successors once every rule is known: a successor must be a
// rule or a declared terminal, and an axiom must name a rule.
func check(g *Grammar, succs []succRef) error {
	if len(g.Axioms) == 0 {
		return &SyntaxError{Pos{File: g.File, Line: 1, Col: 1}, "expected an axiom declaration, found none"}
	}
	for name, r := range g.Rules {
		if _, ok := g.Terminals[name]; ok {
			return &SyntaxError{r.Pos, fmt.Sprintf("%q is both a rule and a terminal", name)}
		}
	}
	for _, a := range g.Axioms {
		if _, ok := g.Rules[a.Rule]; !ok {
			return &SyntaxError{a.Pos, fmt.Sprintf("axiom names undefined rule %q", a.Rule)}
		}
	}
	for _, s := range succs {
		t := s.tok
		r, isRule := g.Rules[t.text]
		_, isTerm := g.Terminals[t.text]
		if !isRule && !isTerm {
			return &SyntaxError{t.pos, fmt.Sprintf("successor %q is neither a rule nor a declared terminal", t.text)}
		}
		if isRule && r.Phase < s.phase {
			return &SyntaxError{t.pos, fmt.Sprintf("successor %q is in phase %d, before phase %d of rule %q: a rule makes shapes for its own or a later phase",
				t.text, r.Phase, s.phase, s.rule)}
		}
	}
	return resolve(g)
}

// resolve points every chain at its successor rule or terminal; a chain
// ending in Generate() gets a terminal named after its rule.
func resolve(g *Grammar) error {
	var walk func(r *Rule, c *Chain)
	walk = func(r *Rule, c *Chain) {
		if c.Succ != "" {
			if t, ok := g.Terminals[c.Succ]; ok {
				c.term = &t
			} else {
				c.next = g.Rules[c.Succ]
			}
		}
		for _, op := range c.Ops {
			if op.Kind == OpGenerate {
				name := r.Name
				if r.origin != "" {
					name = r.origin
				}
				c.term = &Terminal{Name: name, ID: g.termID(name), Geometry: -1, Material: -1}
			}
			if op.Kind == OpInsert {
				c.term = g.assetTerminal(r, op)
			}
			for _, b := range op.Branches {
				walk(r, b.Body)
			}
		}
	}
	for _, name := range g.RuleOrder {
		walk(g.Rules[name], g.Rules[name].Body)
	}
	return nil
}

// checkGroups makes sure every query and snapping split reads a group that
// is only ever filled in earlier phases: a query sees the shapes of phases
// that have finished, never of its own or a later one.
func checkGroups(g *Grammar, uses, defs []groupRef) error {
	for _, u := range uses {
		found := false
		for _, d := range defs {
			if d.group != u.group || d.snap != u.snap {
				continue
			}
			found = true
			if d.phase >= u.phase {
				return &SyntaxError{u.pos, fmt.Sprintf("%s in phase %d reads %s of phase %d (%s), which has not run yet: a query sees only phases that have finished",
					u.what, u.phase, d.what, d.phase, d.pos)}
			}
		}
		if !found {
			kind := "Collider"
			if u.snap {
				kind = "SnapLines"
			}
			return &SyntaxError{u.pos, fmt.Sprintf("%s: no %s fills group %q", u.what, kind, g.Groups[u.group])}
		}
	}
	return nil
}
