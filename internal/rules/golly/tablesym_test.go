package golly

import (
	"errors"
	"os/exec"
	"slices"
	"testing"
)

// TestTableSymmetriesAgainstBgolly runs 30 random tables of each
// neighbourhood and symmetry in procgen and in bgolly: a wrong
// permutation or a wrong order of a line's variants (which binding of
// its variables Golly tries first) shows on some of them. Moore and
// hexagonal permute are left out: random lines of theirs have hundreds
// of orderings, more than the kernels hold (WireWorld tests Moore's).
func TestTableSymmetriesAgainstBgolly(t *testing.T) {
	bgolly, err := exec.LookPath("bgolly")
	if err != nil {
		t.Skip("bgolly (Debian package golly) is not on PATH")
	}
	if testing.Short() {
		t.Skip("-short: 30 tables a symmetry")
	}
	const seeds = 30
	for _, ns := range []struct{ neigh, sym string }{
		{"Moore", "none"}, {"Moore", "rotate4"}, {"Moore", "rotate8"}, {"Moore", "reflect_horizontal"},
		{"Moore", "rotate4reflect"}, {"Moore", "rotate8reflect"},
		{"vonNeumann", "none"}, {"vonNeumann", "rotate4"}, {"vonNeumann", "reflect_horizontal"},
		{"vonNeumann", "rotate4reflect"}, {"vonNeumann", "permute"},
		{"hexagonal", "none"}, {"hexagonal", "rotate2"}, {"hexagonal", "rotate3"}, {"hexagonal", "rotate6"},
		{"hexagonal", "rotate6reflect"},
		{"oneDimensional", "none"}, {"oneDimensional", "reflect"}, {"oneDimensional", "permute"},
	} {
		t.Run(ns.neigh+" "+ns.sym, func(t *testing.T) {
			dir := t.TempDir()
			ran := 0
			for seed := uint64(100); seed < 100+seeds; seed++ {
				err := tableVsBgolly(t, bgolly, dir, randomTable(seed, ns.neigh, ns.sym, 3), 3, 12, seed)
				switch {
				case errors.Is(err, errBgollyTimeout):
					t.Logf("seed %d: %v", seed, err)
				case err != nil:
					t.Fatalf("seed %d: %v", seed, err)
				default:
					ran++
				}
			}
			if ran < seeds*4/5 {
				t.Fatalf("only %d of %d tables compared (bgolly timed out on the others)", ran, seeds)
			}
		})
	}
}

// firstMatch is the output of the first of vs that matches the cell
// and neighbours nb (variables bound: equal states), -1 for none.
func firstMatch(vs []Transition, nb []uint8) int {
	for _, v := range vs {
		val, ok := map[string]uint8{}, true
		for p, tok := range v.In {
			if !slices.Contains(tok.Set, nb[p]) {
				ok = false
			} else if s, bound := val[tok.Var]; tok.Var != "" && bound && s != nb[p] {
				ok = false
			}
			if tok.Var != "" {
				val[tok.Var] = nb[p]
			}
		}
		if ok && v.Out.Var != "" {
			return int(val[v.Out.Var])
		}
		if ok {
			return int(v.Out.Set[0])
		}
	}
	return -1
}

// TestTableBindingOrder checks that a line's variants are tried binding
// by binding, as Golly does: with a={0,1} listed first and b's order
// deciding, the neighbourhood N=0, E=1, S=0, W=1 matches the line
// 0,a,b,a,b,a both unrotated (a=0, b=1) and turned (a=1, b=0); Golly
// takes the binding it reaches first (a's value changing fastest).
func TestTableBindingOrder(t *testing.T) {
	for _, c := range []struct {
		b    string
		want int
	}{{"{0,1}", 1}, {"{1,0}", 0}} {
		tab, err := ParseRuleFile([]byte("@RULE B\n@TABLE\nn_states:2\nneighborhood:vonNeumann\nsymmetries:rotate4\n"+
			"var a={0,1}\nvar b="+c.b+"\n0,a,b,a,b,a\n"), "b.rule")
		if err != nil {
			t.Fatal(err)
		}
		vs, err := tab.Expand()
		if err != nil {
			t.Fatal(err)
		}
		if got := firstMatch(vs, []uint8{0, 0, 1, 0, 1}); got != c.want {
			t.Errorf("b=%s: the first matching variant gives %d, Golly %d", c.b, got, c.want)
		}
	}
}
