//go:build cuda

package lsys_test

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// TestCUDAMathFunctions: every expression function (sin, cos, tan, atan,
// asin, acos, exp, log, atan2, ^) gives on the device the CPU's result bit
// for bit, on 20000 arguments each (mathsys_test.go draws them: wide random
// ranges, exact angles, zeros, subnormals, the largest float, results near
// overflow and underflow). TestMathSystemsCPU checks that the CPU derives
// each system without error, so that every argument is compared here.
func TestCUDAMathFunctions(t *testing.T) {
	c := cudaDeriver(t)
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, m := range mathSystems(n) {
		t.Run(m.name, func(t *testing.T) {
			if d := compare(t, c, m.parse(t), lsys.DeriveOptions{Steps: 1}); d == nil || len(d.String.Params) != len(m.args) {
				t.Fatalf("no derivation of %d parameters to compare", len(m.args))
			}
		})
	}
}
