package syntax

import (
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// render writes a production as "L<P>R:cond->succ@prob" with contexts and
// successors as modules; "@prob" only for stochastic productions.
func render(p lsys.Production) string {
	var b strings.Builder
	if len(p.Left) > 0 {
		b.WriteString(string(p.Left) + "<")
	}
	b.WriteByte(p.Pred)
	if len(p.Right) > 0 {
		b.WriteString(">" + string(p.Right))
	}
	if p.Cond != nil {
		b.WriteString(":" + p.Cond.Text)
	}
	b.WriteString("->" + modules(p.Succ))
	if p.Stochastic {
		b.WriteString("@" + fmtG(p.Prob))
	}
	return b.String()
}

func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func TestProductionForms(t *testing.T) {
	tests := []struct {
		src  string // one production; the axiom "Z" is added
		want string
	}{
		{"A -> B", "A->B"},
		{"A --> B", "A->B"},
		{"A → B", "A->B"},
		{"p1: A -> B", "A->B"},
		{"p12 : A -> B", "A->B"},
		{"A -> *", "A->"},
		{"A ->", "A->"},
		{"A -> * : 0.5", "A->@0.5"},
		{"A -(0.33)-> A[+A]", "A->A[+A]@0.33"},
		{"A --(0.25)--> A", "A->A@0.25"},
		{"A -(1/4)→ A", "A->A@0.25"},
		{"A-(0.5)->B", "A->B@0.5"},
		{"A --> B : 0.7", "A->B@0.7"},
		{"B < A > C -> D", "B<A>C->D"},
		{"0<0>1 -> 1[+F1F1]", "0<0>1->1[+F1F1]"},
		{"* < A > * -> B", "A->B"},
		{"* < + > * -> -", "+->-"},
		{"* < - > * -> +", "-->+"},
		{"- -> +", "-->+"},
		{"BC < A > DE -> F", "BC<A>DE->F"},
		{"B C < A > D E -> F", "BC<A>DE->F"},
		{"A : * -> B", "A->B"},
		{"A : * --> B", "A->B"},
		{"A(x) : x > 1 -> B(x-1)", "A:x > 1->B(x-1)"},
		{"A(x) : x>1 --> B(x)", "A:x>1->B(x)"},
		{"A(x) : x-1 > 0 -(0.5)-> B(x)", "A:x-1 > 0->B(x)@0.5"},
		{"A(x) : x - 1 --> B", "A:x - 1->B"},
		{"A(x) : x --> B", "A:x->B"},
		{"-(x) -> +(x)", "-->+(x)"},
		{"A (x) -> B (x, x * 2)", "A->B(x,x * 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			sys := mustParse(t, "axiom: Z\n"+tt.src+"\n")
			checkSystem(t, sys)
			if len(sys.Prods) != 1 {
				t.Fatalf("%d productions", len(sys.Prods))
			}
			if got := render(sys.Prods[0]); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if p := sys.Prods[0].Pos; p.Line != 2 || p.Col != 1 || p.File != "t.l" {
				t.Errorf("Pos = %+v", p)
			}
			if text := sys.Prods[0].Text; text != tt.src {
				t.Errorf("Text = %q", text)
			}
		})
	}
}

func TestProductionText(t *testing.T) {
	sys := mustParse(t, "axiom: A\n  p1:  A -> B /* a\ncomment */ C  // more\n")
	if p := sys.Prods[0]; p.Text != "p1: A -> B C" || p.Pos.Line != 2 || p.Pos.Col != 3 {
		t.Errorf("Text %q at %+v", p.Text, p.Pos)
	}
}

func TestSlotBinding(t *testing.T) {
	// Left context parameters first, in order, then the predecessor's, then
	// the right context's.
	sys := mustParse(t, `axiom: B(1)C(2,3)A(4)D(5)E(6)
B(a) C(b,c) < A(d) > D(e) E(f) : a+f > 0 -> X(a,b,c,d,e,f)
`)
	p := sys.Prods[0]
	if string(p.Left) != "BC" || p.Pred != 'A' || string(p.Right) != "DE" {
		t.Fatalf("got %s", render(p))
	}
	for i, a := range p.Succ[0].Args {
		if len(a.Code) != 1 || a.Code[0].Op != lsys.OpSlot || int(a.Code[0].Arg) != i {
			t.Errorf("argument %d (%s) compiles to %v", i, a.Text, a.Code)
		}
	}
	if p.Cond == nil || p.Cond.Text != "a+f > 0" {
		t.Fatalf("condition %+v", p.Cond)
	}
	if v, err := p.Cond.Eval([]float64{1, 2, 3, 4, 5, -2}); err != nil || v != 0 {
		t.Errorf("a+f > 0 with a=1, f=-2: %v, %v", v, err)
	}
	if p.Cond.Pos.Line != 2 || p.Cond.Pos.Col != 34 {
		t.Errorf("condition at %+v", p.Cond.Pos)
	}
	if a := p.Succ[0].Args[2]; a.Pos.Line != 2 || a.Pos.Col != 51 || a.Text != "c" {
		t.Errorf("argument c at %+v (%q)", a.Pos, a.Text)
	}
	want := map[byte]uint8{'A': 1, 'B': 1, 'C': 2, 'D': 1, 'E': 1, 'X': 6, 'F': 0}
	for s, n := range want {
		if sys.Arity[s] != n {
			t.Errorf("Arity[%c] = %d, want %d", s, sys.Arity[s], n)
		}
	}
}

