//go:build unix

package main

import (
	"context"
	"os"
	"syscall"
)

// interruptSelf sends this process SIGINT, so the test hook goes through the
// same signal handling as a user's Ctrl-C; stop is not needed here.
func interruptSelf(_ context.CancelFunc) {
	_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
}
