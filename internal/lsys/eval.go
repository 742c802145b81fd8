package lsys

import (
	"errors"
	"fmt"
	"math"
)

// Expression errors. Eval wraps them in an *ExprError naming the expression,
// so errors.Is(err, ErrDivZero) works at every level.
var (
	ErrDivZero   = errors.New("division by zero")
	ErrDomain    = errors.New("argument outside the function's domain")
	ErrNonFinite = errors.New("result is not finite")
	// ErrBadCode means an expression's bytecode is malformed (a parser bug,
	// or a System built by hand); Check reports it before any evaluation.
	ErrBadCode = errors.New("malformed expression bytecode")
)

// ExprError is an expression that failed to evaluate.
type ExprError struct {
	Text   string // the expression's source text
	Pos    Pos
	Detail string // the failing operation, e.g. "log(-2)"
	Err    error  // ErrDivZero, ErrDomain, ErrNonFinite or ErrBadCode
}

func (e *ExprError) Error() string {
	where := ""
	if e.Pos.Line > 0 {
		where = fmt.Sprintf("%d:%d: ", e.Pos.Line, e.Pos.Col)
		if e.Pos.File != "" {
			where = e.Pos.File + ":" + where
		}
	}
	if e.Detail != "" {
		return fmt.Sprintf("%sexpression %q: %s: %v", where, e.Text, e.Detail, e.Err)
	}
	return fmt.Sprintf("%sexpression %q: %v", where, e.Text, e.Err)
}

func (e *ExprError) Unwrap() error { return e.Err }

// fail builds the error on the cold path, so Eval itself never allocates.
func (e *Expr) fail(err error, format string, args ...any) error {
	return &ExprError{Text: e.Text, Pos: e.Pos, Detail: fmt.Sprintf(format, args...), Err: err}
}

var funcNames = [NumFuncs]string{"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sqrt",
	"exp", "log", "floor", "ceil", "trunc", "abs", "sign", "min", "max", "ran", "nran", "uniform"}

func (f Func) String() string {
	if f < NumFuncs {
		return funcNames[f]
	}
	return fmt.Sprintf("func%d", uint8(f))
}

// Check verifies that the bytecode is well formed for nslots slots: operand
// indices in range, no stack underflow or overflow (MaxStack), jumps forward
// to a point with the same stack depth, constants finite, one result. Eval
// assumes a checked expression.
func (e *Expr) Check(nslots int) error {
	bad := func(pc int, why string) error {
		return &ExprError{Text: e.Text, Pos: e.Pos, Detail: fmt.Sprintf("instruction %d: %s", pc, why), Err: ErrBadCode}
	}
	for i, c := range e.Consts {
		if !isFinite(c) {
			return bad(-1, fmt.Sprintf("constant %d is %v", i, c))
		}
	}
	want := make(map[int]int) // jump target -> stack depth there
	sp := 0
	need := func(n int) bool { return sp >= n }
	for pc, in := range e.Code {
		if d, ok := want[pc]; ok && d != sp {
			return bad(pc, "inconsistent stack depth at a jump target")
		}
		switch in.Op {
		case OpConst:
			if int(in.Arg) >= len(e.Consts) {
				return bad(pc, "constant index out of range")
			}
			sp++
		case OpSlot:
			if int(in.Arg) >= nslots {
				return bad(pc, fmt.Sprintf("slot %d of %d", in.Arg, nslots))
			}
			sp++
		case OpNeg, OpNot, OpBool:
			if !need(1) {
				return bad(pc, "stack underflow")
			}
		case OpAdd, OpSub, OpMul, OpDiv, OpPow, OpLt, OpLe, OpGt, OpGe, OpEq, OpNe:
			if !need(2) {
				return bad(pc, "stack underflow")
			}
			sp--
		case OpAndJump, OpOrJump:
			if !need(1) {
				return bad(pc, "stack underflow")
			}
			t := int(in.Arg)
			if t <= pc || t > len(e.Code) {
				return bad(pc, "jump target out of range")
			}
			if d, ok := want[t]; ok && d != sp {
				return bad(pc, "inconsistent stack depth at a jump target")
			}
			want[t] = sp
			sp--
		case OpCall:
			if in.Arg >= uint16(NumFuncs) {
				return bad(pc, "unknown function")
			}
			n := Func(in.Arg).Args()
			if !need(n) {
				return bad(pc, "stack underflow")
			}
			if Func(in.Arg).Random() && !siteBefore(e, pc) {
				return bad(pc, "a random function's last operand must be its call site, a constant integer from 1 to 2^53")
			}
			sp -= n - 1
		default:
			return bad(pc, fmt.Sprintf("unknown op %d", in.Op))
		}
		if sp > MaxStack {
			return bad(pc, "stack deeper than MaxStack")
		}
	}
	if d, ok := want[len(e.Code)]; ok && d != sp {
		return bad(len(e.Code), "inconsistent stack depth at a jump target")
	}
	if sp != 1 {
		return bad(len(e.Code), fmt.Sprintf("leaves %d values, want 1", sp))
	}
	return nil
}

