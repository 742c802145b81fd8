package lang

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// typeOf checks e and returns its type; untyped is true for integer
// constants, which become floats where a float is wanted.
func (c *compiler) typeOf(e expr) (t bytecode.Type, untyped bool, err error) {
	switch e := e.(type) {
	case *numLit:
		if e.isFloat {
			return bytecode.Float, false, nil
		}
		return bytecode.Int, true, nil
	case *nameRef:
		if l := c.lookupLocal(e.name); l != nil && l.name != " repeat" {
			return l.typ, false, nil
		}
		if v, ok := c.consts[e.name]; ok {
			if v.isFloat {
				return bytecode.Float, false, nil
			}
			return bytecode.Int, true, nil
		}
		if fi, ok := c.fieldIdx[e.name]; ok {
			f := c.prog.Fields[fi]
			if !f.Scalar {
				return 0, false, c.errAt(e.p, "field %q is an array of %d: index it (%s[i])", f.Name, f.Size, f.Name)
			}
			return f.Type, false, nil
		}
		return 0, false, c.unknown(e.p, e.name)
	case *indexExpr:
		fi, ok := c.fieldIdx[e.name]
		if !ok {
			if c.lookupLocal(e.name) != nil || c.hasConst(e.name) {
				return 0, false, c.errAt(e.p, "%s is not an array", c.describeName(e.name))
			}
			return 0, false, c.unknown(e.p, e.name)
		}
		f := c.prog.Fields[fi]
		if f.Scalar {
			return 0, false, c.errAt(e.p, "field %q is a scalar: no index", f.Name)
		}
		it, _, err := c.typeOf(e.idx)
		if err != nil {
			return 0, false, err
		}
		if it != bytecode.Int {
			return 0, false, c.errAt(e.idx.at(), "index of %q is a float: convert it with int(...)", f.Name)
		}
		return f.Type, false, nil
	case *unaryExpr:
		t, u, err := c.typeOf(e.x)
		if err != nil {
			return 0, false, err
		}
		if e.op != "-" && t != bytecode.Int {
			return 0, false, c.errAt(e.p, "operator %s needs an int, not a float", e.op)
		}
		if e.op == "!" {
			return bytecode.Int, false, nil
		}
		return t, u, nil
	case *binaryExpr:
		xt, xu, err := c.typeOf(e.x)
		if err != nil {
			return 0, false, err
		}
		yt, yu, err := c.typeOf(e.y)
		if err != nil {
			return 0, false, err
		}
		switch e.op {
		case "&&", "||", "&", "|", "^", "<<", ">>", "%":
			if xt != bytecode.Int || yt != bytecode.Int {
				return 0, false, c.errAt(e.p, "operator %s needs ints, not %s and %s", e.op, xt, yt)
			}
			if e.op == "&&" || e.op == "||" {
				return bytecode.Int, false, nil
			}
			return bytecode.Int, xu && yu, nil
		}
		t, u, err := c.unify(e.p, e.op, xt, xu, yt, yu)
		if err != nil {
			return 0, false, err
		}
		switch e.op {
		case "==", "!=", "<", "<=", ">", ">=":
			return bytecode.Int, false, nil
		}
		return t, u, nil
	case *callExpr:
		if isDraw(e.fn) {
			return c.drawType(e)
		}
		want := map[string]int{"int": 1, "float": 1, "abs": 1, "sqrt": 1, "min": 2, "max": 2}
		n, ok := want[e.fn]
		if !ok {
			if c.hasConst(e.fn) || c.fieldIdx[e.fn] != 0 || c.lookupLocal(e.fn) != nil {
				return 0, false, c.errAt(e.p, "%s is not a function", c.describeName(e.fn))
			}
			return 0, false, c.errAt(e.p, "unknown function %q (there are int, float, abs, sqrt, min, max, rand and uniform)", e.fn)
		}
		if len(e.args) != n {
			return 0, false, c.errAt(e.p, "%s takes %d argument(s), not %d", e.fn, n, len(e.args))
		}
		ts := make([]bytecode.Type, n)
		us := make([]bool, n)
		for k, a := range e.args {
			if ts[k], us[k], err = c.typeOf(a); err != nil {
				return 0, false, err
			}
		}
		switch e.fn {
		case "int":
			return bytecode.Int, false, nil
		case "float":
			return bytecode.Float, false, nil
		case "abs":
			return ts[0], us[0], nil
		case "sqrt":
			if ts[0] != bytecode.Float && !us[0] {
				return 0, false, c.errAt(e.p, "sqrt needs a float: convert with float(...)")
			}
			return bytecode.Float, false, nil
		}
		return c.unify(e.p, e.fn, ts[0], us[0], ts[1], us[1])
	}
	return 0, false, c.errAt(e.at(), "unknown expression")
}

