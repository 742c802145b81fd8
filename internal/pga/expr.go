package pga

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Env is what an expression may ask about the shape it is evaluated on.
type Env interface {
	ShapeSize(Axis) float64
	ShapePosition(Axis) float64
	ShapeNormal(Axis) float64
	ShapeFrame(axis, comp Axis) float64 // world component comp of the local axis
	ShapeSeed() float64
	ShapeCustomAttribute() float64
	ShapeIndex() float64    // position among the outputs of the operator that made the shape
	ShapeSiblings() float64 // how many outputs that operator made
	LotAttr(i int, def float64) float64
	Query(q QueryKind, group int) float64
	// Related answers a bilateral query: q against the shapes that the
	// common ancestor of Grammar.Links[link] derives for its target.
	Related(q QueryKind, link int) float64
}

// QueryKind is a geometric context query against the colliders of a group
// filled in earlier phases.
type QueryKind int8

const (
	QueryOverlaps QueryKind = iota // the shape and a collider share interior
	QueryTouches                   // they meet on their boundaries only
	QueryInside                    // the shape lies within one collider
)

var queryNames = [...]string{"Overlaps", "Touches", "Inside"}

func (q QueryKind) String() string { return queryNames[q] }

// Query is Overlaps(group), Touches(group) or Inside(group): 1 or 0.
type Query struct {
	Kind  QueryKind
	Group int
	Name  string
}

func (q Query) Eval(e Env) float64 { return e.Query(q.Kind, q.Group) }
func (q Query) String() string     { return q.Kind.String() + "(" + q.Name + ")" }

// LotAttrRef is LotAttr(name, default): a numeric property of the lot the
// shape descends from, or the default when the lot has none.
type LotAttrRef struct {
	Index   int // into Grammar.LotAttrs
	Name    string
	Default float64
}

func (a LotAttrRef) Eval(e Env) float64 { return e.LotAttr(a.Index, a.Default) }
func (a LotAttrRef) String() string {
	name := a.Name
	if strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		name = `"` + name + `"`
	}
	return fmt.Sprintf("LotAttr(%s, %g)", name, a.Default)
}

// Expr is a numeric expression. Comparisons yield 1 or 0.
type Expr interface {
	Eval(Env) float64
	String() string
}

// Num is a literal.
type Num float64

func (n Num) Eval(Env) float64 { return float64(n) }
func (n Num) String() string   { return fmt.Sprint(float64(n)) }

// Neg is unary minus.
type Neg struct{ X Expr }

func (n Neg) Eval(e Env) float64 { return -n.X.Eval(e) }
func (n Neg) String() string     { return "-" + n.X.String() }

// Binary is an arithmetic or comparison operation.
type Binary struct {
	Op   string
	L, R Expr
}

// cmpEps absorbs rounding in rotated normals, so ShapeNormal(Y) == -1
// holds for a face that points down after a 90° rotation.
const cmpEps = 1e-6

func (b Binary) Eval(e Env) float64 {
	l, r := b.L.Eval(e), b.R.Eval(e)
	switch b.Op {
	case "+":
		return l + r
	case "-":
		return l - r
	case "*":
		return l * r
	case "/":
		return l / r
	case "==":
		return bool01(math.Abs(l-r) <= cmpEps)
	case "!=":
		return bool01(math.Abs(l-r) > cmpEps)
	case "<":
		return bool01(l < r)
	case ">":
		return bool01(l > r)
	case "<=":
		return bool01(l <= r)
	case ">=":
		return bool01(l >= r)
	case "&&":
		return bool01(isTrue(l) && isTrue(r))
	case "||":
		return bool01(isTrue(l) || isTrue(r))
	}
	return math.NaN()
}

func (b Binary) String() string { return "(" + b.L.String() + " " + b.Op + " " + b.R.String() + ")" }

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Frame is ShapeRotation(A, B) with two axes, as OperatorGraph reads it:
// the world component B of the shape's local axis A.
type Frame struct{ Axis, Comp Axis }

