package pga

import (
	"fmt"
	"math"
)

// Env is what an expression may ask about the shape it is evaluated on.
type Env interface {
	ShapeSize(Axis) float64
	ShapePosition(Axis) float64
	ShapeRotation(Axis) float64
	ShapeNormal(Axis) float64
	ShapeSeed() float64
	ShapeCustomAttribute() float64
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
	case "ShapeRotation":
		return e.ShapeRotation(a.Axis)
	case "ShapeNormal":
		return e.ShapeNormal(a.Axis)
	case "ShapeSeed":
		return e.ShapeSeed()
	case "ShapeCustomAttribute":
		return e.ShapeCustomAttribute()
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

const maxExprDepth = 200

// expr := cmp ; cmp := add [relop add] ; add := mul {(+|-) mul} ;
// mul := unary {(*|/) unary} ; unary := - unary | primary ;
// primary := number | ( expr ) | Exp(expr) | Attr(...)
func (p *parser) expr() (Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxExprDepth {
		return nil, p.errAt(p.tok(), "expression nested too deeply")
	}
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
	case t.kind == tIdent && (axisAttr[t.text] || t.text == "ShapeSeed" || t.text == "ShapeCustomAttribute"):
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err
		}
		a := Attr{Name: t.text}
		if axisAttr[t.text] {
			ax, err := p.axis()
			if err != nil {
				return nil, err
			}
			a.Axis = ax
		}
		return a, p.expect(")")
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
