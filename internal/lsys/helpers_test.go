package lsys

import (
	"fmt"
	"strconv"
	"strings"
)

// Test helpers that build Systems directly (the parser lives in
// internal/lsys/syntax and is not a dependency of these tests).

// ex is an expression under construction: bytecode with its own constant
// pool and source text.
type ex struct {
	code   []Instr
	consts []float64
	text   string
}

func num(v float64) ex {
	return ex{code: []Instr{{Op: OpConst}}, consts: []float64{v}, text: strconv.FormatFloat(v, 'g', -1, 64)}
}

func slot(i int, name string) ex { return ex{code: []Instr{{Op: OpSlot, Arg: uint16(i)}}, text: name} }

// cat appends b's code to a's, relocating b's constants and jumps.
func cat(a, b ex) ex {
	out := ex{code: append([]Instr(nil), a.code...), consts: append([]float64(nil), a.consts...)}
	base, at := uint16(len(out.consts)), uint16(len(out.code))
	for _, in := range b.code {
		switch in.Op {
		case OpConst:
			in.Arg += base
		case OpAndJump, OpOrJump:
			in.Arg += at
		}
		out.code = append(out.code, in)
	}
	out.consts = append(out.consts, b.consts...)
	return out
}

var opText = map[Op]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpPow: "^", OpLt: "<",
	OpLe: "<=", OpGt: ">", OpGe: ">=", OpEq: "==", OpNe: "!="}

func bin(op Op, a, b ex) ex {
	e := cat(a, b)
	e.code = append(e.code, Instr{Op: op})
	e.text = "(" + a.text + opText[op] + b.text + ")"
	return e
}

func neg(a ex) ex {
	e := cat(a, ex{code: []Instr{{Op: OpNeg}}})
	e.text = "-" + a.text
	return e
}

// logic is a && b (and true) or a || b, compiled as the parser does.
func logic(and bool, a, b ex) ex {
	op, sym := OpAndJump, "&&"
	if !and {
		op, sym = OpOrJump, "||"
	}
	e := cat(a, ex{})
	at := len(e.code)
	e.code = append(e.code, Instr{Op: op})
	e = cat(e, b)
	e.code[at].Arg = uint16(len(e.code))
	e.code = append(e.code, Instr{Op: OpBool})
	e.text = "(" + a.text + sym + b.text + ")"
	return e
}

func call(f Func, args ...ex) ex {
	e := ex{}
	var texts []string
	for _, a := range args {
		e = cat(e, a)
		texts = append(texts, a.text)
	}
	e.code = append(e.code, Instr{Op: OpCall, Arg: uint16(f)})
	e.text = f.String() + "(" + strings.Join(texts, ",") + ")"
	return e
}

func (e ex) expr() Expr { return Expr{Code: e.code, Consts: e.consts, Text: e.text} }

func (e ex) ptr() *Expr { x := e.expr(); return &x }

// mods turns a string of parameterless symbols into modules.
func mods(s string) []Module {
	var m []Module
	for i := 0; i < len(s); i++ {
		m = append(m, Module{Sym: s[i]})
	}
	return m
}

// mod is one module with parameter expressions.
func mod(sym byte, args ...ex) Module {
	m := Module{Sym: sym}
	for _, a := range args {
		m.Args = append(m.Args, a.expr())
	}
	return m
}

func seq(parts ...[]Module) []Module {
	var m []Module
	for _, p := range parts {
		m = append(m, p...)
	}
	return m
}

// pr is a production builder.
type pr struct{ Production }

func prod(pred byte, succ ...[]Module) *pr {
	return &pr{Production{Pred: pred, Prob: 1, Succ: seq(succ...)}}
}

func (p *pr) ctx(left, right string) *pr {
	p.Left, p.Right = []Symbol(left), []Symbol(right)
	return p
}

func (p *pr) cond(c ex) *pr { p.Cond = c.ptr(); return p }

func (p *pr) prob(w float64) *pr { p.Prob, p.Stochastic = w, true; return p }

func (p *pr) at(line int) *pr { p.Pos = Pos{File: "test.l", Line: line, Col: 1}; return p }

