// Command procgen is a suite of procedural generators that run on the GPU
// when one is available and on the CPU otherwise.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/procgen-dev/procgen/internal/phase"
)

func main() { os.Exit(processMain()) }

// processMain is run with the process around it: signals (the first
// SIGINT or SIGTERM cancels the run, a second one kills), the test hook of
// interruptEnv, os.Args and the standard streams. The testscript tests run
// the binary through it too.
func processMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal the run winds down (exit 130, nothing
		// written); a second one gets the default action: kill at once.
		<-ctx.Done()
		stop()
	}()
	if at := os.Getenv(interruptEnv); at != "" {
		ctx = phase.WithHook(ctx, interruptHook(at, os.Stderr, func() { interruptSelf(stop) }))
	}
	if os.Getenv(noWorkEnv) == "1" {
		ctx = phase.WithHook(ctx, noWorkHook(os.Stderr))
	}
	if at := os.Getenv(panicEnv); at != "" {
		ctx = phase.WithHook(ctx, panicHook(at))
	}
	// A write to a closed pipe then fails with EPIPE (exit 141) instead of
	// killing the process by SIGPIPE, which would leave temporary files.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	stdout := &pipeWatch{w: os.Stdout}
	code := run(ctx, os.Args[1:], os.Stdin, stdout, os.Stderr)
	if code == exitOK && stdout.broken.Load() {
		code = exitBrokenPipe
	}
	return code
}

// run is the whole program minus the process: it builds a fresh command tree
// on every call, so tests can call it repeatedly, and returns the exit code.
// A panic on its goroutine is a bug: exit 1 with "internal error" and the
// stack (recoverInternal), not Go's exit 2, which is the usage code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer recoverInternal(stderr, &code)
	a := newApp(stdin, stdout, stderr)
	root := a.newRootCmd()
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	a.dev.ReleasePrefetched()
	if err == nil {
		return exitOK
	}
	if ctx.Err() != nil && !errors.Is(err, context.Canceled) {
		// The signal arrived and the command failed because of it, in
		// whatever way it noticed (a closed pipe, a half-written file).
		err = fmt.Errorf("interrupted: %w (%w)", context.Canceled, err)
	}
	a.clearProgress() // a half-drawn bar must not swallow the message
	if !a.started {
		// Cobra failed before any of our code ran: an unknown command or
		// flag, or a wrong number of arguments.
		err = asUsage(err)
	}
	code = exitCode(err)
	switch code {
	case exitInterrupted:
		// Whatever failed on the way out was caused by the signal.
		fmt.Fprintln(stderr, "procgen: interrupted")
		return code
	case exitBrokenPipe:
		// The reader took what it wanted (| head): quiet, as a filter is.
		return code
	}
	fmt.Fprintf(stderr, "procgen: %s\n", oneLine(err.Error()))
	// The hint is for calls cobra could not parse; our own checks say in
	// their one line which flag to change.
	if code == exitUsage && cmd != nil && !a.started && !strings.Contains(err.Error(), "invalid argument") {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return code
}

// oneLine folds a multi-line message onto one line, so every error is one
// line on stderr that scripts can grep.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
