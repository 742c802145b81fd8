package lsys

import (
	"testing"
)

func TestContextMatching(t *testing.T) {
	// ABOP p. 32: in ABC[DE][SG[HI[JK]L]MNO], S has left context BC and
	// right context G..M (skipping the branch [HI[JK]L]).
	syms := []Symbol("ABC[DE][SG[HI[JK]L]MNO]")
	match, err := Brackets(syms, 1)
	if err != nil {
		t.Fatal(err)
	}
	var ignore [256]bool
	ignore['+'] = true
	m := ctxMatcher{syms: syms, match: match, ignore: &ignore}
	at := func(c byte) int {
		for i, s := range syms {
			if s == c {
				return i
			}
		}
		t.Fatalf("no %c", c)
		return -1
	}
	pos := make([]int, 8)
	for _, c := range []struct {
		mod   byte
		left  bool
		want  string
		match bool
	}{
		{'S', true, "BC", true},
		{'S', true, "C", true},
		{'S', true, "E", false}, // [DE] is a sibling branch: skipped
		{'S', true, "ABC", true},
		{'S', false, "G", true},
		{'S', false, "GM", true}, // [HI[JK]L] starts to the right: skipped
		{'S', false, "GH", false},
		{'S', false, "GMNO", true},
		{'O', false, "A", false}, // ']' closes O's branch
		{'D', false, "E", true},
		{'E', false, "S", false},
		{'H', true, "G", true}, // out of [HI..] into its parent
		{'M', true, "G", true}, // skips [HI[JK]L]
		{'J', true, "ABCSGHI", true},
		{'L', true, "I", true},
		{'A', true, "A", false},
	} {
		var ok bool
		if c.left {
			ok = m.left(at(c.mod), []Symbol(c.want), pos)
		} else {
			ok = m.right(at(c.mod), []Symbol(c.want), pos)
		}
		if ok != c.match {
			side := "right"
			if c.left {
				side = "left"
			}
			t.Errorf("%c with %s context %s: %v, want %v", c.mod, side, c.want, ok, c.match)
		}
	}
	// Positions of matched modules, and ignored symbols skipped.
	syms = []Symbol("A+[X]+B+C")
	match, _ = Brackets(syms, 1)
	m = ctxMatcher{syms: syms, match: match, ignore: &ignore}
	if !m.left(6, []Symbol("A"), pos) || pos[0] != 0 {
		t.Errorf("left of B: %v %v", m.left(6, []Symbol("A"), pos), pos[:1])
	}
	if !m.right(0, []Symbol("BC"), pos) || pos[0] != 6 || pos[1] != 8 {
		t.Errorf("right of A: %v", pos[:2])
	}
	if !m.right(0, []Symbol("+"), pos) || pos[0] != 1 {
		t.Errorf("an ignored symbol named by the context matches itself")
	}
}

// TestContextParameters checks that contexts bind their modules' parameters
// before the predecessor's, across branches.
func TestContextParameters(t *testing.T) {
	a, b, c := slot(0, "a"), slot(1, "b"), slot(2, "c")
	sys := system(seq([]Module{mod('A', num(1))}, mods("[F]"), []Module{mod('B', num(10))}, mods("[G]"),
		[]Module{mod('C', num(100))}), map[byte]int{'A': 1, 'B': 1, 'C': 1},
		prod('B', []Module{mod('B', bin(OpAdd, bin(OpAdd, a, bin(OpMul, b, num(2))), bin(OpMul, c, num(3))))}).
			ctx("A", "C").cond(bin(OpLt, a, c)))
	d := derive(t, sys, DeriveOptions{Steps: 1})
	if got := render(d.String, &sys.Arity); got != "A(1)[F]B(321)[G]C(100)" {
		t.Errorf("w_1 = %s", got)
	}
}
