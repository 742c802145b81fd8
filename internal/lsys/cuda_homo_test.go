//go:build cuda

package lsys_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// homoCases are systems with homomorphisms: the fast path (no parameters, no
// stochastic rules), parameters, stochastic choice, conditions, contexts,
// cut, empty successors and an expression error.
var homoCases = map[string]string{
	"param": "axiom: A(1)\nA(x) --> B(x)[A(x+1)]A(x*0.5)\nB(y) --> B(y*2)\n" +
		"homomorphism\nA(x) --> F(x)+\nB(y) --> [-F(y/2)]\n",
	"stochastic": "axiom: A\nA --> AB\nB --> BA\nhomomorphism\nA -(1)-> F\nA -(2)-> FF\nA -(0.5)-> [+F]\nB --> -\n",
	"condition": "axiom: A(0)\nA(x) --> F(x)A(x+1)\nF(x) --> F(x)\n" +
		"homomorphism\nF(x) : x > 3 --> F(x)F(x)\nF(x) : x <= 1 --> f(x)\nA(x) --> *\n",
	"context": "ignore: +\naxiom: A(1)+A(2)\nA(x) --> A(x+1)+A(x*2)\n" +
		"homomorphism\nA(x) < A(y) --> F(x+y)\nA(y) > A(z) --> F(z-y)+\n",
	"cut": "axiom: A(0)\nA(x) --> F(x)[+B(x)]A(x+1)\nB(y) --> B(y)\n" +
		"homomorphism\nB(y) : y > 2 --> F(y)%F(1)\nB(y) --> F(y)\n",
	"cut-fast": "axiom: A\nA --> A[B]A\nhomomorphism\nB --> F[%F]F%\n",
	"empty":    "axiom: AB\nA --> AB\nB --> A\nhomomorphism\nA --> *\nB --> *\n",
	"error":    "axiom: A(0)\nA(x) --> A(x+1)\nhomomorphism\nA(x) --> F(1/(x-5))\n",
	"overflow": "axiom: A(2)\nA(x) --> A(x*x)B(x)\nhomomorphism\nB(x) --> F(x*x*x*x)\n",
}

// homoCPU derives sys on the CPU and applies its homomorphism. ok is false
// when the derivation itself fails (TestCUDAErrors covers those).
func homoCPU(t *testing.T, sys *lsys.System, o lsys.DeriveOptions) (s *lsys.String, ok bool, err error) {
	t.Helper()
	d, err := lsys.CPU{}.Derive(context.Background(), sys, o)
	if err != nil {
		return nil, false, nil
	}
	s, err = lsys.ApplyHomomorphism(context.Background(), sys, d.String, 0)
	return s, true, err
}

// homoCUDA derives sys on the device, applies its homomorphism there and
// downloads the result.
func homoCUDA(t *testing.T, c lsys.CUDA, sys *lsys.System, o lsys.DeriveOptions) (*lsys.String, error) {
	t.Helper()
	ds, _, err := c.DeriveOnDevice(context.Background(), sys, o)
	if err != nil {
		t.Fatalf("CUDA derive: %v", err)
	}
	hs, err := c.ApplyHomomorphismOnDevice(context.Background(), sys, ds)
	if err != nil {
		ds.Free() // harmless when the homomorphism took it over
		return nil, err
	}
	defer hs.Free()
	s, err := hs.Download()
	if err != nil {
		t.Fatal(err)
	}
	return s, nil
}

func sameString(t *testing.T, want, got *lsys.String) {
	t.Helper()
	if !bytes.Equal(want.Syms, got.Syms) {
		t.Fatalf("symbols %q (%d), want %q (%d)", clip(got.Syms), got.Len(), clip(want.Syms), want.Len())
	}
	if len(want.Params) != len(got.Params) {
		t.Fatalf("%d parameters, want %d", len(got.Params), len(want.Params))
	}
	for i := range want.Params {
		if math.Float64bits(want.Params[i]) != math.Float64bits(got.Params[i]) {
			t.Fatalf("parameter %d: %v, want %v", i, got.Params[i], want.Params[i])
		}
	}
}

// TestCUDAHomomorphism: the homomorphism applied on the device gives the
// CPU's string bit for bit, or the CPU's error message.
func TestCUDAHomomorphism(t *testing.T) {
	c := cudaDeriver(t)
	systems := map[string]*lsys.System{}
	for name, src := range homoCases {
		systems[name] = parse(t, src)
	}
	for _, f := range []string{"dragon-curve.l", "sierpinski-gasket.l", "koch-island.l"} {
		systems[f] = loadSystem(t, filepath.Base(f))
	}
	for name, sys := range systems {
		for _, steps := range []int{0, 1, 5, 9, 14} {
			for seed := uint64(1); seed <= 2; seed++ {
				t.Run(fmt.Sprintf("%s/n=%d/seed=%d", name, steps, seed), func(t *testing.T) {
					o := lsys.DeriveOptions{Steps: steps, Seed: seed, MaxModules: 1 << 22}
					want, ok, werr := homoCPU(t, sys, o)
					if !ok {
						return
					}
					got, gerr := homoCUDA(t, c, sys, o)
					if werr != nil || gerr != nil {
						if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
							t.Fatalf("error %v, CPU %v", gerr, werr)
						}
						return
					}
					sameString(t, want, got)
				})
			}
		}
	}
}

// TestCUDAHomomorphismRefused: contexts with branches stay on the host.
func TestCUDAHomomorphismRefused(t *testing.T) {
	c := cudaDeriver(t)
	sys := parse(t, "axiom: A[B]C\nA --> A\nhomomorphism\nA > [B]C --> F\n")
	ds, _, err := c.DeriveOnDevice(context.Background(), sys, lsys.DeriveOptions{Steps: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Free()
	n := ds.Len() // A[B]C: five modules, brackets included
	if _, err := c.ApplyHomomorphismOnDevice(context.Background(), sys, ds); !errors.Is(err, lsys.ErrNotOnGPU) {
		t.Fatalf("error %v, want ErrNotOnGPU", err)
	}
	if n != 5 || ds.Len() != n {
		t.Fatalf("the refused string was consumed: %d modules", ds.Len())
	}
}
