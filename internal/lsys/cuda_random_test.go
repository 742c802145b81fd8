//go:build cuda

package lsys_test

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
)

// TestCUDARandomFunctions: ran, nran and uniform draw the CPU's numbers bit
// for bit on the device, in conditions (count kernel) and successors
// (rewrite kernel), with and without context, for several seeds; and a
// system with query modules derives the CPU's string on the device, which
// sends every step's string to the host for the query step.
func TestCUDARandomFunctions(t *testing.T) {
	c := cudaDeriver(t)
	systems := []string{
		"axiom: Z(0)\nZ(n) : n < 13 --> Z(n+1) Z(n+1)\n" +
			"Z(n) : ran(1) < 0.7 --> R(ran(10)) N(nran(3, 2)) U(uniform(-1, 1)) T(ran(1), ran(1))\nZ(n) --> W\n",
		"axiom: A(1) B(0)\nA(x) : x < 1000 --> A(x + ran(3)) A(x + nran(1, 0.5)) B(x)\n" +
			"A(x) < B(y) : ran(1) < 0.5 --> B(y + uniform(x, x + 1))\n",
		"angle: 25\naxiom: F(1) A ?P(0,0,0)\n" +
			"A > ?P(x,y,z) : x*x + y*y < 40 --> [+(ran(40)) F(nran(1, 0.1)) A ?P(0,0,0)] [-F(1) A ?P(0,0,0)] F(1) A\n" +
			"A > ?P(x,y,z) : x*x + y*y >= 40 --> %\n",
	}
	for i, src := range systems {
		sys := parse(t, src)
		for _, seed := range []uint64{1, 2, 1 << 40} {
			d := compare(t, c, sys, lsys.DeriveOptions{Steps: 14, Seed: seed, MaxModules: 1 << 22, Env: turtle.Queries{}})
			if d != nil && d.String.Len() < 100 {
				t.Errorf("system %d seed %d: %d modules: too small to test much", i, seed, d.String.Len())
			}
		}
	}
}
