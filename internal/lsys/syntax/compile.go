package syntax

import (
	"math"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// maxCode bounds an expression's instructions and constants: jump targets
// and constant indexes are 16-bit.
const maxCode = math.MaxUint16

// emitter compiles a node tree to stack bytecode, tracking the operand
// stack's depth so that deeper expressions than the GPU interpreter's fixed
// stack are rejected here rather than at run time.
type emitter struct {
	code   []lsys.Instr
	consts []float64
	index  map[uint64]uint16
	depth  int
	max    int
}

// compile turns n into an lsys.Expr; text and pos describe its source.
func (s *source) compile(n *node, text string, off int) (lsys.Expr, error) {
	e := &emitter{index: map[uint64]uint16{}}
	e.emit(n)
	pos := s.pos(off)
	if len(e.code) > maxCode || len(e.consts) > maxCode {
		return lsys.Expr{}, &Error{Pos: pos, Msg: "expression too long: expected at most 65535 instructions"}
	}
	if e.max > lsys.MaxStack {
		return lsys.Expr{}, &Error{Pos: pos, Msg: "expression too complex: it needs a stack of " +
			plural(e.max, "value") + ", at most " + plural(lsys.MaxStack, "value")}
	}
	return lsys.Expr{Code: e.code, Consts: e.consts, Text: text, Pos: pos}, nil
}

// constExpr is the compiled form of a constant, as the axiom stores it.
func constExpr(v float64, text string, pos lsys.Pos) lsys.Expr {
	return lsys.Expr{Code: []lsys.Instr{{Op: lsys.OpConst}}, Consts: []float64{v}, Text: text, Pos: pos}
}

func (e *emitter) op(op lsys.Op, arg int, delta int) {
	e.code = append(e.code, lsys.Instr{Op: op, Arg: uint16(arg)})
	e.depth += delta
	if e.depth > e.max {
		e.max = e.depth
	}
}

func (e *emitter) emit(n *node) {
	switch n.kind {
	case nNum:
		bits := math.Float64bits(n.val)
		k, ok := e.index[bits]
		if !ok {
			k = uint16(len(e.consts))
			e.index[bits] = k
			e.consts = append(e.consts, n.val)
		}
		e.op(lsys.OpConst, int(k), 1)
	case nSlot:
		e.op(lsys.OpSlot, n.slot, 1)
	case nUnary:
		e.emit(n.a)
		e.op(n.op, 0, 0)
	case nBinary:
		e.emit(n.a)
		e.emit(n.b)
		e.op(n.op, 0, -1)
	case nCall:
		for _, a := range n.args {
			e.emit(a)
		}
		if n.fn.Random() {
			// The call site (lsys/random.go): its source offset plus one,
			// unique in the file, keeps two calls' draws apart.
			e.emit(&node{kind: nNum, val: float64(n.off + 1)})
		}
		e.op(lsys.OpCall, int(n.fn), 1-n.fn.Args())
	case nAnd, nOr:
		// a; jump-if-decided L; (a popped) b; L: bool. Both paths reach L
		// with one value on the stack.
		jump := lsys.OpAndJump
		if n.kind == nOr {
			jump = lsys.OpOrJump
		}
		e.emit(n.a)
		at := len(e.code)
		e.op(jump, 0, -1)
		e.emit(n.b)
		e.code[at].Arg = uint16(len(e.code))
		e.op(lsys.OpBool, 0, 0)
	}
}