func (c *compiler) unify(p bytecode.Pos, op string, xt bytecode.Type, xu bool, yt bytecode.Type, yu bool) (bytecode.Type, bool, error) {
	switch {
	case xu && yu:
		return bytecode.Int, true, nil
	case xu:
		return yt, false, nil
	case yu:
		return xt, false, nil
	case xt != yt:
		return 0, false, c.errAt(p, "mismatched types %s and %s for %s: convert with int(...) or float(...)", xt, yt, op)
	}
	return xt, false, nil
}

func (c *compiler) unknown(p bytecode.Pos, name string) error {
	var known []string
	for _, f := range c.prog.Fields {
		known = append(known, f.Name)
	}
	return c.errAt(p, "unknown name %q (fields: %v)", name, known)
}

// expr compiles e, already checked by typeOf, into a register holding a
// value of type t (the type typeOf gave, or float for an untyped constant
// used as one). The result may be a local's register: do not write to it.
func (c *compiler) expr(e expr, t bytecode.Type) (int, error) {
	if err := c.checkSweptFold(e); err != nil {
		return 0, err
	}
	if c.isConstExpr(e) {
		v, err := c.evalConst(e)
		if err != nil {
			return 0, err
		}
		if !v.isFloat && t == bytecode.Int && (v.i > math.MaxInt32 || v.i < math.MinInt32) {
			return 0, c.errAt(e.at(), "constant %d does not fit in 32 bits", v.i)
		}
		r, err := c.alloc(e.at())
		if err != nil {
			return 0, err
		}
		c.emitImm(e.at(), bytecode.OpLDI, r, constBits(v, t))
		return r, nil
	}
	mark := c.nextReg
	switch e := e.(type) {
	case *nameRef:
		if l := c.lookupLocal(e.name); l != nil {
			return l.reg, nil
		}
		fi := c.fieldIdx[e.name]
		r, err := c.alloc(e.p)
		if err != nil {
			return 0, err
		}
		c.emit(e.p, e.name, c.loadOp(fi), r, bytecode.NoReg, fi)
		return r, nil
	case *indexExpr:
		fi := c.fieldIdx[e.name]
		idx, err := c.expr(e.idx, bytecode.Int)
		if err != nil {
			return 0, err
		}
		c.nextReg = mark
		r, err := c.alloc(e.p)
		if err != nil {
			return 0, err
		}
		c.emit(e.p, e.name+"[...]", c.loadOp(fi), r, idx, fi)
		return r, nil
	case *unaryExpr:
		x, err := c.expr(e.x, t)
		if err != nil {
			return 0, err
		}
		c.nextReg = mark
		r, err := c.alloc(e.p)
		if err != nil {
			return 0, err
		}
		op := map[string]int{"-": bytecode.OpINEG, "~": bytecode.OpINOT, "!": bytecode.OpILNOT}[e.op]
		if e.op == "-" && t == bytecode.Float {
			op = bytecode.OpFNEG
		}
		c.emit(e.p, "", op, r, x, 0)
		return r, nil
	case *binaryExpr:
		if e.op == "&&" || e.op == "||" {
			return c.logic(e)
		}
		// Operands: the result type, or for comparisons the operands' own.
		ot := t
		switch e.op {
		case "==", "!=", "<", "<=", ">", ">=":
			xt, xu, _ := c.typeOf(e.x)
			yt, yu, _ := c.typeOf(e.y)
			ot, _, _ = c.unify(e.p, e.op, xt, xu, yt, yu)
		}
		x, err := c.expr(e.x, ot)
		if err != nil {
			return 0, err
		}
		y, err := c.expr(e.y, ot)
		if err != nil {
			return 0, err
		}
		c.nextReg = mark
		r, err := c.alloc(e.p)
		if err != nil {
			return 0, err
		}
		op, swap := binOp(e.op, ot)
		if swap {
			x, y = y, x
		}
		what := ""
		if op == bytecode.OpIDIV || op == bytecode.OpIMOD {
			what = "division"
		}
		c.emit(e.p, what, op, r, x, y)
		return r, nil
	case *callExpr:
		return c.call(e, t, mark)
	}
	return 0, c.errAt(e.at(), "unknown expression")
}

func (c *compiler) loadOp(fi int) int {
	if c.snap&(1<<fi) != 0 {
		return bytecode.OpLDS
	}
	return bytecode.OpLD
}

