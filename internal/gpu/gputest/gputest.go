// Package gputest opens the CUDA device that a package's GPU tests share.
// For tests only.
package gputest

import (
	"os"
	"sync"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

var shared struct {
	once sync.Once
	dev  *gpu.Device
	err  error
}

// Device opens device 0 once per test binary, running setup (if not nil) on
// it that one time. Without a usable device the test skips, or fails when
// PROCGEN_REQUIRE_GPU is set (on the GPU machine, where a skip would hide a
// broken backend).
func Device(t testing.TB, setup func(*gpu.Device) error) *gpu.Device {
	t.Helper()
	shared.once.Do(func() {
		if shared.dev, shared.err = gpu.Open(0); shared.err == nil && setup != nil {
			shared.err = setup(shared.dev)
		}
	})
	if shared.err != nil {
		if os.Getenv("PROCGEN_REQUIRE_GPU") != "" {
			t.Fatalf("no device: %v", shared.err)
		}
		t.Skipf("no CUDA device: %v", shared.err)
	}
	return shared.dev
}
