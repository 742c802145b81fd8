package lsys

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestEval(t *testing.T) {
	x, y := slot(0, "x"), slot(1, "y")
	slots := []float64{3, -2}
	for _, c := range []struct {
		e    ex
		want float64
	}{
		{num(2.5), 2.5},
		{bin(OpAdd, x, bin(OpMul, y, num(4))), -5},
		{bin(OpSub, x, y), 5},
		{bin(OpDiv, x, y), -1.5},
		{bin(OpPow, x, num(2)), 9},
		{bin(OpPow, y, num(3)), -8},
		{bin(OpPow, num(2), num(0.5)), math.Sqrt2},
		{neg(x), -3},
		{cat(x, ex{code: []Instr{{Op: OpNot}}}), 0},
		{bin(OpLt, y, x), 1}, {bin(OpLe, x, x), 1}, {bin(OpGt, y, x), 0}, {bin(OpGe, y, x), 0},
		{bin(OpEq, x, num(3)), 1}, {bin(OpNe, x, num(3)), 0},
		{logic(true, bin(OpGt, x, num(0)), bin(OpLt, y, num(0))), 1},
		{logic(true, bin(OpGt, x, num(5)), bin(OpDiv, num(1), num(0))), 0}, // short circuit: no division
		{logic(false, bin(OpGt, x, num(0)), bin(OpDiv, num(1), num(0))), 1},
		{logic(false, bin(OpGt, x, num(5)), y), 1},
		{logic(false, bin(OpGt, x, num(5)), num(0)), 0},
		{call(FnSin, num(90)), 1}, {call(FnCos, num(180)), -1}, {call(FnTan, num(45)), 1},
		{call(FnAsin, num(1)), 90}, {call(FnAcos, num(0)), 90}, {call(FnAtan, num(1)), 45},
		{call(FnAtan2, num(1), num(-1)), 135}, {call(FnSqrt, num(16)), 4},
		{call(FnExp, num(0)), 1}, {call(FnLog, num(1)), 0},
		{call(FnFloor, num(-1.5)), -2}, {call(FnCeil, num(-1.5)), -1}, {call(FnTrunc, num(-1.5)), -1},
		{call(FnAbs, y), 2}, {call(FnSign, y), -1}, {call(FnSign, num(0)), 0},
		{call(FnMin, x, y), -2}, {call(FnMax, x, y), 3},
	} {
		e := c.e.expr()
		if err := e.Check(2); err != nil {
			t.Fatalf("%s: %v", e.Text, err)
		}
		got, err := e.Eval(slots)
		if err != nil || got != c.want {
			t.Errorf("%s = %v, %v; want %v", e.Text, got, err, c.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	x := slot(0, "x")
	for _, c := range []struct {
		e    ex
		want error
	}{
		{bin(OpDiv, x, num(0)), ErrDivZero},
		{bin(OpPow, num(0), num(-1)), ErrDivZero},
		{bin(OpPow, neg(x), num(0.5)), ErrDomain},
		{call(FnLog, num(0)), ErrDomain},
		{call(FnLog, neg(x)), ErrDomain},
		{call(FnSqrt, neg(x)), ErrDomain},
		{call(FnAsin, num(1.5)), ErrDomain},
		{call(FnAcos, num(-1.0000001)), ErrDomain},
		{bin(OpMul, num(1e300), num(1e300)), ErrNonFinite},
		{call(FnExp, num(1000)), ErrNonFinite},
		{call(FnTan, num(90)), ErrNonFinite},
		{bin(OpPow, num(10), num(400)), ErrNonFinite},
	} {
		e := c.e.expr()
		e.Pos = Pos{File: "f.l", Line: 3, Col: 7}
		_, err := e.Eval([]float64{2})
		var ee *ExprError
		if !errors.Is(err, c.want) || !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "f.l:3:7: expression "+`"`+e.Text) {
			t.Errorf("%s: err %v, want %v", e.Text, err, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		e    Expr
	}{
		{"empty", Expr{}},
		{"underflow", Expr{Code: []Instr{{Op: OpAdd}}}},
		{"two results", Expr{Code: []Instr{{Op: OpConst}, {Op: OpConst}}, Consts: []float64{1}}},
		{"const index", Expr{Code: []Instr{{Op: OpConst, Arg: 1}}, Consts: []float64{1}}},
		{"slot", Expr{Code: []Instr{{Op: OpSlot, Arg: 2}}}},
		{"jump back", Expr{Code: []Instr{{Op: OpConst}, {Op: OpAndJump, Arg: 0}}, Consts: []float64{1}}},
		{"function", Expr{Code: []Instr{{Op: OpConst}, {Op: OpCall, Arg: uint16(NumFuncs)}}, Consts: []float64{1}}},
		{"nan constant", Expr{Code: []Instr{{Op: OpConst}}, Consts: []float64{math.NaN()}}},
		{"deep", func() Expr {
			var e Expr
			e.Consts = []float64{1}
			for i := 0; i <= MaxStack; i++ {
				e.Code = append(e.Code, Instr{Op: OpConst})
			}
			for i := 0; i < MaxStack; i++ {
				e.Code = append(e.Code, Instr{Op: OpAdd})
			}
			return e
		}()},
	} {
		if err := c.e.Check(2); !errors.Is(err, ErrBadCode) {
			t.Errorf("%s: Check = %v", c.name, err)
		}
	}
}

func TestEvalDoesNotAllocate(t *testing.T) {
	x, y := slot(0, "x"), slot(1, "y")
	e := logic(true, bin(OpGt, call(FnSin, x), num(0)), bin(OpLt, bin(OpPow, y, num(1.5)), call(FnAtan2, x, y))).expr()
	slots := []float64{30, 2}
	var sink float64
	if n := testing.AllocsPerRun(1000, func() { v, _ := e.Eval(slots); sink += v }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

func BenchmarkEval(b *testing.B) {
	x := slot(0, "x")
	for _, c := range []struct {
		name string
		e    ex
	}{
		{"x*0.3", bin(OpMul, x, num(0.3))},
		{"x*0.5+1>2&&sin(x)<0.5", logic(true, bin(OpGt, bin(OpAdd, bin(OpMul, x, num(0.5)), num(1)), num(2)),
			bin(OpLt, call(FnSin, x), num(0.5)))},
	} {
		e := c.e.expr()
		slots := []float64{7}
		b.Run(c.name, func(b *testing.B) {
			s := 0.0
			for b.Loop() {
				v, _ := e.Eval(slots)
				s += v
			}
			_ = s
		})
	}
}
