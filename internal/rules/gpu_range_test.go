package rules

import (
	"fmt"
	"testing"
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
		if p.gpuWide() != c.wide {
			t.Errorf("%s: wide %v, want %v", c.rng, p.gpuWide(), c.wide)
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
