package lsys

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBracketedContextsMatchReference: random systems whose contexts hold
// branches derive exactly the brute-force reference's strings (bracket
// partners found by counting, patterns matched by recursion), with every
// worker count.
func TestBracketedContextsMatchReference(t *testing.T) {
	ctxs := []string{"", "", "", "A", "C", "[A]", "[C]", "A[B]", "[C]A", "C[A][B]", "B[CA]", "[A]B", "C[B]",
		"[B][A]C", "A[B[C]]", "[C[A]]C", "F[A]", "[+A]"}
	r := rand.New(rand.NewPCG(17, 31))
	systems := 40
	if testing.Short() {
		systems = 12
	}
	applied := 0
	for n := 0; n < systems; n++ {
		sys := randomSystemWith(r, ctxs)
		// Context-free productions after the random ones, so that the
		// strings grow branches whatever the contexts match.
		x, y := slot(0, "x"), slot(1, "y")
		sys.Prods = append(sys.Prods,
			prod('A', seq([]Module{mod('A', x)}, mods("[C"), []Module{mod('A', x)}, mods("]"), []Module{mod('B', x, num(1))})).Production,
			prod('B', seq(mods("["), []Module{mod('A', y)}, mods("]C"), []Module{mod('B', x, y)})).Production,
			prod('C', seq(mods("C["), []Module{mod('A', num(1))}, mods("]"))).Production)
		seed := r.Uint64()
		steps := 12
		_, err := CPU{}.Derive(context.Background(), sys, DeriveOptions{Steps: steps, Seed: seed, MaxModules: 200_000})
		var le *LimitError
		if errors.As(err, &le) {
			steps = le.Step - 1
		}
		want, wantErr := refDerive(sys, steps, seed)
		for _, w := range []int{1, 4} {
			d, err := CPU{}.Derive(context.Background(), sys, DeriveOptions{Steps: steps, Seed: seed, Workers: w})
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("system %d, workers %d: err %v, reference err %v", n, w, err, wantErr)
			}
			if err != nil {
				continue
			}
			if !bytes.Equal(d.String.Syms, want.Syms) || !slices.Equal(d.String.Params, want.Params) {
				t.Fatalf("system %d, %d steps, workers %d: string differs from the reference (%d modules, want %d)",
					n, steps, w, d.String.Len(), want.Len())
			}
		}
		// Count the modules of the final string that a context with
		// branches matches, so that the test cannot pass on contexts that
		// never match.
		for _, p := range sys.Prods {
			if bytes.IndexByte(p.Left, '[') < 0 && bytes.IndexByte(p.Right, '[') < 0 {
				continue
			}
			for i, s := range want.Syms {
				if s != p.Pred {
					continue
				}
				_, ok1 := refLeft(want.Syms, i, p.Left, &sys.Ignore)
				_, ok2 := refRight(want.Syms, i, p.Right, &sys.Ignore)
				if ok1 && ok2 {
					applied++
				}
			}
		}
	}
	if applied < 100 {
		t.Errorf("contexts with branches match only %d modules in all", applied)
	}
	t.Logf("contexts with branches match %d modules of the final strings", applied)
}

// TestBracketedContextABOP: ABOP's example (p. 32): BC < S > G[H]M applies
// to S in ABC[DE][SG[HI[JK]L]MNO], and the left context A[B]C < D.
func TestBracketedContextABOP(t *testing.T) {
	for _, tc := range []struct {
		axiom, left, right string
		pred               byte
		want               string
	}{
		{"ABC[DE][SG[HI[JK]L]MNO]", "BC", "G[H]M", 'S', "ABC[DE][XG[HI[JK]L]MNO]"},
		{"ABC[DE][SG[HI[JK]L]MNO]", "BC", "G[I]M", 'S', "ABC[DE][SG[HI[JK]L]MNO]"},
		{"ABC[DE][SG[HI[JK]L]MNO]", "", "G[HI[J]L]M", 'S', "ABC[DE][XG[HI[JK]L]MNO]"},
		{"ABC[DE][SG[HI[JK]L]MNO]", "", "G[HI[J]]N", 'S', "ABC[DE][SG[HI[JK]L]MNO]"},
		{"A[B]CD", "A[B]C", "", 'D', "A[B]CX"},
		{"A[BE]CD", "A[B]C", "", 'D', "A[BE]CX"},
		{"A[EB]CD", "A[B]C", "", 'D', "A[EB]CD"},
		{"ACD", "A[B]C", "", 'D', "ACD"},
		{"A[B][E]CD", "A[B][E]C", "", 'D', "A[B][E]CX"},
	} {
		sys := system(mods(tc.axiom), nil, prod(tc.pred, mods("X")).ctx(tc.left, tc.right))
		d, err := CPU{}.Derive(context.Background(), sys, DeriveOptions{Steps: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(d.String.Syms); got != tc.want {
			t.Errorf("%s < %c > %s on %s: %s, want %s", tc.left, tc.pred, tc.right, tc.axiom, got, tc.want)
		}
		ref, _ := refDerive(sys, 1, 0)
		if string(ref.Syms) != tc.want {
			t.Errorf("reference: %s", ref.Syms)
		}
	}
}