func (f Frame) Eval(e Env) float64 { return e.ShapeFrame(f.Axis, f.Comp) }
func (f Frame) String() string {
	return "ShapeRotation(" + f.Axis.String() + ", " + f.Comp.String() + ")"
}

// Rand is Rand(lo, hi): as OperatorGraph's, a number in [lo, hi) drawn
// from the shape's seed alone, lo + (hi - lo) * ShapeSeed() (every Rand of
// one shape draws the same fraction).
type Rand struct{ Lo, Hi Expr }

func (x Rand) expand() Expr {
	return Binary{"+", x.Lo, Binary{"*", Binary{"-", x.Hi, x.Lo}, Attr{Name: "ShapeSeed"}}}
}

func (x Rand) Eval(e Env) float64 { return x.expand().Eval(e) }
func (x Rand) String() string     { return "Rand(" + x.Lo.String() + ", " + x.Hi.String() + ")" }

// Attr reads a shape attribute: ShapeSize(X), ShapeSeed(), ...
type Attr struct {
	Name string
	Axis Axis // for the per-axis attributes
}

func (a Attr) Eval(e Env) float64 {
	switch a.Name {
	case "ShapeSize":
		return e.ShapeSize(a.Axis)
	case "ShapePosition":
		return e.ShapePosition(a.Axis)
	case "ShapeNormal":
		return e.ShapeNormal(a.Axis)
	case "ShapeSeed":
		return e.ShapeSeed()
	case "ShapeCustomAttribute":
		return e.ShapeCustomAttribute()
	case "ShapeIndex":
		return e.ShapeIndex()
	case "ShapeSiblings":
		return e.ShapeSiblings()
	}
	return math.NaN()
}

func (a Attr) String() string {
	if axisAttr[a.Name] {
		return a.Name + "(" + a.Axis.String() + ")"
	}
	return a.Name + "()"
}

var axisAttr = map[string]bool{"ShapeSize": true, "ShapePosition": true, "ShapeRotation": true, "ShapeNormal": true}

var plainAttr = map[string]bool{"ShapeSeed": true, "ShapeCustomAttribute": true, "ShapeIndex": true, "ShapeSiblings": true}

const maxExprDepth = 200

// expr := and {|| and} ; and := cmp {&& cmp} ;
// cmp := add [relop add] ; add := mul {(+|-) mul} ;
// mul := unary {(*|/) unary} ; unary := - unary | primary ;
// primary := number | ( expr ) | Exp(expr) | Attr(...)
func (p *parser) expr() (Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxExprDepth {
		return nil, p.errAt(p.tok(), "expression nested too deeply")
	}
	l, err := p.conj()
	if err != nil {
		return nil, err
	}
	for p.isPunct("||") {
		p.next()
		r, err := p.conj()
		if err != nil {
			return nil, err
		}
		l = Binary{"||", l, r}
	}
	return l, nil
}

func (p *parser) conj() (Expr, error) {
	l, err := p.comparison()
	if err != nil {
		return nil, err
	}
	for p.isPunct("&&") {
		p.next()
		r, err := p.comparison()
		if err != nil {
			return nil, err
		}
		l = Binary{"&&", l, r}
	}
	return l, nil
}

func (p *parser) comparison() (Expr, error) {
	l, err := p.additive()
	if err != nil {
		return nil, err
	}
	switch p.tok().text {
	case "==", "!=", "<", ">", "<=", ">=":
		if p.tok().kind != tPunct {
			break
		}
		op := p.next().text
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		return Binary{op, l, r}, nil
	}
	return l, nil
}

func (p *parser) additive() (Expr, error) {
	l, err := p.multiplicative()
	if err != nil {
		return nil, err
	}
	for p.isPunct("+") || p.isPunct("-") {
		op := p.next().text
		r, err := p.multiplicative()
		if err != nil {
			return nil, err
		}
		l = Binary{op, l, r}
	}
	return l, nil
}

func (p *parser) multiplicative() (Expr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.isPunct("*") || p.isPunct("/") {
		op := p.next().text
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = Binary{op, l, r}
	}
	return l, nil
}

