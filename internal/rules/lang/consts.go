package lang

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// constVal is a compile-time constant: an integer (untyped, fits int32
// where used) or a float.
type constVal struct {
	isFloat bool
	i       int64
	f       float64
}

func (v constVal) float() float64 {
	if v.isFloat {
		return v.f
	}
	return float64(v.i)
}

func (v constVal) String() string {
	if v.isFloat {
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	}
	return strconv.FormatInt(v.i, 10)
}

// parseDefine parses a --define value: an integer or a float.
func parseDefine(s string) (constVal, error) {
	s = strings.TrimSpace(s)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		if i > math.MaxInt32 || i < math.MinInt32 {
			return constVal{}, fmt.Errorf("%s does not fit in 32 bits", s)
		}
		return constVal{i: i}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return constVal{}, fmt.Errorf("%q is not a number", s)
	}
	return constVal{isFloat: true, f: f}, nil
}

// isConstExpr reports whether e uses literals and constants only.
func (c *compiler) isConstExpr(e expr) bool {
	switch e := e.(type) {
	case *numLit:
		return true
	case *nameRef:
		_, ok := c.consts[e.name]
		return ok && c.lookupLocal(e.name) == nil
	case *unaryExpr:
		return c.isConstExpr(e.x)
	case *binaryExpr:
		return c.isConstExpr(e.x) && c.isConstExpr(e.y)
	case *callExpr:
		if isDraw(e.fn) {
			return false
		}
		for _, a := range e.args {
			if !c.isConstExpr(a) {
				return false
			}
		}
		return true
	}
	return false
}

// evalConst evaluates a constant expression with the language's semantics
// (int32 wrapping, Euclidean %, float32 rounding only where stored).
func (c *compiler) evalConst(e expr) (constVal, error) {
	switch e := e.(type) {
	case *numLit:
		return constVal{isFloat: e.isFloat, i: e.i, f: e.f}, nil
	case *nameRef:
		v, ok := c.consts[e.name]
		if _, sw := c.swept[e.name]; !ok && sw {
			return constVal{}, c.errAt(e.p, "%s is swept (-D %s=LO:HI:STEP or A,B,C): a swept constant is a value per state; it cannot size a field, bound a range or repeat, initialise a field or define another constant", e.name, e.name)
		}
		if !ok {
			return constVal{}, c.errAt(e.p, "%s is not a constant (only literals and consts may appear here)", c.describeName(e.name))
		}
		return v, nil
	case *unaryExpr:
		x, err := c.evalConst(e.x)
		if err != nil {
			return x, err
		}
		switch e.op {
		case "-":
			if x.isFloat {
				return constVal{isFloat: true, f: -x.f}, nil
			}
			return constVal{i: int64(-int32(x.i))}, nil
		case "~", "!":
			if x.isFloat {
				return x, c.errAt(e.p, "operator %s needs an int, not a float", e.op)
			}
			if e.op == "~" {
				return constVal{i: int64(^int32(x.i))}, nil
			}
			return constVal{i: b2i(x.i == 0)}, nil
		}
	case *binaryExpr:
		x, err := c.evalConst(e.x)
		if err != nil {
			return x, err
		}
		y, err := c.evalConst(e.y)
		if err != nil {
			return y, err
		}
		if x.isFloat || y.isFloat {
			a, b := x.float(), y.float()
			switch e.op {
			case "+":
				return constVal{isFloat: true, f: a + b}, nil
			case "-":
				return constVal{isFloat: true, f: a - b}, nil
			case "*":
				return constVal{isFloat: true, f: a * b}, nil
			case "/":
				return constVal{isFloat: true, f: a / b}, nil
			case "<":
				return constVal{i: b2i(a < b)}, nil
			case "<=":
				return constVal{i: b2i(a <= b)}, nil
			case ">":
				return constVal{i: b2i(a > b)}, nil
			case ">=":
				return constVal{i: b2i(a >= b)}, nil
			case "==":
				return constVal{i: b2i(a == b)}, nil
			case "!=":
				return constVal{i: b2i(a != b)}, nil
			}
			return x, c.errAt(e.p, "operator %s needs ints, not floats", e.op)
		}
		a, b := int32(x.i), int32(y.i)
		if (e.op == "/" || e.op == "%") && b == 0 {
			return x, c.errAt(e.p, "division by zero in a constant expression")
		}
		return constVal{i: int64(intOp(e.op, a, b))}, nil
	case *callExpr:
		if len(e.args) == 0 {
			break
		}
		args := make([]constVal, len(e.args))
		for k, a := range e.args {
			v, err := c.evalConst(a)
			if err != nil {
				return v, err
			}
			args[k] = v
		}
		switch {
		case e.fn == "int" && len(args) == 1:
			if args[0].isFloat {
				return constVal{i: int64(bytecode.F2I(float32(args[0].f)))}, nil
			}
			return args[0], nil
		case e.fn == "float" && len(args) == 1:
			return constVal{isFloat: true, f: args[0].float()}, nil
		case e.fn == "abs" && len(args) == 1:
			if args[0].isFloat {
				return constVal{isFloat: true, f: math.Abs(args[0].f)}, nil
			}
			return constVal{i: int64(bytecode.IAbs(int32(args[0].i)))}, nil
		case (e.fn == "min" || e.fn == "max") && len(args) == 2:
			a, b := args[0], args[1]
			if a.isFloat || b.isFloat {
				if (e.fn == "min") == (a.float() < b.float()) {
					return constVal{isFloat: true, f: a.float()}, nil
				}
				return constVal{isFloat: true, f: b.float()}, nil
			}
			if (e.fn == "min") == (a.i < b.i) {
				return a, nil
			}
			return b, nil
		}
	}
	return constVal{}, c.errAt(e.at(), "not a constant expression")
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// intOp is the language's integer arithmetic (the CPU interpreter's too).
// Division and modulo by zero are the caller's to catch.
func intOp(op string, a, b int32) int32 {
	switch op {
	case "+":
		return a + b
	case "-":
		return a - b
	case "*":
		return a * b
	case "/":
		return bytecode.IDiv(a, b)
	case "%":
		return bytecode.IMod(a, b)
	case "&":
		return a & b
	case "|":
		return a | b
	case "^":
		return a ^ b
	case "<<":
		return a << (uint32(b) & 31)
	case ">>":
		return a >> (uint32(b) & 31)
	case "==":
		return int32(b2i(a == b))
	case "!=":
		return int32(b2i(a != b))
	case "<":
		return int32(b2i(a < b))
	case "<=":
		return int32(b2i(a <= b))
	case ">":
		return int32(b2i(a > b))
	case ">=":
		return int32(b2i(a >= b))
	case "&&":
		return int32(b2i(a != 0 && b != 0))
	case "||":
		return int32(b2i(a != 0 || b != 0))
	}
	panic("rules: unknown int operator " + op)
}
