//go:build cuda

package rules

import (
	"context"
	"errors"
	"testing"
)

// A rule over more indices than the GPU's fault keys hold is refused with
// ErrNotOnGPU before anything runs; the same program runs on the CPU.
func TestCUDARefusesHugeRange(t *testing.T) {
	c := cudaEngine(t)
	p := compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"})
	st := Generate(p, 1, 1)
	if _, err := c.Run(context.Background(), p, st, Options{Steps: 1}); !errors.Is(err, ErrNotOnGPU) {
		t.Fatalf("CUDA run: %v", err)
	}
	runCPU(t, p, st, Options{Steps: 1})
	// Exactly the GPU's limit still runs there, and agrees with the CPU.
	q := compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "512"})
	want, got := Generate(q, 1, 2), Generate(q, 1, 2)
	runCPU(t, q, want, Options{Steps: 3})
	if _, err := c.Run(context.Background(), q, got, Options{Steps: 3}); err != nil {
		t.Fatal(err)
	}
	compareStates(t, "life 1024x512", q, want, got, false)
}
