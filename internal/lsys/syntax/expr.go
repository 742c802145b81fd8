package syntax

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// node is a parsed expression. Names are resolved while parsing: a formal
// parameter becomes a slot, a #define constant its value.
type node struct {
	kind nodeKind
	op   lsys.Op   // nUnary, nBinary
	fn   lsys.Func // nCall
	val  float64   // nNum
	slot int       // nSlot
	a, b *node     // operands of nUnary (a), nBinary, nAnd, nOr
	args []*node   // nCall
	off  int       // source offset, for errors
}

type nodeKind uint8

const (
	nNum nodeKind = iota
	nSlot
	nUnary
	nBinary
	nCall
	nAnd
	nOr
)

// scope resolves names in an expression.
type scope struct {
	params  map[string]int // formal parameter -> slot; nil where only constants may appear
	defines map[string]float64
	hint    string // added to "undefined name" errors, e.g. why only constants may appear
}

// lookupFunc finds a built-in function by name.
func lookupFunc(name string) (lsys.Func, bool) {
	switch name {
	case "sin":
		return lsys.FnSin, true
	case "cos":
		return lsys.FnCos, true
	case "tan":
		return lsys.FnTan, true
	case "asin":
		return lsys.FnAsin, true
	case "acos":
		return lsys.FnAcos, true
	case "atan":
		return lsys.FnAtan, true
	case "atan2":
		return lsys.FnAtan2, true
	case "sqrt":
		return lsys.FnSqrt, true
	case "exp":
		return lsys.FnExp, true
	case "log":
		return lsys.FnLog, true
	case "floor":
		return lsys.FnFloor, true
	case "ceil":
		return lsys.FnCeil, true
	case "trunc":
		return lsys.FnTrunc, true
	case "abs":
		return lsys.FnAbs, true
	case "sign":
		return lsys.FnSign, true
	case "min":
		return lsys.FnMin, true
	case "max":
		return lsys.FnMax, true
	case "ran":
		return lsys.FnRan, true
	case "nran":
		return lsys.FnNran, true
	case "uniform":
		return lsys.FnUniform, true
	}
	return 0, false
}

// userArgs is the number of arguments a call of fn writes: the random
// functions' last operand is the call site, which the compiler adds.
func userArgs(fn lsys.Func) int {
	if fn.Random() {
		return fn.Args() - 1
	}
	return fn.Args()
}

// maxNesting bounds parentheses and unary operators, so that hostile input
// cannot recurse without limit (the operand stack bound does not: "----x").
const maxNesting = 100

// exprParser is a precedence-climbing parser, lowest precedence first:
// || && (== !=) (< <= > >=) (+ -) (* /) unary(- ! +) ^ (right-assoc, and
// tighter than a unary minus on its left: -2^2 = -4, 2^-1 = 0.5).
type exprParser struct {
	c      *cursor
	sc     *scope
	arrows bool // stop before a successor arrow (a condition)
	depth  int
}

// parseExpr parses one expression at the cursor. It stops before anything
// that cannot continue the expression; the caller checks what follows.
func parseExpr(c *cursor, sc *scope, arrows bool) (*node, error) {
	e := &exprParser{c: c, sc: sc, arrows: arrows}
	return e.or()
}

func (e *exprParser) or() (*node, error) {
	a, err := e.and()
	for err == nil {
		e.c.skip()
		off := e.c.i
		if e.c.peek() == '|' && e.c.peekAt(1) != '|' {
			return nil, e.c.errorf(off, "expected '||', found '|'")
		}
		if !e.c.has("||") {
			break
		}
		e.c.i += 2
		var b *node
		if b, err = e.and(); err == nil {
			a = &node{kind: nOr, a: a, b: b, off: off}
		}
	}
	return a, err
}

