package syntax

import (
	"context"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// TestQueryModules: ?P, ?H, ?U and ?L are one module each, with 2 or 3
// parameters, in the axiom, in contexts and in successors, and a string
// with them encodes back to the notation it was read in.
func TestQueryModules(t *testing.T) {
	src := "axiom: F A ?P(0,0) ?H(1,2,3)\n" +
		"A > ?P(x,y) : x*x+y*y < 4 --> [+F A ?P(0,0)] F A\n" +
		"?H(a,b,c) --> ?H(a,b,c) ?U(0,0) ?L(1,1,1)\n"
	sys, err := Parse("q.l", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for sym, want := range map[lsys.Symbol]uint8{lsys.SymQueryP: 2, lsys.SymQueryH: 3, lsys.SymQueryU: 2, lsys.SymQueryL: 3} {
		if got := sys.Arity[sym]; got != want {
			t.Errorf("arity of %s = %d, want %d", lsys.SymbolName(sym), got, want)
		}
	}
	if sys.Arity['?'] != 0 || sys.Arity['P'] != 0 {
		t.Errorf("'?' or 'P' got an arity: ?P was read as two modules")
	}
	if p := sys.Prods[0]; len(p.Right) != 1 || p.Right[0] != lsys.SymQueryP {
		t.Errorf("right context = %q, want one ?P", p.Right)
	}
	var b strings.Builder
	if err := lsys.Encode(context.Background(), &b, sys, lsys.Axiom(sys)); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "FA?P(0,0)?H(1,2,3)\n"; got != want {
		t.Errorf("encoded axiom %q, want %q", got, want)
	}
	// A '?' not followed by a query letter stays a module of its own.
	plain, err := Parse("q.l", []byte("axiom: ?X?\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Axiom) != 3 || plain.Axiom[0].Sym != '?' || plain.Axiom[2].Sym != '?' {
		t.Errorf("\"?X?\" parsed as %v, want three modules", plain.Axiom)
	}
}

func TestQueryAndRandomErrors(t *testing.T) {
	tests := []struct{ name, src, pos, msg string }{
		{"query without parameters", "axiom: F ?P", "t.l:1:10", "query module ?P has 0 parameters: expected 2 or 3"},
		{"query with one", "axiom: F\nF --> F ?U(1)", "t.l:2:9", "query module ?U has 1 parameter: expected 2 or 3"},
		{"query with four", "axiom: F\nA > ?L(a,b,c,d) --> B", "t.l:2:5", "query module ?L has 4 parameters"},
		{"query arity differs", "axiom: ?P(0,0)\nA > ?P(x,y,z) --> B", "t.l:2:5",
			"wrong parameter count: ?P has 2 parameters at t.l:1:8 but 3 here"},
		{"ran in axiom", "axiom: A(ran(1))", "t.l:1:10", "ran draws a new number for every module and step: expected a constant"},
		{"nran in define", "#define R nran(0,1)\naxiom: F", "t.l:1:11", "nran draws a new number"},
		{"ran in probability", "axiom: A\nA -(ran(1))-> B", "t.l:2:5", "ran draws a new number"},
		{"ran arity", "axiom: A(1)\nA(x) --> A(ran(x, 2))", "t.l:2:12", "ran takes 1 argument, found 2"},
		{"uniform arity", "axiom: A(1)\nA(x) --> A(uniform(x))", "t.l:2:12", "uniform takes 2 arguments, found 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.l", []byte(tc.src))
			if err == nil {
				t.Fatalf("accepted %q", tc.src)
			}
			if !strings.HasPrefix(err.Error(), tc.pos+": ") || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q, want %s: ...%s...", err, tc.pos, tc.msg)
			}
		})
	}
}
