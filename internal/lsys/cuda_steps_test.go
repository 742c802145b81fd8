//go:build cuda

package lsys_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// TestCUDAOnStep: the GPU backend hands OnStep the same strings as the CPU
// (every step of fig. 1.31(a) as printed, and of a parametric stochastic
// random system), and stops at its error.
func TestCUDAOnStep(t *testing.T) {
	cu := cudaDeriver(t)
	fig, err := syntax.Parse("fig131a.l", []byte(fig131a))
	if err != nil {
		t.Fatal(err)
	}
	rnd, err := syntax.Parse("r.l", []byte(randomSystem(3)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sys   *lsys.System
		steps int
	}{{fig, 29}, {rnd, 5}} {
		text := func(d lsys.Deriver) (string, error) {
			var buf bytes.Buffer
			enc := lsys.NewEncoder(&buf, tc.sys)
			_, err := d.Derive(context.Background(), tc.sys, lsys.DeriveOptions{Steps: tc.steps, Seed: 9, MaxModules: 1e6,
				OnStep: func(_ int, s *lsys.String) error { return enc.Encode(context.Background(), s) }})
			return buf.String(), err
		}
		want, errCPU := text(lsys.CPU{})
		got, errGPU := text(cu)
		if (errCPU == nil) != (errGPU == nil) || got != want {
			t.Fatalf("GPU steps differ from the CPU's (errors %v, %v)", errGPU, errCPU)
		}
		if tc.sys == fig && len(want) != 25226+30 {
			t.Errorf("fig. 1.31(a): %d bytes, want 25,226 modules and 30 newlines", len(want))
		}
	}
	n := 0
	_, err = cu.Derive(context.Background(), fig, lsys.DeriveOptions{Steps: 10,
		OnStep: func(k int, _ *lsys.String) error {
			if n++; k == 4 {
				return context.Canceled
			}
			return nil
		}})
	if err != context.Canceled || n != 5 {
		t.Errorf("OnStep error: %v after %d calls", err, n)
	}
}

// TestCUDADecompositionRefused: the GPU does not decompose; it says so with
// ErrNotOnGPU (a caller under --device auto derives on the CPU instead).
func TestCUDADecompositionRefused(t *testing.T) {
	cu := cudaDeriver(t)
	sys, err := syntax.Parse("d.l", []byte("axiom: A\nA -> AB\ndecomposition\nB -> C\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cu.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 2}); !errors.Is(err, lsys.ErrNotOnGPU) {
		t.Errorf("got %v, want ErrNotOnGPU", err)
	}
}