func (p *parser) unary() (Expr, error) {
	if p.isPunct("-") || p.isPunct("+") {
		neg := p.next().text == "-"
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxExprDepth {
			return nil, p.errAt(p.tok(), "expression nested too deeply")
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if !neg {
			return x, nil
		}
		if n, ok := x.(Num); ok {
			return -n, nil
		}
		return Neg{x}, nil
	}
	return p.primary()
}

func (p *parser) primary() (Expr, error) {
	t := p.tok()
	switch {
	case t.kind == tNumber:
		p.next()
		return Num(t.num), nil
	case p.isPunct("("):
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		return x, p.expect(")")
	case t.kind == tIdent && t.text == "Exp":
		// Exp(...) marks an expression argument in PGA-shape; it is not e^x.
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		return x, p.expect(")")
	case t.kind == tIdent && (t.text == "Overlaps" || t.text == "Touches" || t.text == "Inside"):
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err
		}
		at := p.tok().pos
		n, err := p.ident("collider group name")
		if err != nil {
			return nil, err
		}
		var kind QueryKind
		for k, name := range queryNames {
			if name == t.text {
				kind = QueryKind(k)
			}
		}
		if p.isPunct(",") {
			// Two names: a bilateral query (common ancestor, target).
			return p.bilateral(kind, t, n)
		}
		q := Query{Kind: kind, Group: intern(&p.g.Groups, n.text), Name: n.text}
		p.uses = append(p.uses, groupRef{q.Group, p.phase, q.String(), at, false, nil})
		return q, p.expect(")")
	case t.kind == tIdent && t.text == "LotAttr":
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err
		}
		// A name, or a quoted one for a key that is no identifier
		// (OpenStreetMap's "building:levels").
		n := p.tok()
		if n.kind == tString {
			p.next()
		} else if _, err := p.ident("lot attribute name"); err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		d := p.tok()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		def, ok := x.(Num)
		if !ok {
			return nil, p.errAt(d, "LotAttr's default must be a number")
		}
		return LotAttrRef{intern(&p.g.LotAttrs, n.text), n.text, float64(def)}, p.expect(")")
	case t.kind == tIdent && t.text == "Rand":
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err
		}
		lo, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		hi, err := p.expr()
		if err != nil {
			return nil, err
		}
		return Rand{lo, hi}, p.expect(")")
	case t.kind == tIdent && (axisAttr[t.text] || plainAttr[t.text] || t.text == "ShapePos"):
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err
		}
		name := t.text
		if name == "ShapePos" { // OperatorGraph's name
			name = "ShapePosition"
		}
		a := Attr{Name: name}
		if axisAttr[name] {
			ax, err := p.axis()
			if err != nil {
				return nil, err
			}
			a.Axis = ax
			// OperatorGraph reads ShapeRotation(A[, B]) as an element of
			// the frame; B left out is X (its parser's default 0).
			if name == "ShapeRotation" {
				comp := AxisX
				if p.isPunct(",") {
					p.next()
					if comp, err = p.axis(); err != nil {
						return nil, err
					}
				}
				return Frame{ax, comp}, p.expect(")")
			}
		}
		return a, p.expect(")")
	case t.kind == tIdent && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(":
		return nil, p.errAt(t, fmt.Sprintf("unknown function %s (expected Exp, Rand, a shape attribute, LotAttr or a query)", t.text))
	case t.kind == tIdent:
		if v, ok := p.vars[t.text]; ok {
			p.next()
			return Num(v), nil
		}
	}
	return nil, p.expected("expression")
}

func (p *parser) axis() (Axis, error) {
	t := p.tok()
	if t.kind == tIdent {
		switch t.text {
		case "X":
			p.next()
			return AxisX, nil
		case "Y":
			p.next()
			return AxisY, nil
		case "Z":
			p.next()
			return AxisZ, nil
		}
	}
	return 0, p.expected("axis X, Y or Z")
}
