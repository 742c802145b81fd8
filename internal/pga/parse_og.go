package pga

import (
	"fmt"
	"math"
)

// The statements OperatorGraph's parser (src/compiler/Parser.cpp) accepts
// beside the ones parse.go reads first: variables, every axiom shape kind,
// terminals with any number of attributes, its production arrows and
// stochastic rules with probability prefixes.

// variable reads "var NAME = number;" (after "var"): NAME stands for the
// number in the expressions that follow.
func (p *parser) variable() error {
	name, err := p.ident("variable name")
	if err != nil {
		return err
	}
	if keywords[name.text] {
		return p.errAt(name, fmt.Sprintf("%q is a keyword, not a variable name", name.text))
	}
	if err := p.expect("="); err != nil {
		return err
	}
	x, err := p.expr()
	if err != nil {
		return err
	}
	v, ok := x.(Num)
	if !ok {
		return p.errAt(name, "a variable's value must be a number")
	}
	p.vars[name.text] = float64(v)
	return p.expect(";")
}

// axiomKinds are OperatorGraph's shape types: planar ones become a Quad,
// solid ones a Box; the regular polygons and prisms get their profile
// (OperatorGraph's: point i at angle 90° + i·360°/n on a circle of
// diameter 1), the dynamic ones the points listed in braces.
var axiomKinds = map[string]struct {
	kind  ShapeKind
	sides int // 0: rectangle, -1: the listed points
}{
	"Box": {Box, 0}, "Quad": {Quad, 0},
	"Triangle": {Quad, 3}, "Pentagon": {Quad, 5}, "Hexagon": {Quad, 6}, "Heptagon": {Quad, 7}, "Octagon": {Quad, 8},
	"Prism3": {Box, 3}, "Prism5": {Box, 5}, "Prism6": {Box, 6}, "Prism7": {Box, 7}, "Prism8": {Box, 8},
	"DynamicConvexRightPrism": {Box, -1}, "DynamicRightPrism": {Box, -1},
	"DynamicConvexPolygon": {Quad, -1}, "DynamicPolygon": {Quad, -1},
	"Sphere": {Sphere, 0},
}

// axiom reads "axiom KIND [{ (x, y) ... }] Rule;" (after "axiom").
func (p *parser) axiom(g *Grammar) error {
	k, err := p.ident("shape kind (Box, Quad, Sphere, Triangle ... Octagon, Prism3 ... Prism8 or a Dynamic polygon or prism)")
	if err != nil {
		return err
	}
	spec, ok := axiomKinds[k.text]
	if !ok {
		return p.errAt(k, fmt.Sprintf("expected shape kind Box, Quad, Sphere, Triangle ... Octagon, Prism3 ... Prism8, DynamicConvexPolygon, DynamicPolygon, DynamicConvexRightPrism or DynamicRightPrism, found %s", k.describe()))
	}
	ax := Axiom{Kind: spec.kind}
	op := &Op{Kind: OpSetAsPrism, Pos: k.pos, Name: k.text, Concave: k.text == "DynamicRightPrism" || k.text == "DynamicPolygon"}
	switch {
	case spec.sides > 0:
		for i := 0; i < spec.sides; i++ {
			a := math.Pi/2 + 2*math.Pi*float64(i)/float64(spec.sides)
			op.Args = append(op.Args, Arg{Point: [2]Expr{Num(math.Cos(a) / 2), Num(math.Sin(a) / 2)}, Pos: k.pos})
		}
	case spec.sides < 0:
		if err := p.expect("{"); err != nil {
			return err
		}
		for !p.isPunct("}") {
			a, err := p.arg(argPoint)
			if err != nil {
				return err
			}
			op.Args = append(op.Args, a)
			if p.isPunct(",") {
				p.next()
			}
		}
		p.next()
		if len(op.Args) < 3 {
			return p.errAt(k, fmt.Sprintf("axiom %s needs at least 3 points in braces, found %d", k.text, len(op.Args)))
		}
	}
	if len(op.Args) > 0 {
		if err := p.profile(op); err != nil {
			return err
		}
		ax.Profile = op.Profile
	}
	name, err := p.ident("axiom rule name")
	if err != nil {
		return err
	}
	ax.Rule, ax.Pos = name.text, name.pos
	g.Axioms = append(g.Axioms, ax)
	p.succs = append(p.succs, succRef{tok: name})
	return p.expect(";")
}

// terminalParams reads "(a, b, ...)": one or more numbers, the first two
// the geometry and material ids (integers; material 0 when left out); the
// others are accepted and ignored.
func (p *parser) terminalParams() (geo, mat int, err error) {
	if err := p.expect("("); err != nil {
		return 0, 0, err
	}
	for n := 0; ; n++ {
		if n < 2 {
			v, err := p.integer()
			if err != nil {
				return 0, 0, err
			}
			if n == 0 {
				geo = v
			} else {
				mat = v
			}
		} else if _, err := p.expr(); err != nil {
			return 0, 0, err
		}
		if !p.isPunct(",") {
			break
		}
		p.next()
	}
	return geo, mat, p.expect(")")
}

