package lang

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Compiling rand() and uniform(LO, HI) (rand.go has the draws' keys).

// zeroDrawK starts an evaluation's count of repeat iterations.
func (c *compiler) zeroDrawK(p bytecode.Pos) {
	if c.drawK >= 0 {
		c.emitImm(p, bytecode.OpLDI, c.drawK, 0)
	}
}

// countIteration ends a repeat iteration: draws after it use a new k.
func (c *compiler) countIteration(p bytecode.Pos) error {
	if c.drawK < 0 {
		return nil
	}
	mark := c.nextReg
	defer func() { c.nextReg = mark }()
	one, err := c.alloc(p)
	if err != nil {
		return err
	}
	c.emitImm(p, bytecode.OpLDI, one, 1)
	c.emit(p, "", bytecode.OpIADD, c.drawK, c.drawK, one)
	return nil
}

// drawType checks a draw's arguments: rand() is a float, uniform(LO, HI)
// an int when both bounds are ints, else a float. A draw is never an
// untyped constant.
func (c *compiler) drawType(e *callExpr) (bytecode.Type, bool, error) {
	if e.fn == "rand" {
		if len(e.args) != 0 {
			return 0, false, c.errAt(e.p, "rand takes no arguments (uniform(LO, HI) draws from a range)")
		}
		return bytecode.Float, false, nil
	}
	if len(e.args) != 2 {
		return 0, false, c.errAt(e.p, "uniform takes 2 arguments (LO, HI), not %d", len(e.args))
	}
	var ts [2]bytecode.Type
	var us [2]bool
	for k, a := range e.args {
		var err error
		if ts[k], us[k], err = c.typeOf(a); err != nil {
			return 0, false, err
		}
	}
	t, _, err := c.unify(e.p, "uniform", ts[0], us[0], ts[1], us[1])
	return t, false, err
}

// site returns the call's site number in its rule.
func (c *compiler) site(e *callExpr) (int, error) {
	if k, ok := c.sites[e]; ok {
		return k, nil
	}
	k := len(c.sites)
	if k >= bytecode.MaxDrawSites {
		return 0, c.errAt(e.p, "more than %d rand and uniform calls in rule %s", bytecode.MaxDrawSites, c.rule.name)
	}
	c.sites[e] = k
	return k, nil
}

// draw compiles a draw into a fresh register (mark: the first free one).
func (c *compiler) draw(e *callExpr, t bytecode.Type, mark int) (int, error) {
	site, err := c.site(e)
	if err != nil {
		return 0, err
	}
	k := bytecode.NoReg
	if c.drawK >= 0 {
		k = c.drawK
	}
	if e.fn == "rand" {
		r, err := c.alloc(e.p)
		if err != nil {
			return 0, err
		}
		c.emit(e.p, "", bytecode.OpRANDF, r, k, site)
		return r, nil
	}
	if t == bytecode.Int && c.isConstExpr(e.args[0]) && c.isConstExpr(e.args[1]) {
		return c.drawIntConst(e, site, k)
	}
	lo, err := c.expr(e.args[0], t)
	if err != nil {
		return 0, err
	}
	hi, err := c.expr(e.args[1], t)
	if err != nil {
		return 0, err
	}
	// The result and two temporaries above both bounds (either may be a
	// local's register, below mark).
	c.nextReg = max(mark, lo+1, hi+1)
	r, u, err := c.allocResultTemp(e.p)
	if err != nil {
		return 0, err
	}
	if t == bytecode.Float {
		// LO + (HI - LO) * u, each operation rounded to float32.
		c.emit(e.p, "", bytecode.OpRANDF, u, k, site)
		c.emit(e.p, "", bytecode.OpFSUB, r, hi, lo)
		c.emit(e.p, "", bytecode.OpFMUL, r, r, u)
		c.emit(e.p, "", bytecode.OpFADD, r, lo, r)
	} else {
		// HI < LO faults: ILE gives 0, and the division by it is named
		// as the draw's (runtimeError).
		c.emit(e.p, "", bytecode.OpILE, u, lo, hi)
		c.emit(e.p, "uniform", bytecode.OpIDIV, u, u, u)
		c.emitImm(e.p, bytecode.OpLDI, u, 1)
		c.emit(e.p, "", bytecode.OpISUB, r, hi, lo)
		c.emit(e.p, "", bytecode.OpIADD, r, r, u) // the span: 0 is 2^32
		c.emit(e.p, "", bytecode.OpRAND, u, k, site)
		c.emit(e.p, "", bytecode.OpURANGE, u, u, r)
		c.emit(e.p, "", bytecode.OpIADD, r, lo, u)
	}
	c.nextReg = r + 1 // the value may sit above mark, as an indexed load's index does
	return r, nil
}

// drawIntConst compiles uniform(LO, HI) of constant bounds: the span is a
// constant, HI < LO a compile error.
func (c *compiler) drawIntConst(e *callExpr, site, k int) (int, error) {
	lo, err := c.evalConst(e.args[0])
	if err != nil {
		return 0, err
	}
	hi, err := c.evalConst(e.args[1])
	if err != nil {
		return 0, err
	}
	for _, v := range []int64{lo.i, hi.i} {
		if v > math.MaxInt32 || v < math.MinInt32 {
			return 0, c.errAt(e.p, "uniform bound %d does not fit in 32 bits", v)
		}
	}
	if hi.i < lo.i {
		return 0, c.errAt(e.p, "uniform(%d, %d): the upper bound is below the lower", lo.i, hi.i)
	}
	r, u, err := c.allocResultTemp(e.p)
	if err != nil {
		return 0, err
	}
	c.emit(e.p, "", bytecode.OpRAND, r, k, site)
	c.emitImm(e.p, bytecode.OpLDI, u, uint32(hi.i-lo.i+1)) // 2^32 wraps to 0: the full range
	c.emit(e.p, "", bytecode.OpURANGE, r, r, u)
	c.emitImm(e.p, bytecode.OpLDI, u, uint32(int32(lo.i)))
	c.emit(e.p, "", bytecode.OpIADD, r, r, u)
	c.nextReg = r + 1
	return r, nil
}

// allocResultTemp allocates a draw's result register and the temporary
// above it.
func (c *compiler) allocResultTemp(p bytecode.Pos) (r, u int, err error) {
	if r, err = c.alloc(p); err != nil {
		return 0, 0, err
	}
	if u, err = c.alloc(p); err != nil {
		return 0, 0, err
	}
	return r, u, nil
}
