//go:build cuda

package turtle

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// TestCUDAPolygonRules: cpfg's polygon rules on the GPU as on the CPU: F
// and f inside braces add vertices (a vertex where the last one is adds
// nothing), G and g do not, over many chunks and at chunk boundaries; and
// ABOP's fig. 1.25, whose leaves are traced by f.
func TestCUDAPolygonRules(t *testing.T) {
	cu := cudaInterpreter(t)
	sys := &lsys.System{Angle: 30, Step: 1}
	for _, src := range []string{
		"{f+f+f}", "{.f.+f.+f.}", "{F+F+F}", "{.G+G.+g.+g.}", "f{G+G+G}", "F+{f.f.}",
		repeat("{-f+f+f-|-f+f+f}F[+F{.G.+G.{F+F}+g.}]", 1500) + repeat("f{F+f.", 300) + repeat("}", 300),
	} {
		s := parseModules(t, sys, src)
		compare(t, cu, sys, s, 0, 16, 64)
		if len(src) < 40 {
			g := interpret(t, sys, s, 1)
			sameAsReference(t, sys, s, g, 1e-6)
		}
	}
	bush, s := deriveConfig(t, "bush-fig125.l", -1)
	compare(t, cu, bush, s, 0, 16, 128)
}

func repeat(s string, n int) string {
	out := make([]byte, 0, len(s)*n)
	for range n {
		out = append(out, s...)
	}
	return string(out)
}
