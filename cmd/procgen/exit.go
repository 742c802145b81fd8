package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
)

// Exit codes. They are part of the command-line interface: scripts test them,
// and the root --help text documents them (keep exitCodeHelp in step).
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitNoDevice    = 3
	exitInterrupted = 130
	exitBrokenPipe  = 141
)

const exitCodeHelp = `Exit codes:
  0    success
  1    failure: the work failed, the input's content is malformed, or a
       check such as 'compare' thresholds did not hold; also an internal
       error (a bug: 'procgen: internal error' and a stack trace on stderr)
  2    usage error: bad flag, argument, configuration value or config file;
       a missing or unreadable input file, a directory given as a file; an
       output that cannot be written or would overwrite an input; a size
       over its limit (the message names the flag)
  3    the requested device is unavailable (--device cuda without a usable
       CUDA device)
  130  interrupted (SIGINT or SIGTERM); nothing partial is written: the
       frames and batch items already complete stay, for --resume
  141  the reader of the output went away (procgen ... -o - | head): a
       closed pipe or FIFO; nothing more is written, nothing is printed
A crash of the Go runtime exits 2 with 'fatal error:' or 'panic:' and a
goroutine trace on stderr: out of memory, which no program can recover
from, or a bug outside the command's own goroutine (please report it).`

// usageError marks an error as the user's mistake in how procgen was called:
// exit code 2, and a hint pointing at the command's --help. It is the job
// contract's own, so jobs below cmd report usage errors the same way.
type usageError = job.UsageError

func usageErrorf(format string, args ...any) error { return job.Usagef(format, args...) }

// asUsage wraps err as a usage error unless it is nil or already one.
func asUsage(err error) error {
	var ue usageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	return usageError{Err: err}
}

// deviceError is an explicit device request that cannot be met.
type deviceError struct{ err error }

func (e deviceError) Error() string { return e.err.Error() }
func (e deviceError) Unwrap() error { return e.err }

// exitCode maps an error returned by a command to the process exit code.
// Order matters: an interrupted run is reported as such whatever else failed.
func exitCode(err error) int {
	var ue usageError
	var de deviceError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.Is(err, syscall.EPIPE):
		return exitBrokenPipe
	// A genome attribute over its range is a size over its limit.
	case errors.As(err, &ue), errors.Is(err, input.ErrUsage), errors.Is(err, flame.ErrTooLarge):
		return exitUsage
	case errors.As(err, &de), errors.Is(err, gpu.ErrUnavailable):
		return exitNoDevice
	default:
		return exitFailure
	}
}

// recoverInternal, deferred in run, turns a panic on run's goroutine into
// exit 1 with one line to grep and the stack to report: left alone, Go
// would exit 2, which scripts read as a usage error.
func recoverInternal(stderr io.Writer, code *int) {
	r := recover()
	if r == nil {
		return
	}
	fmt.Fprintf(stderr, "procgen: internal error (a bug, please report it): %s\n", oneLine(fmt.Sprint(r)))
	_, _ = stderr.Write(debug.Stack())
	*code = exitFailure
}

// pipeWatch is standard output, noting a write that failed because its
// reader went away. Procgen asks for SIGPIPE (processMain), so such a write
// fails with EPIPE rather than killing the process halfway through a plan
// of several outputs; the plans report that error (exit 141), and pipeWatch
// gives the same code to text that commands print without checking.
type pipeWatch struct {
	w      io.Writer
	broken atomic.Bool
}

// Unwrap is the standard output itself: the output plan checks that it is
// open (output.CheckWriter).
func (p *pipeWatch) Unwrap() io.Writer { return p.w }

func (p *pipeWatch) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		p.broken.Store(true)
	}
	return n, err
}

// flagValueRE matches pflag's message for a value its parser refused.
var flagValueRE = regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: strconv\.Parse(Int|Uint|Float)[^:]*: parsing "[^"]*": (.*)$`)

// describeFlagError rewrites pflag's strconv messages into one that says
// what the flag wants: "1e9" is not a whole number (write 1000000000), a
// value out of range names the range.
func describeFlagError(err error) error {
	m := flagValueRE.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, flag, kind, why := m[1], m[2], m[3], m[4]
	switch {
	case strings.Contains(why, "out of range") && kind == "Uint":
		return fmt.Errorf("invalid argument %q for %q: out of range (want 0..2^64-1)", value, flag)
	case strings.Contains(why, "out of range") && kind == "Int":
		return fmt.Errorf("invalid argument %q for %q: out of range (want -2^63..2^63-1)", value, flag)
	case strings.Contains(why, "out of range"):
		return fmt.Errorf("invalid argument %q for %q: out of range for a float64", value, flag)
	case kind != "Float" && strings.ContainsAny(value, "eE."):
		return fmt.Errorf("invalid argument %q for %q: want a whole number written out in digits", value, flag)
	}
	return fmt.Errorf("invalid argument %q for %q: want a number", value, flag)
}
