package syntax

import (
	"errors"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// mustParse parses src as file "t.l" and fails the test on an error.
func mustParse(t *testing.T, src string) *lsys.System {
	t.Helper()
	sys, err := Parse("t.l", []byte(src))
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return sys
}

// modules renders modules as text: symbols, constant or slot arguments as
// "A(1,$0)" and other arguments by their source text.
func modules(ms []lsys.Module) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(lsys.SymbolName(m.Sym))
		if len(m.Args) == 0 {
			continue
		}
		b.WriteByte('(')
		for i, a := range m.Args {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(a.Text)
		}
		b.WriteByte(')')
	}
	return b.String()
}

// slots is the number of formal parameters a production binds.
func slots(sys *lsys.System, p *lsys.Production) int {
	n := int(sys.Arity[p.Pred])
	for _, s := range p.Left {
		n += int(sys.Arity[s])
	}
	for _, s := range p.Right {
		n += int(sys.Arity[s])
	}
	return n
}

// checkSystem verifies the invariants every parsed system promises: argument
// counts match the arity table, bytecode passes lsys's check, brackets
// balance, the axiom holds constants only.
func checkSystem(t *testing.T, sys *lsys.System) {
	t.Helper()
	checkModules := func(what string, ms []lsys.Module, nslots int) {
		depth := 0
		for _, m := range ms {
			if len(m.Args) != int(sys.Arity[m.Sym]) {
				t.Errorf("%s: %c has %d args, arity %d", what, m.Sym, len(m.Args), sys.Arity[m.Sym])
			}
			for _, a := range m.Args {
				if err := a.Check(nslots); err != nil {
					t.Errorf("%s: %c: %v", what, m.Sym, err)
				}
				if nslots == 0 && (len(a.Code) != 1 || a.Code[0].Op != lsys.OpConst) {
					t.Errorf("%s: %c: argument %q is not a constant", what, m.Sym, a.Text)
				}
			}
			switch m.Sym {
			case '[':
				depth++
			case ']':
				depth--
			}
			if depth < 0 {
				t.Errorf("%s: unbalanced brackets", what)
			}
		}
		if depth != 0 {
			t.Errorf("%s: unbalanced brackets", what)
		}
	}
	checkModules("axiom", sys.Axiom, 0)
	for _, prods := range [][]lsys.Production{sys.Prods, sys.Homo} {
		for i := range prods {
			p := &prods[i]
			n := slots(sys, p)
			if n > lsys.MaxSlots {
				t.Errorf("production at %v binds %d slots", p.Pos, n)
			}
			if p.Cond != nil {
				if err := p.Cond.Check(n); err != nil {
					t.Errorf("condition: %v", err)
				}
			}
			if p.Prob < 0 {
				t.Errorf("production at %v: probability %g", p.Pos, p.Prob)
			}
			checkModules("successor", p.Succ, n)
		}
	}
}

// asError checks that err is an *Error with a sane position.
func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	if e.Pos.Line < 1 || e.Pos.Col < 1 {
		t.Fatalf("error %v has position %+v", err, e.Pos)
	}
	return e
}
