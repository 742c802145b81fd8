package lsys_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// steps derives src for n steps on the CPU and returns every string as text.
func steps(t *testing.T, src string, n int, o lsys.DeriveOptions) ([]string, *lsys.Derivation, error) {
	t.Helper()
	sys, err := syntax.Parse("d.l", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	o.Steps = n
	o.OnStep = func(_ int, s *lsys.String) error {
		var b bytes.Buffer
		err := lsys.Encode(context.Background(), &b, sys, s)
		out = append(out, strings.TrimSuffix(b.String(), "\n"))
		return err
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, o)
	return out, d, err
}

// TestDecomposition: decomposition productions rewrite the axiom and every
// step's string again until nothing changes, with conditions and
// parameters, as deep as "maximum depth:" allows; a runaway decomposition
// stops at the module limit.
func TestDecomposition(t *testing.T) {
	for _, tc := range []struct {
		src  string
		n    int
		want string
	}{
		{"axiom: A\nA -> AB\ndecomposition\nB -> CD\nC -> E\n", 2, "A AED AEDED"},
		{"axiom: A\nA -> AB\nmaximum depth: 1\ndecomposition\nB -> CD\nC -> E\n", 2, "A ACD ACDED"},
		{"axiom: B\ndecomposition\nB -> CD\nC -> E\n", 1, "ED ED"},
		{"axiom: A(4)\nA(x) -> A(x*2)\ndecomposition\nA(x) : x > 1 -> [A(x/2)]A(x/2)\n", 1,
			"[[A(1)]A(1)][A(1)]A(1) [[[A(1)]A(1)][A(1)]A(1)][[A(1)]A(1)][A(1)]A(1)"},
		// Context and cut in decomposition, after the step.
		{"axiom: XAY\nB -> AA\ndecomposition\nX < A -> B\nY -> [%Z]\n", 1, "XB[] XBA[]"},
	} {
		got, d, err := steps(t, tc.src, tc.n, lsys.DeriveOptions{})
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: %s, want %s", tc.src, strings.Join(got, " "), tc.want)
		}
		var total int64
		for _, w := range got {
			total += int64(len(w) - strings.Count(w, "(1)")*3)
		}
		if d.Total != total {
			t.Errorf("%q: total %d, strings hold %d", tc.src, d.Total, total)
		}
	}
	_, _, err := steps(t, "axiom: A\ndecomposition\nA -> AA\n", 1, lsys.DeriveOptions{MaxModules: 1000})
	var le *lsys.LimitError
	if !errors.As(err, &le) {
		t.Errorf("runaway decomposition: %v", err)
	}
}

func TestGPUSupports(t *testing.T) {
	for src, ok := range map[string]bool{
		"axiom: A\nA -> B\n":                       true,
		"axiom: A\nhomomorphism\nA < B -> C\n":     true,
		"axiom: A\ndecomposition\nA -> B\n":        false,
		"axiom: A\nA > [B]C -> D\n":                false,
		"axiom: A\nhomomorphism\nA[B]C < D -> E\n": true,
	} {
		sys, err := syntax.Parse("g.l", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := lsys.GPUSupports(sys); (err == nil) != ok || (err != nil && !errors.Is(err, lsys.ErrNotOnGPU)) {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestHomomorphismContext: homomorphism productions match contexts in the
// derived string, branches and the ignore list as derivation does.
func TestHomomorphismContext(t *testing.T) {
	sys, err := syntax.Parse("h.l", []byte("ignore: +\naxiom: A+B[C]A B\nhomomorphism\nA < B > A -> X\nB > * -> Y\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := lsys.ApplyHomomorphism(context.Background(), sys, lsys.Axiom(sys), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.Syms); got != "A+X[C]AY" {
		t.Errorf("got %s, want A+X[C]AY", got)
	}
}
