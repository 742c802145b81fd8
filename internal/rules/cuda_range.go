//go:build cuda

package rules

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/input"
)

// forceWide, when set, runs every program on the wide kernels
// (rules/ptx encoding.go); tests use it to check them on small programs.
var forceWide = false

// deviceReserve is device memory a run leaves free: the driver's and the
// kernels' own (module code, local memory, the launch's shared memory).
const deviceReserve = 256 << 20

// checkDeviceMemory refuses, before anything is allocated, a run whose
// buffers (gpuMemory) do not fit the device's free memory.
func checkDeviceMemory(dev *gpu.Device, p *Program, n, steps int) error {
	free, _, err := dev.MemInfo()
	if err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	need := gpuMemory(p, n, steps)
	if need+deviceReserve > int64(free) {
		return deviceMemoryError{fmt.Errorf("rules: %d states of %d words need %s of device memory for %d steps, and %s of %s is free (fewer states or steps, or --device cpu)",
			n, p.Words, mib(need), steps, mib(int64(free)-min(int64(free), deviceReserve)), mib(int64(free)))}
	}
	return nil
}

// deviceMemoryError is a run too large for the device's memory: a size over
// a limit, so a usage error (input.ErrUsage: exit code 2).
type deviceMemoryError struct{ err error }

func (e deviceMemoryError) Error() string        { return e.err.Error() }
func (e deviceMemoryError) Is(target error) bool { return target == input.ErrUsage }

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// readLastFired reads every state's firings in the last step (an int32 a
// state, or an int64 in the wide kernels).
func (r *cudaRun) readLastFired(last []int64) error {
	w, err := r.lastFired.Download()
	if err != nil {
		return err
	}
	for s := range last {
		if r.wide {
			last[s] = int64(uint64(uint32(w[2*s])) | uint64(uint32(w[2*s+1]))<<32)
		} else {
			last[s] = int64(w[s])
		}
	}
	return nil
}
