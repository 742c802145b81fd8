package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
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

// interruptHook returns the phase hook for interruptEnv's value. interrupt
// delivers the Ctrl-C (interruptSelf: a real SIGINT where there are POSIX
// signals).
func interruptHook(at string, stderr io.Writer, interrupt func()) phase.Hook {
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
		interrupt()
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			fmt.Fprintf(stderr, "procgen: %s: the interrupt was not delivered within 10 s\n", interruptEnv)
			os.Exit(97)
		}
	}
}

// panicEnv names a phase at whose start the process panics, as a bug there
// would: the tests of run's recovery (exit 1, "internal error") use it.
const panicEnv = "PROCGEN_TEST_PANIC_AT"

// panicHook is the phase hook of panicEnv.
func panicHook(at string) phase.Hook {
	return func(_ context.Context, name string) {
		if name == at {
			panic(panicEnv + ": phase " + name + " began")
		}
	}
}
