package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/procgen-dev/procgen/internal/phase"
)

// interruptEnv names a phase at whose start the process sends itself
// SIGINT, as a user pressing Ctrl-C there would. The contract tests use it
// to interrupt every phase of every command deterministically. A later
// phase beginning after that is a bug (the interrupted phase did not stop):
// the process then exits 98 naming both, which no normal run does.
const interruptEnv = "PROCGEN_TEST_INTERRUPT_AT"

// noWorkEnv, set to 1, makes any phase beginning exit 96: the tests of
// checks that must fail before the work (a bad output path) use it.
const noWorkEnv = "PROCGEN_TEST_NO_WORK"

// noWorkHook is the phase hook of noWorkEnv.
func noWorkHook(stderr io.Writer) phase.Hook {
	return func(_ context.Context, name string) {
		fmt.Fprintf(stderr, "procgen: %s: phase %s began\n", noWorkEnv, name)
		os.Exit(96)
	}
}

// interruptHook returns the phase hook for interruptEnv's value.
func interruptHook(at string, stderr io.Writer) phase.Hook {
	var mu sync.Mutex
	fired := ""
	return func(ctx context.Context, name string) {
		mu.Lock()
		defer mu.Unlock()
		if fired != "" {
			fmt.Fprintf(stderr, "procgen: %s: phase %s began after the interrupt in %s\n", interruptEnv, name, fired)
			os.Exit(98)
		}
		if name != at {
			return
		}
		fired = name
		_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			fmt.Fprintf(stderr, "procgen: %s: SIGINT was not delivered within 10 s\n", interruptEnv)
			os.Exit(97)
		}
	}
}
