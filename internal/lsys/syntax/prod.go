package syntax

import (
	"strings"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// mod is one module as written: formal parameter names in a predecessor or
// context, argument expressions in a successor or the axiom.
type mod struct {
	sym byte
	off int
	// Nil without a parameter list: an axiom of a million F costs 24
	// bytes a module here, not 112.
	*modParams
}

// modParams are a module's parameters.
type modParams struct {
	names []string // pattern modules
	at    []int    // offsets of names or args
	args  []*node  // value modules
	spans [][2]int // source of each arg
}

func (m *mod) params() int {
	if m.modParams == nil {
		return 0
	}
	return len(m.names) + len(m.args)
}

type listMode uint8

const (
	// patterns: formal parameter names; the list ends at '<', '>', ':', an
	// arrow or anything else that cannot start a module (the caller reports).
	patterns listMode = iota
	// values: argument expressions; the list ends at ':' or the end of line.
	values
)

// modules reads modules at the cursor. Spaces between modules are allowed,
// and between a module and its parameter list.
func (p *parser) modules(c *cursor, mode listMode, sc *scope) ([]mod, error) {
	var ms []mod
	for {
		c.skip()
		b := c.peek()
		if c.atEnd() || b == ':' {
			return ms, nil
		}
		if mode == patterns {
			if _, ok := c.arrow(); ok || !isModule(b) {
				return ms, nil
			}
		} else if !isModule(b) {
			return nil, c.errorf(c.i, "expected a module, found %s", c.found())
		}
		m := mod{sym: b, off: c.i}
		c.i++
		if q, ok := querySym(c, b); ok {
			m.sym = q
			c.i++
		}
		save := c.i
		if c.skip(); c.peek() != '(' {
			c.i = save
		} else if err := p.params(c, &m, mode, sc); err != nil {
			return nil, err
		}
		if n := m.params(); n > 0 && (b == lsys.SymPush || b == lsys.SymPop || b == lsys.SymCut) {
			return nil, c.errorf(m.off, "%q takes no parameters, found %d", rune(b), n)
		} else if n > lsys.MaxParams {
			return nil, c.errorf(m.off, "too many parameters: %s has %d, expected at most %d", lsys.SymbolName(m.sym), n, lsys.MaxParams)
		}
		if err := checkQuery(c, &m); err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
}

// querySym reads the letter of a query module (lsys/query.go) after a '?'
// just read: "?P" is one module, a '?' before anything else is a module of
// its own, as it always was.
func querySym(c *cursor, b byte) (lsys.Symbol, bool) {
	if b != '?' {
		return 0, false
	}
	return lsys.QuerySymbol(c.peek())
}

// checkQuery requires a query module to have two or three parameters (x, y
// and, in 3D, z), as cpfg does.
func checkQuery(c *cursor, m *mod) error {
	if lsys.QueryLetter(m.sym) == 0 {
		return nil
	}
	if n := m.params(); n < 2 || n > 3 {
		return c.errorf(m.off, "query module %s has %s: expected 2 or 3, as in %s(x,y) or %s(x,y,z)",
			lsys.SymbolName(m.sym), plural(n, "parameter"), lsys.SymbolName(m.sym), lsys.SymbolName(m.sym))
	}
	return nil
}

// params reads a parenthesized parameter list after a module.
func (p *parser) params(c *cursor, m *mod, mode listMode, sc *scope) error {
	open := c.i
	c.i++
	if c.skip(); c.peek() == ')' {
		c.i++
		return nil
	}
	m.modParams = &modParams{}
	for {
		c.skip()
		start := c.i
		if mode == patterns {
			name := c.ident()
			if name == "" {
				return c.errorf(c.i, "expected a parameter name in %s(...), found %s", lsys.SymbolName(m.sym), c.found())
			}
			m.names = append(m.names, name)
		} else {
			n, err := parseExpr(c, sc, false)
			if err != nil {
				return err
			}
			m.args = append(m.args, n)
			m.spans = append(m.spans, [2]int{start, c.i})
		}
		m.at = append(m.at, start)
		if m.params() > lsys.MaxParams {
			return c.errorf(m.off, "too many parameters: %s has more than %d", lsys.SymbolName(m.sym), lsys.MaxParams)
		}
		c.skip()
		switch c.peek() {
		case ',':
			c.i++
			continue
		case ')':
			c.i++
			return nil
		}
		return c.errorf(c.i, "expected ',' or ')' to close the '(' at column %d, found %s",
			p.s.pos(open).Col, c.found())
	}
}

// checkArity enforces one parameter count per symbol in the whole system.
func (p *parser) checkArity(ms []mod) error {
	for i := range ms {
		m := &ms[i]
		n := m.params()
		switch prev := p.arity[m.sym]; {
		case prev < 0:
			p.arity[m.sym], p.arityAt[m.sym] = n, m.off
		case prev != n:
			return p.s.errorf(m.off, "wrong parameter count: %s has %s at %s but %d here",
				lsys.SymbolName(m.sym), plural(prev, "parameter"), posString(p.s.pos(p.arityAt[m.sym])), n)
		}
	}
	return nil
}

// checkBrackets requires every '[' to be closed by a ']' in the same list.
func (p *parser) checkBrackets(ms []mod) error {
	var open []int
	for _, m := range ms {
		switch m.sym {
		case lsys.SymPush:
			open = append(open, m.off)
		case lsys.SymPop:
			if len(open) == 0 {
				return p.s.errorf(m.off, "unbalanced brackets: expected a '[' before this ']'")
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return p.s.errorf(open[len(open)-1], "unbalanced brackets: expected a ']' to close this '['")
	}
	return nil
}

// checkSurfaces requires every '~' to be followed by the surface's name, a
// letter or digit module (cpfg's ~ takes the surface's identifier from the
// symbol after it, and its scale from that symbol's parameter), and
// records each name's first use.
func (p *parser) checkSurfaces(ms []mod) error {
	for i := range ms {
		m := &ms[i]
		if m.sym != '~' {
			continue
		}
		if m.params() > 0 {
			return p.s.errorf(m.off, "'~' takes no parameters: the scale goes on the surface, as in ~L(2)")
		}
		if i+1 == len(ms) {
			return p.s.errorf(m.off, "expected a surface name after '~' (~L or ~L(scale)), found the end of the list")
		}
		n := ms[i+1].sym
		if !(n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z' || n >= '0' && n <= '9') {
			return p.s.errorf(ms[i+1].off, "expected a surface name (a letter or digit) after '~', found %q", rune(n))
		}
		known := false
		for _, u := range p.sys.Surfaces {
			known = known || u.Sym == n
		}
		if !known {
			p.sys.Surfaces = append(p.sys.Surfaces, lsys.SurfaceRef{Sym: n, Pos: p.s.pos(m.off)})
		}
	}
	return nil
}

// compileArgs turns value modules into lsys.Modules.
func (p *parser) compileArgs(ms []mod, constant bool) ([]lsys.Module, error) {
	out := make([]lsys.Module, len(ms))
	c := &cursor{s: p.s}
	for i, m := range ms {
		out[i].Sym = m.sym
		if m.modParams == nil {
			continue
		}
		for k, a := range m.args {
			text := c.textOf(m.spans[k][0], m.spans[k][1])
			var e lsys.Expr
			var err error
			if constant {
				var v float64
				if v, err = p.s.evalConst(a, text, m.at[k]); err == nil {
					e = constExpr(v, text, p.s.pos(m.at[k]))
				}
			} else {
				e, err = p.s.compile(a, text, m.at[k])
			}
			if err != nil {
				return nil, err
			}
			out[i].Args = append(out[i].Args, e)
		}
	}
	return out, nil
}

func (p *parser) axiom(c *cursor) error {
	if err := p.once("axiom"); err != nil {
		return err
	}
	ms, err := p.modules(c, values, &scope{defines: p.sys.Defines, hint: "axiom arguments must be constants"})
	if err != nil {
		return err
	}
	if c.skip(); !c.atEnd() {
		return c.errorf(c.i, "expected a module, found %s", c.found())
	}
	if len(ms) == 0 {
		return c.errorf(c.i, "expected the axiom's modules after axiom:, found end of line")
	}
	if err := p.checkArity(ms); err != nil {
		return err
	}
	if err := p.checkBrackets(ms); err != nil {
		return err
	}
	if err := p.checkSurfaces(ms); err != nil {
		return err
	}
	p.sys.Axiom, err = p.compileArgs(ms, true)
	return err
}

// wildcard consumes a lone '*' (no context, no condition, empty successor)
// when what follows it ends the part it stands for.
func (p *parser) wildcard(c *cursor, endsAtColon bool) bool {
	if c.skip(); c.peek() != '*' {
		return false
	}
	d := *c
	d.i++
	d.skip()
	if _, ok := d.arrow(); ok || d.atEnd() || endsAtColon && d.peek() == ':' {
		*c = d
		return true
	}
	return false
}

// noContext drops a context written as a lone '*'.
func noContext(ms []mod) []mod {
	if len(ms) == 1 && ms[0].sym == '*' && ms[0].params() == 0 {
		return nil
	}
	return ms
}

// production reads "[label:] [lc <] pred [> rc] [: cond] arrow succ [: prob]".
func (p *parser) production(c *cursor) error {
	start := c.i
	p.skipLabel(c)
	list, err := p.modules(c, patterns, nil)
	if err != nil {
		return err
	}
	var left, preds, right []mod
	if c.skip(); c.peek() == '<' {
		if len(list) == 0 {
			return c.errorf(c.i, "expected a left context before '<', found nothing")
		}
		left = list
		c.i++
		if preds, err = p.modules(c, patterns, nil); err != nil {
			return err
		}
	} else {
		preds = list
	}
	if c.skip(); len(preds) == 0 {
		return c.errorf(c.i, "expected a predecessor module, found %s", c.found())
	} else if len(preds) > 1 {
		return c.errorf(preds[1].off, "expected an arrow after the predecessor %c, found %q (a left context needs '<')",
			preds[0].sym, rune(preds[1].sym))
	}
	pred := preds[0]
	if c.peek() == '>' {
		c.i++
		if right, err = p.modules(c, patterns, nil); err != nil {
			return err
		}
		if len(right) == 0 {
			return c.errorf(c.i, "expected a right context after '>', found %s", c.found())
		}
	}
	left, right = noContext(left), noContext(right)
	if err := p.checkLHS(left, pred, right); err != nil {
		return err
	}
	sc, err := p.bind(left, pred, right)
	if err != nil {
		return err
	}
	prod := lsys.Production{Pred: pred.sym, Prob: 1, Pos: p.s.pos(start),
		Text: strings.Join(strings.Fields(c.textOf(start, c.end)), " ")}
	for _, m := range left {
		prod.Left = append(prod.Left, m.sym)
	}
	for _, m := range right {
		prod.Right = append(prod.Right, m.sym)
	}
	if c.skip(); c.peek() == ':' {
		c.i++
		if err := p.condition(c, sc, &prod); err != nil {
			return err
		}
	}
	c.skip()
	a, ok := c.arrow()
	if !ok {
		return c.errorf(c.i, "expected an arrow (-> or -->), found %s", c.found())
	}
	if a.open >= 0 {
		if err := p.probability(&cursor{s: p.s, i: a.open + 1, end: a.close}, &prod); err != nil {
			return err
		}
	}
	c.i = a.end
	if err := p.successor(c, sc, &prod); err != nil {
		return err
	}
	switch p.section {
	case inHomomorphism:
		p.sys.Homo = append(p.sys.Homo, prod)
	case inDecomposition:
		p.sys.Decomp = append(p.sys.Decomp, prod)
	default:
		p.sys.Prods = append(p.sys.Prods, prod)
	}
	return nil
}

// skipLabel skips ABOP's production label "p1:" (letters then digits).
func (p *parser) skipLabel(c *cursor) {
	d := *c
	n := 0
	for isLetter(d.peek()) {
		d.i++
		n++
	}
	if n == 0 || !isDigit(d.peek()) {
		return
	}
	for isDigit(d.peek()) {
		d.i++
	}
	if d.skip(); d.peek() == ':' {
		c.i = d.i + 1
	}
}

func (p *parser) checkLHS(left []mod, pred mod, right []mod) error {
	switch pred.sym {
	case lsys.SymPush, lsys.SymPop:
		return p.s.errorf(pred.off, "expected a predecessor module, found %q (brackets are never rewritten)", rune(pred.sym))
	}
	for _, ms := range [][]mod{left, right} {
		if err := p.checkBrackets(ms); err != nil {
			return err
		}
	}
	for _, ms := range [][]mod{left, {pred}, right} {
		if err := p.checkArity(ms); err != nil {
			return err
		}
	}
	return nil
}

// bind numbers the formal parameters: left context first, then the strict
// predecessor, then the right context, each in source order.
func (p *parser) bind(left []mod, pred mod, right []mod) (*scope, error) {
	sc := &scope{params: map[string]int{}, defines: p.sys.Defines,
		hint: "not a parameter of this production or a #define"}
	at := map[string]int{}
	for _, ms := range [][]mod{left, {pred}, right} {
		for _, m := range ms {
			if m.modParams == nil {
				continue
			}
			for k, name := range m.names {
				off := m.at[k]
				if prev, ok := at[name]; ok {
					return nil, p.s.errorf(off, "duplicate parameter %s: also at %s", quote(name), posString(p.s.pos(prev)))
				}
				if prev, ok := p.defined[name]; ok {
					return nil, p.s.errorf(off, "parameter %s hides the #define at %s: expected another name",
						quote(name), posString(p.s.pos(prev)))
				}
				if len(at) == lsys.MaxSlots {
					return nil, p.s.errorf(off, "too many parameters in one production: expected at most %d", lsys.MaxSlots)
				}
				sc.params[name] = len(at)
				at[name] = off
			}
		}
	}
	return sc, nil
}

// condition reads ": cond" (": *" for none).
func (p *parser) condition(c *cursor, sc *scope, prod *lsys.Production) error {
	if p.wildcard(c, false) {
		return nil
	}
	c.skip()
	start := c.i
	n, err := parseExpr(c, sc, true)
	if err != nil {
		return err
	}
	e, err := p.s.compile(n, c.textOf(start, c.i), start)
	if err != nil {
		return err
	}
	prod.Cond = &e
	return nil
}

// probability reads a production's constant weight.
func (p *parser) probability(c *cursor, prod *lsys.Production) error {
	c.skip()
	off := c.i
	if prod.Stochastic {
		return c.errorf(off, "probability given twice: expected it either in the arrow or after the successor")
	}
	v, err := p.constExpr(c, "a probability must be a constant")
	if err != nil {
		return err
	}
	if err := c.expectEnd("the probability"); err != nil {
		return err
	}
	if v < 0 {
		return c.errorf(off, "expected a probability of at least 0, found %g", v)
	}
	prod.Prob, prod.Stochastic = v, true
	return nil
}

// successor reads "succ [: prob]"; a lone '*' or nothing is the empty string.
func (p *parser) successor(c *cursor, sc *scope, prod *lsys.Production) error {
	var ms []mod
	if !p.wildcard(c, true) {
		var err error
		if ms, err = p.modules(c, values, sc); err != nil {
			return err
		}
	}
	if c.skip(); c.peek() == ':' {
		c.i++
		if err := p.probability(c, prod); err != nil {
			return err
		}
	}
	if err := c.expectEnd("the successor"); err != nil {
		return err
	}
	if err := p.checkArity(ms); err != nil {
		return err
	}
	if err := p.checkBrackets(ms); err != nil {
		return err
	}
	if err := p.checkSurfaces(ms); err != nil {
		return err
	}
	succ, err := p.compileArgs(ms, false)
	prod.Succ = succ
	return err
}
