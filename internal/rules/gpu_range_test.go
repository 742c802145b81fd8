package rules

import (
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// Which programs need the wide kernels: past 2^19 indices, or indices that
// come within a block of 2^31; exactly 2^19 (a 1024x512 board) stays narrow.
func TestGPUWide(t *testing.T) {
	for _, c := range []struct {
		rng  string
		wide bool
	}{
		{"0..524288", false},
		{"0..524289", true},
		{"-524288..0", false},
		{"-2147483647 - 1..-2147483647 - 1 + 524288", false},
		{"2147482000..2147482600", false},
		{"2147483000..2147483647", true},
		{"0..2147483648", true},
	} {
		p := compileSrc(t, fmt.Sprintf("state { int a }\nrule r over i in %s { a = 1 }", c.rng))
		if ptx.NeedsWide(p) != c.wide {
			t.Errorf("%s: wide %v, want %v", c.rng, ptx.NeedsWide(p), c.wide)
		}
	}
}

// gpuMemory counts what CUDA.Run allocates: three 1024x1024 Life boards
// take their 4 MiB each, as much again for the snapshot Life reads its
// neighbours from, and little else; 2^30 steps' firing counts of a rule
// take 8 GiB.
func TestGPUMemoryEstimate(t *testing.T) {
	p := compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"})
	if got := gpuMemory(p, 3, 20); got < 3*8<<20 || got > 3*9<<20 {
		t.Errorf("gpuMemory: %d bytes", got)
	}
	q := compileSrc(t, "state { int a }\nrule r over i in 0..1 { a += 1 }")
	if got := gpuMemory(q, 1, 1<<30); got < 8<<30 || got > 8<<30+1<<20 {
		t.Errorf("gpuMemory: %d bytes for 2^30 steps", got)
	}
}

// Launches of programs on the narrow kernels keep their 256 steps; a wide
// program's are bounded by its work a step.
func TestMaxLaunchSteps(t *testing.T) {
	for _, c := range []struct {
		src    string
		states int
		want   int
	}{
		{"state { int a }\nrule r over i in 0..524288 { a = 1 }", 100000, 256},
		{"state { int a }\nrule r over i in 0..1048576 { a = 1 }", 1, 256},
		{"state { int a }\nrule r over i in 0..1048576 { a = 1 }", 64, 64},
		{"state { int a }\nrule r over i in 0..2147483648 { a = 1 }", 1, 2},
		{"state { int a }\nrule r over i in 0..2147483648 { a = 1 }\nrule s over i in 0..2147483648 { a = 1 }", 3, 1},
	} {
		if got := maxLaunchSteps(compileSrc(t, c.src), c.states); got != c.want {
			t.Errorf("%q x %d: %d, want %d", c.src, c.states, got, c.want)
		}
	}
}
