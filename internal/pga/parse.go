package pga

import (
	"fmt"
	"math"
)

// Parse reads a PGA-shape grammar. file names the source in error
// messages, which read "file:line:col: expected X, found Y".
func Parse(file string, src []byte) (*Grammar, error) {
	toks, err := lex(file, src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	g := &Grammar{File: file, Terminals: map[string]Terminal{}, Rules: map[string]*Rule{}}
	for p.tok().kind != tEOF {
		if err := p.statement(g); err != nil {
			return nil, err
		}
	}
	if err := check(g, p.succs); err != nil {
		return nil, err
	}
	return g, nil
}

type parser struct {
	toks  []token
	i     int
	depth int
	succs []token // every successor name, checked once all rules are known
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

var keywords = map[string]bool{"axiom": true, "terminal": true}

func (p *parser) statement(g *Grammar) error {
	t, err := p.ident("axiom, terminal or rule name")
	if err != nil {
		return err
	}
	switch t.text {
	case "axiom":
		k, err := p.ident("shape kind Box or Quad")
		if err != nil {
			return err
		}
		var kind ShapeKind
		switch k.text {
		case "Box":
			kind = Box
		case "Quad":
			kind = Quad
		default:
			return p.errAt(k, fmt.Sprintf("expected shape kind Box or Quad, found %s", k.describe()))
		}
		name, err := p.ident("axiom rule name")
		if err != nil {
			return err
		}
		g.Axioms = append(g.Axioms, Axiom{Kind: kind, Rule: name.text, Pos: name.pos})
		p.succs = append(p.succs, name)
		return p.expect(";")
	case "terminal":
		var names []token
		for p.tok().kind == tIdent {
			names = append(names, p.next())
		}
		if len(names) == 0 {
			return p.expected("terminal name")
		}
		if err := p.expect("("); err != nil {
			return err
		}
		geo, err := p.integer()
		if err != nil {
			return err
		}
		if err := p.expect(","); err != nil {
			return err
		}
		mat, err := p.integer()
		if err != nil {
			return err
		}
		if err := p.expect(")"); err != nil {
			return err
		}
		for _, n := range names {
			if keywords[n.text] {
				return p.errAt(n, fmt.Sprintf("%q is a keyword, not a terminal name", n.text))
			}
			if _, dup := g.Terminals[n.text]; dup {
				return p.errAt(n, fmt.Sprintf("terminal %q declared twice", n.text))
			}
			g.Terminals[n.text] = Terminal{Name: n.text, Geometry: geo, Material: mat, Pos: n.pos}
		}
		return p.expect(";")
	}
	if _, isOp := lookupOp(t.text); isOp {
		return p.errAt(t, fmt.Sprintf("expected rule name, found operator %s", t.text))
	}
	if err := p.expect("="); err != nil {
		return err
	}
	body, err := p.chain()
	if err != nil {
		return err
	}
	if _, dup := g.Rules[t.text]; dup {
		return p.errAt(t, fmt.Sprintf("rule %q defined twice", t.text))
	}
	g.Rules[t.text] = &Rule{Name: t.text, Body: body, Pos: t.pos}
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
		t, err := p.ident("operator or successor")
		if err != nil {
			return nil, err
		}
		kind, isOp := lookupOp(t.text)
		if !isOp {
			if p.isPunct("(") {
				return nil, p.errAt(t, fmt.Sprintf("unknown operator %q", t.text))
			}
			if keywords[t.text] {
				return nil, p.errAt(t, fmt.Sprintf("expected operator or successor, found keyword %q", t.text))
			}
			c.Succ, c.Pos = t.text, t.pos
			p.succs = append(p.succs, t)
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
	op := &Op{Kind: kind, Pos: name.pos}
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
	case spec.optional > 0:
		want = fmt.Sprintf("%d or %d", len(spec.args)-spec.optional, len(spec.args))
	}
	return fmt.Sprintf("%s takes %s arguments, found %d", spec.name, want, got)
}

func (p *parser) arg(k argKind) (Arg, error) {
	switch k {
	case argAxis:
		ax, err := p.axis()
		return Arg{Axis: ax}, err
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
func check(g *Grammar, succs []token) error {
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
	for _, t := range succs {
		_, isRule := g.Rules[t.text]
		_, isTerm := g.Terminals[t.text]
		if !isRule && !isTerm {
			return &SyntaxError{t.pos, fmt.Sprintf("successor %q is neither a rule nor a declared terminal", t.text)}
		}
	}
	return nil
}