func TestDirectives(t *testing.T) {
	tests := []struct {
		src   string
		check func(*lsys.System) bool
	}{
		{"axiom: F", func(s *lsys.System) bool {
			return s.Angle == 90 && s.Width == 1 && s.Step == 1 && s.Steps == 1 && s.Name == "" &&
				s.Elasticity == 0 && s.Defines != nil
		}},
		{"Lsystem: My plant 1\naxiom: F", func(s *lsys.System) bool { return s.Name == "My plant 1" }},
		{"DERIVATION   Length: 2*3\naxiom: F", func(s *lsys.System) bool { return s.Steps == 6 }},
		{"#define N 4\nderivation length: N+1\naxiom: F", func(s *lsys.System) bool { return s.Steps == 5 }},
		{"angle: 22.5\naxiom: F", func(s *lsys.System) bool { return s.Angle == 22.5 }},
		{"delta: 30\naxiom: F", func(s *lsys.System) bool { return s.Angle == 30 }},
		{"angle increment: 45\naxiom: F", func(s *lsys.System) bool { return s.Angle == 45 }},
		{"angle factor: 16\naxiom: F", func(s *lsys.System) bool { return s.Angle == 22.5 }},
		{"width: 3\nstep: 0.5\naxiom: F", func(s *lsys.System) bool { return s.Width == 3 && s.Step == 0.5 }},
		{"tropism: 0 -1 0 0.22\naxiom: F", func(s *lsys.System) bool {
			return s.Tropism == [3]float64{0, -1, 0} && s.Elasticity == 0.22
		}},
		{"tropism: 0, -1, 0.5, 0.2\naxiom: F", func(s *lsys.System) bool {
			return s.Tropism == [3]float64{0, -1, 0.5} && s.Elasticity == 0.2
		}},
		{"tropism direction: 1 0 0\ninitial elasticity: 0.3\naxiom: F", func(s *lsys.System) bool {
			return s.Tropism == [3]float64{1, 0, 0} && s.Elasticity == 0.3
		}},
		{"n = 7, δ = 22.5°\nω: F", func(s *lsys.System) bool { return s.Steps == 7 && s.Angle == 22.5 }},
		{"n=3,delta=60\naxiom: F", func(s *lsys.System) bool { return s.Steps == 3 && s.Angle == 60 }},
		{"maximum depth: 3\naxiom: F\nendlsystem\n\n", func(s *lsys.System) bool { return true }},
		{"ignore: +-F\naxiom: F", func(s *lsys.System) bool {
			return s.Ignore['+'] && s.Ignore['-'] && s.Ignore['F'] && !s.Ignore['A'] && !s.Ignore['[']
		}},
		{"ignore: + -\nignore: F\naxiom: F", func(s *lsys.System) bool {
			return s.Ignore['+'] && s.Ignore['-'] && s.Ignore['F']
		}},
		{"consider: AB\naxiom: F", func(s *lsys.System) bool {
			return !s.Ignore['A'] && !s.Ignore['B'] && s.Ignore['F'] && s.Ignore['+'] &&
				!s.Ignore['['] && !s.Ignore[']'] && !s.Ignore[' '] && !s.Ignore['(']
		}},
		{"#define a 2\n#define b a*3\naxiom: F(b, -a)", func(s *lsys.System) bool {
			return s.Defines["a"] == 2 && s.Defines["b"] == 6 && modules(s.Axiom) == "F(b,-a)" &&
				s.Axiom[0].Args[0].Consts[0] == 6 && s.Axiom[0].Args[1].Consts[0] == -2
		}},
		{"axiom: A\nA -> B\nhomomorphism: no warnings\nB -> F[+F]\nB -> *\nendlsystem", func(s *lsys.System) bool {
			return len(s.Prods) == 1 && len(s.Homo) == 2 && modules(s.Homo[0].Succ) == "F[+F]" && len(s.Homo[1].Succ) == 0
		}},
		{"axiom: A\nhomomorphism\nwarnings\nA : * -(0.5)-> F\n", func(s *lsys.System) bool {
			return len(s.Homo) == 1 && s.Homo[0].Stochastic && s.Homo[0].Prob == 0.5
		}},
		{"/* comment */ axiom: F /* spanning\nlines */ F // rest\n// whole line\n", func(s *lsys.System) bool {
			return modules(s.Axiom) == "FF"
		}},
		{"axiom: A\nA -> B// two rolls\n", func(s *lsys.System) bool {
			return modules(s.Prods[0].Succ) == "B//tworolls"
		}},
		{"axiom: A\nA -> B //comment\n", func(s *lsys.System) bool { return modules(s.Prods[0].Succ) == "B" }},
		{"\ufeffaxiom: F\r\nF -> FF\r\n", func(s *lsys.System) bool { return len(s.Prods) == 1 }},
		{"axiom: [F]%F$~F.{}'\";,@#&^\\/|*=?", func(s *lsys.System) bool {
			return modules(s.Axiom) == "[F]%F$~F.{}'\";,@#&^\\/|*=?"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			sys := mustParse(t, tt.src)
			checkSystem(t, sys)
			if !tt.check(sys) {
				t.Errorf("unexpected system %+v", sys)
			}
		})
	}
}