func (e *exprParser) and() (*node, error) {
	a, err := e.equality()
	for err == nil {
		e.c.skip()
		off := e.c.i
		if e.c.peek() == '&' && e.c.peekAt(1) != '&' {
			return nil, e.c.errorf(off, "expected '&&', found '&'")
		}
		if !e.c.has("&&") {
			break
		}
		e.c.i += 2
		var b *node
		if b, err = e.equality(); err == nil {
			a = &node{kind: nAnd, a: a, b: b, off: off}
		}
	}
	return a, err
}

func (e *exprParser) equality() (*node, error) {
	a, err := e.relation()
	for err == nil {
		e.c.skip()
		off := e.c.i
		var op lsys.Op
		switch {
		case e.c.has("=="):
			op = lsys.OpEq
		case e.c.has("!="):
			op = lsys.OpNe
		case e.c.peek() == '=':
			return nil, e.c.errorf(off, "expected '==' to compare, found '='")
		default:
			return a, nil
		}
		e.c.i += 2
		var b *node
		if b, err = e.relation(); err == nil {
			a = binary(op, a, b, off)
		}
	}
	return a, err
}

func (e *exprParser) relation() (*node, error) {
	a, err := e.sum()
	for err == nil {
		e.c.skip()
		off := e.c.i
		var op lsys.Op
		n := 1
		switch {
		case e.c.has("<="):
			op, n = lsys.OpLe, 2
		case e.c.has(">="):
			op, n = lsys.OpGe, 2
		case e.c.peek() == '<':
			op = lsys.OpLt
		case e.c.peek() == '>':
			op = lsys.OpGt
		default:
			return a, nil
		}
		e.c.i += n
		var b *node
		if b, err = e.sum(); err == nil {
			a = binary(op, a, b, off)
		}
	}
	return a, err
}

func (e *exprParser) sum() (*node, error) {
	a, err := e.product()
	for err == nil {
		e.c.skip()
		off := e.c.i
		var op lsys.Op
		switch e.c.peek() {
		case '+':
			op = lsys.OpAdd
		case '-':
			if _, ok := e.c.arrow(); ok && e.arrows {
				return a, nil
			}
			op = lsys.OpSub
		default:
			return a, nil
		}
		e.c.i++
		var b *node
		if b, err = e.product(); err == nil {
			a = binary(op, a, b, off)
		}
	}
	return a, err
}

func (e *exprParser) product() (*node, error) {
	a, err := e.unary()
	for err == nil {
		e.c.skip()
		off := e.c.i
		var op lsys.Op
		switch e.c.peek() {
		case '*':
			op = lsys.OpMul
		case '/':
			op = lsys.OpDiv
		default:
			return a, nil
		}
		e.c.i++
		var b *node
		if b, err = e.unary(); err == nil {
			a = binary(op, a, b, off)
		}
	}
	return a, err
}

func (e *exprParser) unary() (*node, error) {
	e.c.skip()
	off := e.c.i
	if e.depth++; e.depth > maxNesting {
		return nil, e.c.errorf(off, "expression nested too deeply: at most %d levels", maxNesting)
	}
	defer func() { e.depth-- }()
	switch b := e.c.peek(); {
	case b == '-' && !(e.arrows && e.isArrow()):
		e.c.i++
		a, err := e.unary()
		if err != nil {
			return nil, err
		}
		if a.kind == nNum {
			return &node{kind: nNum, val: -a.val, off: off}, nil
		}
		return &node{kind: nUnary, op: lsys.OpNeg, a: a, off: off}, nil
	case b == '+':
		e.c.i++
		return e.unary()
	case b == '!' && e.c.peekAt(1) != '=':
		e.c.i++
		a, err := e.unary()
		if err != nil {
			return nil, err
		}
		return &node{kind: nUnary, op: lsys.OpNot, a: a, off: off}, nil
	}
	return e.power()
}

func (e *exprParser) isArrow() bool {
	_, ok := e.c.arrow()
	return ok
}

