package syntax

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// compileArg parses "A(x,y,z) -> B(expr)" and returns B's argument.
func compileArg(t *testing.T, expr string) lsys.Expr {
	t.Helper()
	sys := mustParse(t, "axiom: A(2,3,-1)\nA(x,y,z) -> B("+expr+")\n")
	checkSystem(t, sys)
	return sys.Prods[0].Succ[0].Args[0]
}

func TestExprValues(t *testing.T) {
	slots := []float64{2, 3, -1} // x, y, z
	tests := []struct {
		expr string
		want float64
	}{
		{"1+2*3", 7},
		{"(1+2)*3", 9},
		{"10-4-3", 3},
		{"8/4/2", 1},
		{"2*3/4", 1.5},
		{"-2^2", -4},
		{"-x^2", -4},
		{"(-x)^2", 4},
		{"2^-1", 0.5},
		{"2^3^2", 512},
		{"x^y", 8},
		{"2*x^2", 8},
		{"-x*y", -6},
		{"x - -y", 5},
		{"x--y", 5},
		{"+x", 2},
		{"!0", 1},
		{"!x", 0},
		{"!x == 0", 1},
		{"!!y", 1},
		{"1 < 2 == 1", 1},
		{"x+1 > y", 0},
		{"x >= 2 && x <= 2 && x != 3 && x == 2", 1},
		{"x > 1 && y < 3", 0},
		{"x > 1 || y < 3", 1},
		{"x && y", 1},
		{"z || 0", 1},
		{"0 || 0", 0},
		{"0 && 1/0", 0},
		{"1 || 1/0", 1},
		{"1 && 2 || 0 && 1/0", 1},
		{"0 || 1 && 0", 0},
		{"(0 || 1) && 1", 1},
		{".5 + 1e-3", 0.501},
		{"1E2 + 2.e1", 120},
		{"sin(90)", 1},
		{"cos(0)", 1},
		{"atan2(1, 1)", 45},
		{"atan(1)", 45},
		{"asin(1)", 90},
		{"acos(1)", 0},
		{"sqrt(16)", 4},
		{"exp(0)", 1},
		{"log(1)", 0},
		{"floor(2.5)", 2},
		{"ceil(2.5)", 3},
		{"trunc(-2.5)", -2},
		{"abs(z)", 1},
		{"sign(z)", -1},
		{"min(x, y)", 2},
		{"max(x,y)", 3},
		{"max(min(x, y), z) * 2", 4},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			e := compileArg(t, tt.expr)
			if e.Text != tt.expr {
				t.Errorf("Text = %q", e.Text)
			}
			got, err := e.Eval(slots)
			if err != nil || math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("%s = %v, %v; want %v", tt.expr, got, err, tt.want)
			}
			if strings.ContainsAny(tt.expr, "xyz") {
				return
			}
			// The same expression as a constant gets the same value.
			sys := mustParse(t, "#define v "+tt.expr+"\naxiom: F(v)")
			if v := sys.Defines["v"]; v != got {
				t.Errorf("#define v %s = %v, bytecode %v", tt.expr, v, got)
			}
		})
	}
}

func TestExprRuntimeErrors(t *testing.T) {
	// Errors the parser leaves to the evaluator keep the expression's text
	// and position.
	e := compileArg(t, "x/(y-3)")
	_, err := e.Eval([]float64{2, 3, -1})
	var xe *lsys.ExprError
	if !errors.Is(err, lsys.ErrDivZero) || !errors.As(err, &xe) || xe.Text != "x/(y-3)" ||
		xe.Pos != (lsys.Pos{File: "t.l", Line: 2, Col: 15}) {
		t.Errorf("got %v", err)
	}
}