// arrow reads a production symbol: "=", or OperatorGraph's "->", "-->",
// "=>", "==>" and ">>".
func (p *parser) arrow() error {
	for _, seq := range [][]string{{"="}, {"-", ">"}, {"-", "-", ">"}, {"=", ">"}, {"==", ">"}, {">", ">"}} {
		ok := true
		for k, s := range seq {
			t := p.toks[min(p.i+k, len(p.toks)-1)]
			if t.kind != tPunct || t.text != s {
				ok = false
				break
			}
		}
		// The longest form that fits: "=" must not be followed by ">".
		if ok && !(len(seq) == 1 && p.toks[min(p.i+1, len(p.toks)-1)].text == ">") {
			p.i += len(seq)
			return nil
		}
	}
	return p.expected(`"=" (or ->, -->, =>, ==>, >>)`)
}

// ruleBody reads a rule's successors: one chain, or several each with a
// probability prefix ("30% :" or "else :"), which make a stochastic rule: a
// RandomRule(ShapeSeed()) over the chains weighted by their percentages,
// "else" taking what the others leave of 100% (as OperatorGraph). The choice
// is keyed by the shape's seed and the chosen chain gets the seed of the
// parent and the chain's index.
func (p *parser) ruleBody() (*Chain, error) {
	at := p.tok()
	var branches []Branch
	var weights []float64 // -1: else
	var prefixes []token
	for {
		w := 0.0
		t := p.tok()
		switch {
		case t.kind == tNumber && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "%":
			w = t.num
			if !(w > 0) || w >= 100 {
				return nil, p.errAt(t, fmt.Sprintf("probability %g%%: want more than 0 and less than 100", w))
			}
			p.i += 2
			if err := p.expect(":"); err != nil {
				return nil, err
			}
		case t.kind == tIdent && t.text == "else":
			w = -1
			p.next()
			if err := p.expect(":"); err != nil {
				return nil, err
			}
		}
		c, err := p.chain()
		if err != nil {
			return nil, err
		}
		branches = append(branches, Branch{Body: c})
		weights = append(weights, w)
		prefixes = append(prefixes, t)
		if p.isPunct(";") || p.tok().kind == tEOF {
			break
		}
	}
	if len(branches) == 1 && weights[0] == 0 {
		return branches[0].Body, nil
	}
	sum, elses := 0.0, 0
	for k, w := range weights {
		switch {
		case w == 0:
			return nil, p.errAt(prefixes[k], "a rule with several successors needs a probability (\"30% :\" or \"else :\") before each")
		case w < 0:
			elses++
			if elses > 1 {
				return nil, p.errAt(prefixes[k], "a stochastic rule has at most one else branch")
			}
		default:
			sum += w
		}
	}
	if sum >= 100 && elses > 0 || sum > 100+1e-9 {
		return nil, p.errAt(at, fmt.Sprintf("the probabilities of rule %q add up to %g%%, more than 100%%", p.rule, sum))
	}
	for k, w := range weights {
		if w < 0 {
			w = 100 - sum
		}
		branches[k].Weight = Num(w)
	}
	op := &Op{Kind: OpRandomRule, Pos: at.pos, Name: "RandomRule", Args: []Arg{{Expr: Attr{Name: "ShapeSeed"}, Pos: at.pos}}, Branches: branches}
	return &Chain{Ops: []*Op{op}}, nil
}

// innerProbability skips a probability prefix ("30% :" or "else :") before
// an operator or successor inside a chain or a block. OperatorGraph's parser
// accepts one before every successor, but only the successors of a rule
// itself make a stochastic rule (ParserProductionRule.cpp); its operators
// drop the prefixes of the successors in their blocks and chains
// (ParserOperator.cpp), so `Replicate() { 30%: A | else: B }` is
// `Replicate() { A | B }`. ruleBody reads the rule's own prefixes before it
// calls chain, so what is left here is always an inner one.
func (p *parser) innerProbability() error {
	t := p.tok()
	switch {
	case t.kind == tNumber && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "%":
		p.i += 2
	case t.kind == tIdent && t.text == "else" && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == ":":
		p.next()
	default:
		return nil
	}
	return p.expect(":")
}

// simple reports whether the polygon pts has no repeated points and no two
// edges that cross or touch other than neighbours at their shared point.
func simple(pts [][2]float64) bool {
	n := len(pts)
	if n < 3 {
		return false
	}
	cross := func(o, a, b [2]float64) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	for i := 0; i < n; i++ {
		a, b := pts[i], pts[(i+1)%n]
		if a == b {
			return false
		}
		for j := i + 1; j < n; j++ {
			if j == i+1 || (i == 0 && j == n-1) {
				continue
			}
			c, d := pts[j], pts[(j+1)%n]
			d1, d2 := cross(a, b, c), cross(a, b, d)
			d3, d4 := cross(c, d, a), cross(c, d, b)
			if (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0) || d1 == 0 && d2 == 0 {
				return false
			}
		}
	}
	return true
}