// siteBefore reports whether the instruction before the call at pc pushes a
// call site (random.go): a constant integer in [1, 2^53], which converts to
// the same uint64 on every backend.
func siteBefore(e *Expr, pc int) bool {
	if pc == 0 || e.Code[pc-1].Op != OpConst || int(e.Code[pc-1].Arg) >= len(e.Consts) {
		return false
	}
	v := e.Consts[e.Code[pc-1].Arg]
	return v >= 1 && v <= 1<<53 && v == math.Trunc(v)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Eval runs the expression over slots with the random key 0 (see EvalKey).
func (e *Expr) Eval(slots []float64) (float64, error) { return e.EvalKey(slots, 0) }

// EvalKey runs the expression over slots; key keys its random functions
// (RandKey: the seed, the step and the module). It does not allocate unless it fails.
// Every arithmetic result must be finite: division by zero, a function
// outside its domain, overflow to ±Inf or NaN are errors, not values, so the
// CPU and the GPU (which checks the same things) agree on which productions
// fail. The expression must have passed Check.
func (e *Expr) EvalKey(slots []float64, key uint64) (float64, error) {
	var st [MaxStack]float64
	sp := 0
	code := e.Code
	for pc := 0; pc < len(code); pc++ {
		in := code[pc]
		switch in.Op {
		case OpConst:
			st[sp] = e.Consts[in.Arg]
			sp++
		case OpSlot:
			st[sp] = slots[in.Arg]
			sp++
		case OpNeg:
			st[sp-1] = -st[sp-1]
		case OpNot:
			st[sp-1] = b2f(st[sp-1] == 0)
		case OpBool:
			st[sp-1] = b2f(st[sp-1] != 0)
		case OpAndJump:
			if st[sp-1] == 0 {
				pc = int(in.Arg) - 1
			} else {
				sp--
			}
		case OpOrJump:
			if st[sp-1] != 0 {
				pc = int(in.Arg) - 1
			} else {
				sp--
			}
		case OpCall:
			f := Func(in.Arg)
			if f.Random() {
				// Operands (a, site) or (a, b, site); the stack array must
				// not escape, so they go by value.
				n := f.Args()
				sp -= n - 1
				a, b, site := st[sp-1], st[sp], st[sp]
				if n == 3 {
					site = st[sp+1]
				}
				v, err := e.random(f, a, b, site, key)
				if err != nil {
					return 0, err
				}
				st[sp-1] = v
			} else if f.Args() == 2 {
				sp--
				v, err := e.call2(f, st[sp-1], st[sp])
				if err != nil {
					return 0, err
				}
				st[sp-1] = v
			} else {
				v, err := e.call1(f, st[sp-1])
				if err != nil {
					return 0, err
				}
				st[sp-1] = v
			}
		default:
			sp--
			a, b := st[sp-1], st[sp]
			var v float64
			switch in.Op {
			case OpAdd:
				v = a + b
			case OpSub:
				v = a - b
			case OpMul:
				v = a * b
			case OpDiv:
				if b == 0 {
					return 0, e.fail(ErrDivZero, "%v / %v", a, b)
				}
				v = a / b
			case OpPow:
				if a < 0 && b != math.Trunc(b) {
					return 0, e.fail(ErrDomain, "%v ^ %v (negative base, fractional exponent)", a, b)
				}
				if a == 0 && b < 0 {
					return 0, e.fail(ErrDivZero, "%v ^ %v", a, b)
				}
				v = Pow(a, b)
			case OpLt:
				v = b2f(a < b)
			case OpLe:
				v = b2f(a <= b)
			case OpGt:
				v = b2f(a > b)
			case OpGe:
				v = b2f(a >= b)
			case OpEq:
				v = b2f(a == b)
			case OpNe:
				v = b2f(a != b)
			default:
				return 0, e.fail(ErrBadCode, "op %d at %d", in.Op, pc)
			}
			if !isFinite(v) {
				return 0, e.fail(ErrNonFinite, "%v %s %v", a, opSymbol(in.Op), b)
			}
			st[sp-1] = v
		}
	}
	return st[0], nil
}

func opSymbol(op Op) string {
	switch op {
	case OpAdd:
		return "+"
	case OpSub:
		return "-"
	case OpMul:
		return "*"
	case OpDiv:
		return "/"
	case OpPow:
		return "^"
	}
	return fmt.Sprintf("op%d", op)
}

func (e *Expr) call1(f Func, a float64) (float64, error) {
	var v float64
	switch f {
	case FnSin:
		v = SinDeg(a)
	case FnCos:
		v = CosDeg(a)
	case FnTan:
		v = TanDeg(a)
	case FnAsin, FnAcos:
		if !(a >= -1 && a <= 1) {
			return 0, e.fail(ErrDomain, "%s(%v)", f, a)
		}
		if f == FnAsin {
			v = AsinDeg(a)
		} else {
			v = AcosDeg(a)
		}
	case FnAtan:
		v = AtanDeg(a)
	case FnSqrt:
		if a < 0 {
			return 0, e.fail(ErrDomain, "sqrt(%v)", a)
		}
		v = math.Sqrt(a)
	case FnExp:
		v = Exp(a)
	case FnLog:
		if a <= 0 {
			return 0, e.fail(ErrDomain, "log(%v)", a)
		}
		v = Log(a)
	case FnFloor:
		v = math.Floor(a)
	case FnCeil:
		v = math.Ceil(a)
	case FnTrunc:
		v = math.Trunc(a)
	case FnAbs:
		v = math.Abs(a)
	case FnSign:
		v = b2f(a > 0) - b2f(a < 0)
	default:
		return 0, e.fail(ErrBadCode, "function %d with one argument", f)
	}
	if !isFinite(v) {
		return 0, e.fail(ErrNonFinite, "%s(%v)", f, a)
	}
	return v, nil
}

func (e *Expr) call2(f Func, a, b float64) (float64, error) {
	var v float64
	switch f {
	case FnAtan2:
		v = Atan2Deg(a, b)
	case FnMin: // written out: the GPU evaluates the same comparison
		if a < b {
			v = a
		} else {
			v = b
		}
	case FnMax:
		if a > b {
			v = a
		} else {
			v = b
		}
	default:
		return 0, e.fail(ErrBadCode, "function %d with two arguments", f)
	}
	if !isFinite(v) {
		return 0, e.fail(ErrNonFinite, "%s(%v, %v)", f, a, b)
	}
	return v, nil
}
