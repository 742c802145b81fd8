package job

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/output"
)

// Env is everything a job gets from the process, and all it gets: the
// standard streams, the logger, progress, the --device policy and the global
// settings. The command layer builds one per run from its configuration; a
// job never reads flags, the environment or the config file itself, so a
// job runs the same from the command line, a test or a batch.
//
// Every job follows one contract, in this order:
//  1. plan: inputs checked (CheckInput), outputs resolved and claimed
//     (PlanOutputs: refused before any work when unusable or an input),
//     sizes and memory estimated (CheckMemory), work estimated for auto;
//  2. run on the device the policy opens (Dev.OpenFor), reporting through
//     Progress and stopping when its context ends;
//  3. hand every result to the plan's Commit, which writes all or none.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer // results written to "-"
	Stderr io.Writer // logs, progress; stats when the results go to stdout
	Log    Logger
	Dev    *device.Policy
	// Progress returns the callback domain code reports through: a bar on
	// a terminal, nothing otherwise.
	Progress func(total int64, description string) func(done, total int64)
	Seed     uint64
	// Device is --device as given: auto, cpu or cuda.
	Device string
	// MaxMemory is the --max-memory limit in bytes.
	MaxMemory uint64
	// Origin says where a configuration key's value came from: "default",
	// or a phrase naming the flag, variable or file.
	Origin func(key string) string
}

// Logger is where a job's diagnostics go (stderr): Infof unless --quiet,
// Debugf with -v, Warnf always.
type Logger interface {
	Infof(format string, args ...any)
	Debugf(format string, args ...any)
	Warnf(format string, args ...any)
}

// UsageError marks an error as a mistake in how procgen was called (a bad
// flag or input path, an output that cannot be written, a size over its
// limit): exit code 2, found before the work.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return UsageError{fmt.Errorf(format, args...)}
}

// AsUsage marks err as a usage error unless it is nil or already one.
func AsUsage(err error) error {
	var ue UsageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	return UsageError{err}
}

// PlanOutputs resolves every output path before any work: a path that cannot
// be written (missing or read-only directory, a directory named as a file),
// two outputs on one destination, or an output that is one of the inputs is
// a usage error now, not a failure after minutes of rendering.
func (e *Env) PlanOutputs(inputs []string, outs ...string) (*output.Plan, error) {
	p := output.NewPlan(e.Stdout)
	for _, out := range outs {
		if _, err := p.Add(out); err != nil {
			return nil, UsageError{err}
		}
	}
	if err := p.RefuseInputs(inputs...); err != nil {
		return nil, UsageError{err}
	}
	return p, nil
}

// CheckInput is the usage check of an input argument: it must exist, be
// readable and not be a directory. Problems with its content come later, as
// failures (exit 1).
func CheckInput(what, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return Usagef("%s: %s: %v", what, path, output.DescribeFSError(err))
	}
	if fi.IsDir() {
		return Usagef("%s: %s is a directory, want a file", what, path)
	}
	if !fi.Mode().IsRegular() {
		// A FIFO's open waits for its writer (and would hand it a reader
		// that then goes away): the read itself opens it, cancellably.
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Usagef("%s: %s: %v", what, path, output.DescribeFSError(err))
	}
	_ = f.Close()
	return nil
}

// CheckMemory refuses work whose estimated memory exceeds --max-memory, with
// one line naming the estimate, the limit and the flags that change either.
func (e *Env) CheckMemory(what string, estimate float64, flags string) error {
	limit := float64(e.MaxMemory)
	if estimate <= limit && !math.IsNaN(estimate) {
		return nil
	}
	return Usagef("%s needs an estimated %s of memory, over the limit of %s: lower %s or raise --max-memory",
		what, FormatBytes(estimate), FormatBytes(limit), flags)
}

// CheckDeviceMemory is CheckMemory against the GPU's memory (3/4 of it: the
// driver, other processes and the kernels' own buffers need the rest).
func CheckDeviceMemory(what string, estimate float64, deviceBytes uint64, flags string) error {
	limit := float64(deviceBytes) / 4 * 3
	if deviceBytes == 0 || estimate <= limit {
		return nil
	}
	return Usagef("%s needs an estimated %s of GPU memory, over %s (3/4 of the device's): lower %s or use --device cpu",
		what, FormatBytes(estimate), FormatBytes(limit), flags)
}

// FormatBytes writes a size the way every limit message does.
func FormatBytes(b float64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.1f TiB", b/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", math.Ceil(b/(1<<10)))
}

// IsStream says whether path is (or links to) a character device, FIFO or
// socket, or names one of the process's descriptors (/dev/stdout, /dev/fd/3):
// such outputs have no extension to name their format, so they take the
// --format of standard output. An unusable descriptor counts too, so that its
// error comes from the output plan, not from treating it as a directory.
func IsStream(path string) bool {
	t, err := output.Resolve(path)
	return t.Kind == output.KindDescriptor || (err == nil && t.Kind == output.KindStream)
}