func TestExprFolding(t *testing.T) {
	tests := []struct {
		expr string
		ops  []lsys.Op
	}{
		{"2*3+x", []lsys.Op{lsys.OpConst, lsys.OpSlot, lsys.OpAdd}},
		{"-(4)/2", []lsys.Op{lsys.OpConst}},
		{"x*2*3", []lsys.Op{lsys.OpSlot, lsys.OpConst, lsys.OpMul, lsys.OpConst, lsys.OpMul}},
		{"2^2", []lsys.Op{lsys.OpConst, lsys.OpConst, lsys.OpPow}},
		{"1/0", []lsys.Op{lsys.OpConst, lsys.OpConst, lsys.OpDiv}},
		{"sin(0)", []lsys.Op{lsys.OpConst, lsys.OpCall}},
		{"x && y", []lsys.Op{lsys.OpSlot, lsys.OpAndJump, lsys.OpSlot, lsys.OpBool}},
		{"x || y", []lsys.Op{lsys.OpSlot, lsys.OpOrJump, lsys.OpSlot, lsys.OpBool}},
		{"!x", []lsys.Op{lsys.OpSlot, lsys.OpNot}},
		{"-x", []lsys.Op{lsys.OpSlot, lsys.OpNeg}},
	}
	for _, tt := range tests {
		e := compileArg(t, tt.expr)
		var ops []lsys.Op
		for _, in := range e.Code {
			ops = append(ops, in.Op)
		}
		if len(ops) != len(tt.ops) {
			t.Errorf("%s compiles to %v, want ops %v", tt.expr, e.Code, tt.ops)
			continue
		}
		for i := range ops {
			if ops[i] != tt.ops[i] {
				t.Errorf("%s compiles to %v, want ops %v", tt.expr, e.Code, tt.ops)
				break
			}
		}
	}
	// Constants are shared in the pool.
	if e := compileArg(t, "x*1.5+y*1.5"); len(e.Consts) != 1 {
		t.Errorf("constants %v", e.Consts)
	}
	// A fold that overflows is left to the evaluator, whose error it is.
	e := compileArg(t, "1e308*10")
	if _, err := e.Eval([]float64{2, 3, -1}); !errors.Is(err, lsys.ErrNonFinite) {
		t.Errorf("1e308*10: %v", err)
	}
}

func TestExprStackLimit(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("x-(", n) + "x" + strings.Repeat(")", n) }
	e := compileArg(t, nest(lsys.MaxStack-1)) // depth exactly MaxStack
	if v, err := e.Eval([]float64{2, 3, -1}); err != nil || v != 0 {
		t.Errorf("deepest allowed expression: %v, %v", v, err)
	}
	_, err := Parse("t.l", []byte("axiom: A(1,2,3)\nA(x,y,z) -> B("+nest(lsys.MaxStack)+")"))
	if err == nil || !strings.Contains(err.Error(), "expression too complex") {
		t.Errorf("one level deeper: %v", err)
	}
	// Depth counts operands waiting on the stack, not parentheses.
	compileArg(t, strings.Repeat("(", 50)+"x"+strings.Repeat(")", 50))
	compileArg(t, strings.Repeat("x+", 200)+"x")
}

func TestDefines(t *testing.T) {
	sys := mustParse(t, `#define c 1
#define p 0.3
#define q c-p
#define h (p*q)^0.5
#define r sin(30) + max(1, 2)
#define flag c > p && !(q == 0)
axiom: F(h)
`)
	want := map[string]float64{"c": 1, "p": 0.3, "q": 1 - 0.3, "h": lsys.Pow((1-0.3)*0.3, 0.5),
		"r": lsys.SinDeg(30) + 2, "flag": 1}
	for k, v := range want {
		if sys.Defines[k] != v {
			t.Errorf("%s = %v, want %v", k, sys.Defines[k], v)
		}
	}
	if len(sys.Defines) != len(want) {
		t.Errorf("defines %v", sys.Defines)
	}
	if got := sys.Axiom[0].Args[0]; got.Consts[0] != want["h"] || got.Text != "h" || got.Pos.Col != 10 {
		t.Errorf("axiom argument %+v", got)
	}
}
