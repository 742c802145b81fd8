package lang

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// Assignments: to locals, scalars and array elements (=, +=), and their
// operand checks.

func (c *compiler) assign(s *assignStmt) error {
	mark := c.nextReg
	defer func() { c.nextReg = mark }()
	if l := c.lookupLocal(s.name); l != nil {
		switch {
		case l.reg == 0:
			return c.errAt(s.p, "cannot assign to the index variable %q", s.name)
		case l.name == " repeat":
			return c.errAt(s.p, "unknown name %q", s.name)
		case s.idx != nil:
			return c.errAt(s.p, "local %q is not an array", s.name)
		}
		if err := c.checkAssignable(s.x, l.typ, s.name); err != nil {
			return err
		}
		r, err := c.expr(s.x, l.typ)
		if err != nil {
			return err
		}
		if s.op == "+=" {
			op := bytecode.OpIADD
			if l.typ == bytecode.Float {
				op = bytecode.OpFADD
			}
			c.emit(s.p, "", op, l.reg, l.reg, r)
			return nil
		}
		// Write the result straight into the local when the last
		// instruction computed it into a fresh temporary.
		if r == mark && c.retarget(s.x, r, l.reg) {
			return nil
		}
		c.emit(s.p, "", bytecode.OpMOV, l.reg, r, 0)
		return nil
	}
	fi, ok := c.fieldIdx[s.name]
	if !ok {
		if c.hasConst(s.name) {
			return c.errAt(s.p, "cannot assign to constant %q", s.name)
		}
		return c.errAt(s.p, "unknown name %q: not a field or a local (declare locals with let)", s.name)
	}
	f := c.prog.Fields[fi]
	if err := c.checkAssignable(s.x, f.Type, s.name); err != nil {
		return err
	}
	val, err := c.expr(s.x, f.Type)
	if err != nil {
		return err
	}
	idx, err := c.index(s.p, f, s.idx)
	if err != nil {
		return err
	}
	op := bytecode.OpST
	switch {
	case s.op == "+=" && f.Type == bytecode.Int:
		op = bytecode.OpADDI
	case s.op == "+=":
		op = bytecode.OpADDF
	case c.pend&(1<<fi) != 0:
		op = bytecode.OpSTP
	}
	c.emit(s.p, f.Name+"[...]", op, val, idx, fi)
	return nil
}

func (c *compiler) checkAssignable(x expr, t bytecode.Type, name string) error {
	xt, untyped, err := c.typeOf(x)
	if err != nil {
		return err
	}
	if xt != t && !(untyped && t == bytecode.Float) {
		return c.errAt(x.at(), "cannot assign a %s to %s %q: convert with %s(...)", xt, t, name, t)
	}
	return nil
}

// index compiles a field's index, returning its register (noReg: scalar).
func (c *compiler) index(p bytecode.Pos, f bytecode.Field, idx expr) (int, error) {
	if f.Scalar {
		if idx != nil {
			return 0, c.errAt(p, "field %q is a scalar: no index", f.Name)
		}
		return bytecode.NoReg, nil
	}
	if idx == nil {
		return 0, c.errAt(p, "field %q is an array of %d: index it (%s[i])", f.Name, f.Size, f.Name)
	}
	t, _, err := c.typeOf(idx)
	if err != nil {
		return 0, err
	}
	if t != bytecode.Int {
		return 0, c.errAt(idx.at(), "index of %q is a float: convert it with int(...)", f.Name)
	}
	return c.expr(idx, bytecode.Int)
}

// retarget rewrites the destination of the last instruction, which computed
// x into the fresh temporary r, to reg.
func (c *compiler) retarget(x expr, r, reg int) bool {
	if b, ok := x.(*binaryExpr); ok && (b.op == "&&" || b.op == "||") {
		return false
	}
	if c.lastPC < 0 {
		return false
	}
	op, a, b, cc := bytecode.Decode(c.prog.Code[c.lastPC])
	if bytecode.HasImm(op) || a != r || op == bytecode.OpST || op == bytecode.OpSTP || op == bytecode.OpADDI || op == bytecode.OpADDF || op == bytecode.OpRET || op == bytecode.OpEND {
		return false
	}
	c.prog.Code[c.lastPC] = bytecode.Encode(op, reg, b, cc)
	return true
}