// system builds a System; arity maps symbols to parameter counts.
func system(axiom []Module, arity map[byte]int, prods ...*pr) *System {
	s := &System{Axiom: axiom}
	for b, a := range arity {
		s.Arity[b] = uint8(a)
	}
	for _, p := range prods {
		s.Prods = append(s.Prods, p.Production)
	}
	return s
}

func (s *System) ignoring(syms string) *System {
	for i := 0; i < len(syms); i++ {
		s.Ignore[syms[i]] = true
	}
	return s
}

// render writes a string as text, parameters in parentheses ("F(1,2)").
func render(s *String, arity *[256]uint8) string {
	var b strings.Builder
	p := 0
	for _, c := range s.Syms {
		b.WriteByte(c)
		if a := int(arity[c]); a > 0 {
			b.WriteByte('(')
			for j := 0; j < a; j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%g", s.Params[p+j])
			}
			b.WriteByte(')')
			p += a
		}
	}
	return b.String()
}

// The benchmark systems of abop-benchmarks.md.

func hilbert3D() *System {
	return system(mods("A"), nil,
		prod('A', mods("B-F+CFC+F-D&F^D-F+&&CFC+F+B//")),
		prod('B', mods("A&F^CFB^F^D^^-F-D^|F^B|FC^F^A//")),
		prod('C', mods("|D^|F^B-F+C^F^A&&FA&F^C+F+B^F^D//")),
		prod('D', mods("|CFB-F+B|FA&F^A&&FB-F+B|FC//")))
}

func kochIsland() *System {
	return system(mods("F-F-F-F"), nil, prod('F', mods("FF-F-F-F-FF")))
}

func plant2D() *System {
	return system(mods("F"), nil, prod('F', mods("FF-[-F+F+F]+[+F-F-F]")))
}

// Row of trees constants, folded as the parser folds #define.
const (
	rowC = 1.0
	rowP = 0.3
	rowQ = rowC - rowP
)

var rowH = Pow(rowP*rowQ, 0.5)

func rowOfTrees() *System {
	x := slot(0, "x")
	f := func(c float64) Module { return mod('F', bin(OpMul, x, num(c))) }
	return system([]Module{mod('F', num(1))}, map[byte]int{'F': 1},
		prod('F', []Module{f(rowP)}, mods("+"), []Module{f(rowH)}, mods("--"), []Module{f(rowH)}, mods("+"), []Module{f(rowQ)}))
}

func stochasticPlant() *System {
	return system(mods("F"), nil,
		prod('F', mods("F[+F]F[-F]F")).prob(0.33),
		prod('F', mods("F[+F]F")).prob(0.33),
		prod('F', mods("F[-F]F")).prob(0.34))
}

// contextPlant is the Hogeweg-Hesper plant of ABOP fig 1.31, variant (a).
func contextPlant() *System {
	r := func(l, p, rt byte, succ string) *pr { return prod(p, mods(succ)).ctx(string(l), string(rt)) }
	return system(mods("F1F1F1"), nil,
		r('0', '0', '0', "0"),
		r('0', '0', '1', "1[+F1F1]"),
		r('0', '1', '0', "1"),
		r('0', '1', '1', "1"),
		r('1', '0', '0', "0"),
		r('1', '0', '1', "1F1"),
		r('1', '1', '0', "0"),
		r('1', '1', '1', "0"),
		prod('+', mods("-")),
		prod('-', mods("+")),
	).ignoring("+-F")
}

// tree3D is ABOP L-system 2.3 with the constants of fig 2.8(b) (tropism is
// interpretation, not derivation).
func tree3D() *System {
	const d1, d2, a, lr, vr = 137.5, 137.5, 18.95, 1.109, 1.732
	l, w := slot(0, "l"), slot(0, "w")
	branch := seq(mods("["), []Module{mod('&', num(a)), mod('F', num(50))}, mods("A]"))
	return system(seq([]Module{mod('!', num(1)), mod('F', num(200)), mod('/', num(45))}, mods("A")),
		map[byte]int{'!': 1, 'F': 1, '/': 1, '&': 1},
		prod('A', []Module{mod('!', num(vr)), mod('F', num(50))}, branch, []Module{mod('/', num(d1))}, branch,
			[]Module{mod('/', num(d2))}, branch),
		prod('F', []Module{mod('F', bin(OpMul, l, num(lr)))}),
		prod('!', []Module{mod('!', bin(OpMul, w, num(vr)))}))
}