func (e *exprParser) power() (*node, error) {
	a, err := e.primary()
	if err != nil {
		return nil, err
	}
	e.c.skip()
	off := e.c.i
	if e.c.peek() != '^' {
		return a, nil
	}
	e.c.i++
	b, err := e.unary()
	if err != nil {
		return nil, err
	}
	return &node{kind: nBinary, op: lsys.OpPow, a: a, b: b, off: off}, nil
}

func (e *exprParser) primary() (*node, error) {
	c := e.c
	c.skip()
	off := c.i
	b := c.peek()
	switch {
	case b == '(':
		c.i++
		a, err := e.or()
		if err != nil {
			return nil, err
		}
		c.skip()
		if c.peek() != ')' {
			return nil, c.errorf(c.i, "expected ')' to close the '(' at column %d, found %s", c.s.pos(off).Col, c.found())
		}
		c.i++
		return a, nil
	case isDigit(b) || b == '.' && isDigit(c.peekAt(1)):
		v, err := c.number()
		if err != nil {
			return nil, err
		}
		return &node{kind: nNum, val: v, off: off}, nil
	case isIdentStart(b):
		name := c.ident()
		save := c.i
		c.skip()
		if c.peek() == '(' {
			return e.call(name, off)
		}
		c.i = save
		return e.name(name, off)
	}
	return nil, c.errorf(off, "expected an expression, found %s", c.found())
}

func (e *exprParser) name(name string, off int) (*node, error) {
	if slot, ok := e.sc.params[name]; ok {
		return &node{kind: nSlot, slot: slot, off: off}, nil
	}
	if v, ok := e.sc.defines[name]; ok {
		return &node{kind: nNum, val: v, off: off}, nil
	}
	msg := fmt.Sprintf("undefined name %s", quote(name))
	if _, ok := lookupFunc(name); ok {
		msg = fmt.Sprintf("function %s needs its arguments in parentheses", name)
	} else if e.sc.hint != "" {
		msg += " (" + e.sc.hint + ")"
	}
	return nil, e.c.errorf(off, "%s", msg)
}

func (e *exprParser) call(name string, off int) (*node, error) {
	c := e.c
	fn, ok := lookupFunc(name)
	if !ok {
		return nil, c.errorf(off, "unknown function %s", quote(name))
	}
	if fn.Random() && e.sc.params == nil {
		return nil, c.errorf(off, "%s draws a new number for every module and step: expected a constant here (axiom, #define, probability, directive)", name)
	}
	c.i++ // '('
	var args []*node
	c.skip()
	if c.peek() == ')' {
		c.i++
	} else {
		for {
			a, err := e.or()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			c.skip()
			if c.peek() == ',' {
				c.i++
				continue
			}
			if c.peek() == ')' {
				c.i++
				break
			}
			return nil, c.errorf(c.i, "expected ',' or ')' in the arguments of %s, found %s", name, c.found())
		}
	}
	if want := userArgs(fn); len(args) != want {
		return nil, c.errorf(off, "%s takes %s, found %d", name, plural(want, "argument"), len(args))
	}
	return &node{kind: nCall, fn: fn, args: args, off: off}, nil
}

// binary builds a binary node, folding + - * / of two constants: IEEE
// arithmetic gives those the same value on every backend. Division by zero,
// results that are not finite and everything else are left to the evaluator
// and its error reporting.
func binary(op lsys.Op, a, b *node, off int) *node {
	if a.kind == nNum && b.kind == nNum {
		v, ok := 0.0, true
		switch op {
		case lsys.OpAdd:
			v = a.val + b.val
		case lsys.OpSub:
			v = a.val - b.val
		case lsys.OpMul:
			v = a.val * b.val
		case lsys.OpDiv:
			v, ok = a.val/b.val, b.val != 0
		default:
			ok = false
		}
		if ok && !math.IsInf(v, 0) && !math.IsNaN(v) {
			return &node{kind: nNum, val: v, off: a.off}
		}
	}
	return &node{kind: nBinary, op: op, a: a, b: b, off: off}
}