// binOp maps an operator to its opcode for operands of type t; swap means
// the operands go in the other order (a > b is b < a).
func binOp(op string, t bytecode.Type) (int, bool) {
	if t == bytecode.Float {
		switch op {
		case "+":
			return bytecode.OpFADD, false
		case "-":
			return bytecode.OpFSUB, false
		case "*":
			return bytecode.OpFMUL, false
		case "/":
			return bytecode.OpFDIV, false
		case "==":
			return bytecode.OpFEQ, false
		case "!=":
			return bytecode.OpFNE, false
		case "<":
			return bytecode.OpFLT, false
		case "<=":
			return bytecode.OpFLE, false
		case ">":
			return bytecode.OpFLT, true
		case ">=":
			return bytecode.OpFLE, true
		}
		panic(fmt.Sprintf("rules: float operator %s", op))
	}
	m := map[string]int{"+": bytecode.OpIADD, "-": bytecode.OpISUB, "*": bytecode.OpIMUL, "/": bytecode.OpIDIV, "%": bytecode.OpIMOD, "&": bytecode.OpIAND, "|": bytecode.OpIOR,
		"^": bytecode.OpIXOR, "<<": bytecode.OpISHL, ">>": bytecode.OpISHR, "==": bytecode.OpIEQ, "!=": bytecode.OpINE, "<": bytecode.OpILT, "<=": bytecode.OpILE}
	switch op {
	case ">":
		return bytecode.OpILT, true
	case ">=":
		return bytecode.OpILE, true
	}
	return m[op], false
}

// logic compiles && and || with short-circuit evaluation.
func (c *compiler) logic(e *binaryExpr) (int, error) {
	r, err := c.alloc(e.p)
	if err != nil {
		return 0, err
	}
	x, err := c.expr(e.x, bytecode.Int)
	if err != nil {
		return 0, err
	}
	c.emit(e.p, "", bytecode.OpBOOL, r, x, 0)
	c.nextReg = r + 1
	var jmp int
	if e.op == "&&" {
		jmp = c.emitImm(e.p, bytecode.OpJZ, r, 0)
	} else {
		jz := c.emitImm(e.p, bytecode.OpJZ, r, 0)
		jmp = c.emitImm(e.p, bytecode.OpJMP, 0, 0)
		c.patch(jz, len(c.prog.Code))
	}
	y, err := c.expr(e.y, bytecode.Int)
	if err != nil {
		return 0, err
	}
	c.emit(e.p, "", bytecode.OpBOOL, r, y, 0)
	c.patch(jmp, len(c.prog.Code))
	c.nextReg = r + 1
	return r, nil
}

func (c *compiler) call(e *callExpr, t bytecode.Type, mark int) (int, error) {
	if isDraw(e.fn) {
		return c.draw(e, t, mark)
	}
	at := make([]bytecode.Type, len(e.args))
	for k, a := range e.args {
		at[k], _, _ = c.typeOf(a)
	}
	var args []int
	argType := t
	switch e.fn {
	case "int", "float":
		argType = at[0]
	case "sqrt":
		argType = bytecode.Float
	}
	for _, a := range e.args {
		r, err := c.expr(a, argType)
		if err != nil {
			return 0, err
		}
		args = append(args, r)
	}
	c.nextReg = mark
	var op int
	switch e.fn {
	case "int", "float":
		// A conversion to the argument's own type is the argument.
		if (e.fn == "int") == (argType == bytecode.Int) {
			if args[0] >= mark {
				c.nextReg = args[0] + 1
			}
			return args[0], nil
		}
		op = bytecode.OpF2I
		if e.fn == "float" {
			op = bytecode.OpI2F
		}
	case "abs":
		op = map[bytecode.Type]int{bytecode.Int: bytecode.OpIABS, bytecode.Float: bytecode.OpFABS}[t]
	case "sqrt":
		op = bytecode.OpFSQRT
	case "min":
		op = map[bytecode.Type]int{bytecode.Int: bytecode.OpIMIN, bytecode.Float: bytecode.OpFMIN}[t]
	case "max":
		op = map[bytecode.Type]int{bytecode.Int: bytecode.OpIMAX, bytecode.Float: bytecode.OpFMAX}[t]
	}
	r, err := c.alloc(e.p)
	if err != nil {
		return 0, err
	}
	b := 0
	if len(args) > 1 {
		b = args[1]
	}
	c.emit(e.p, "", op, r, args[0], b)
	return r, nil
}
