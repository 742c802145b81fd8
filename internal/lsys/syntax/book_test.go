package syntax

import (
	"strings"
	"testing"
)

// TestBookNotation: what ABOP prints (and a copy from its PDF gives) reads
// as the ASCII it stands for.
func TestBookNotation(t *testing.T) {
	book := mustParse(t, `#define r 0.9
#ignore: + − F
n = 4, δ = 22.5◦
ω : A(1,10)−F(2)
p1 : A(l,w) : ∗ → !(w)F(l)[&(45)B(l×0.5,w·0.7)]/(137.5)∧(−l)A(l∗r,w⋅r)
p2 : ∗ < B(l,w) > ∗ : l ≥ 0.1 && w ≤ 9 && l ≠ 2 −(0.5)→ B(l−1, w)
p3 : B(l,w) –(0.5)→ ε
`)
	ascii := mustParse(t, `#define r 0.9
ignore: +-F
derivation length: 4
angle: 22.5
axiom: A(1,10)-F(2)
A(l,w) --> !(w)F(l)[&(45)B(l*0.5,w*0.7)]/(137.5)^(-l)A(l*r,w*r)
B(l,w) : l >= 0.1 && w <= 9 && l != 2 -(0.5)-> B(l-1, w)
B(l,w) -(0.5)-> *
`)
	if book.Steps != 4 || book.Angle != 22.5 || book.Ignore != ascii.Ignore || book.Arity != ascii.Arity {
		t.Fatalf("steps %d angle %g ignore/arity differ", book.Steps, book.Angle)
	}
	if modules(book.Axiom) != modules(ascii.Axiom) {
		t.Errorf("axiom %s, want %s", modules(book.Axiom), modules(ascii.Axiom))
	}
	if len(book.Prods) != len(ascii.Prods) {
		t.Fatalf("%d productions, want %d", len(book.Prods), len(ascii.Prods))
	}
	squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
	for i := range book.Prods {
		b, a := &book.Prods[i], &ascii.Prods[i]
		if b.Pred != a.Pred || string(b.Left) != string(a.Left) || string(b.Right) != string(a.Right) ||
			b.Prob != a.Prob || b.Stochastic != a.Stochastic || (b.Cond == nil) != (a.Cond == nil) {
			t.Errorf("production %d: %+v, want %+v", i+1, b, a)
			continue
		}
		if got, want := squash(modules(b.Succ)), squash(modules(a.Succ)); got != want {
			t.Errorf("production %d: successor %s, want %s", i+1, got, want)
		}
		if b.Cond != nil && (squash(b.Cond.Text) != squash(a.Cond.Text) || len(b.Cond.Code) != len(a.Cond.Code)) {
			t.Errorf("production %d: condition %q, want %q", i+1, b.Cond.Text, a.Cond.Text)
		}
	}
	// #consider: is the other book form; # before anything else is still
	// a preprocessor line.
	if sys := mustParse(t, "#consider: AB\nω: A\n"); !sys.Ignore['F'] || sys.Ignore['A'] {
		t.Error("#consider: AB does not skip F, or skips A")
	}
	for src, msg := range map[string]string{
		"#ignore F\nω: A\n":               "#ignore is not supported",
		"#include x\nω: A\n":              "#include is not supported",
		"ω: A−\n#ignore: −\n#ignore: +\n": "",
	} {
		_, err := Parse("t.l", []byte(src))
		if msg == "" {
			if err != nil {
				t.Errorf("%q: %v", src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
}

// TestBookRunePositions: a replaced character keeps every other byte where
// it was, so errors after it name the right column.
func TestBookRunePositions(t *testing.T) {
	_, err := Parse("t.l", []byte("ω: A\nA → B(1×)\n"))
	e := asError(t, err)
	// "A → B(1×)": the ')' after × is byte 12 of the line.
	if e.Pos.Line != 2 || e.Pos.Col != 12 {
		t.Errorf("error at %d:%d, want 2:12: %v", e.Pos.Line, e.Pos.Col, err)
	}
}
