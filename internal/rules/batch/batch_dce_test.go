package batch

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// liveInstructions counts the instructions of the batch evaluator's code from entry to
// its RET or END that are not NOPs.
func liveInstructions(b *Eval, entry int) int {
	n := 0
	for pc := entry; pc < len(b.code); pc++ {
		op := int(b.code[pc] & 255)
		if op != bytecode.OpNop {
			n++
		}
		if op == bytecode.OpRET || op == bytecode.OpEND {
			return n
		}
		if bytecode.HasImm(op) {
			pc++
		}
	}
	return n
}

// TestDeadCodeDropped: Life's consequence keeps only c[k] = 1 - c[k] (the
// neighbour count it recomputes provably lies on the board), and its
// precondition loses nothing.
func TestDeadCodeDropped(t *testing.T) {
	p := compileConfig(t, "life.rules", map[string]string{"W": "37", "H": "23"})
	b := NewEval(p, nil)
	if n := liveInstructions(b, p.Rules[0].BodyPC); n != 5 {
		t.Errorf("consequence: %d instructions left, want 5 (LDI, LDS, ISUB, ST, END)", n)
	}
	if n := liveInstructions(b, p.Rules[0].CondPC); n < 40 {
		t.Errorf("precondition: %d instructions left, want its neighbour count and tests", n)
	}
}

// TestDeadCodeFaultsKept: an unread load whose index may leave its field
// and an unread division by a value that may be 0 stay (and fault as the
// interpreter does); an unread division by a constant, and loads that stay
// in their field, go.
func TestDeadCodeFaultsKept(t *testing.T) {
	cases := []struct {
		name, body string
		gone       bool // the unread work is dropped
		fault      string
	}{
		{"in range", "let t = a[(k * 3 + 1) % 12] + a[k / 2]", true, ""},
		{"divide by constant", "let t = k / 3 - k % 5", true, ""},
		{"past the field", "let t = a[k + 5]", false, "a[...]"},
		{"below the field", "let t = a[k - 1]", false, "a[...]"},
		{"divide by a value", "let t = 10 / a[k]", false, "division"},
	}
	for _, c := range cases {
		src := `state { int a[12] ~ uniform(0, 3) int out[10] }
rule r over k in 0..10 {
  ` + c.body + `
  out[k] = k * 2
}`
		p := compileSrc(t, src)
		b := NewEval(p, nil)
		n := liveInstructions(b, p.Rules[0].BodyPC)
		if gone := n <= 6; gone != c.gone {
			t.Errorf("%s: %d instructions left, dropped %v, want %v", c.name, n, gone, c.gone)
		}
		for _, parts := range []int{0, 3} {
			ok, msg := agrees(parts, p, 6, 3, 2)
			if !ok {
				t.Fatalf("%s: %s", c.name, msg)
			}
			if (msg == "fault") != (c.fault != "") {
				t.Errorf("%s: fault %q, want one: %v", c.name, msg, c.fault != "")
			}
		}
	}
}
