//go:build !unix

package main

import "context"

// interruptSelf cancels the run as a delivered Ctrl-C would. Windows has no
// signal a process can send itself: Ctrl-C is a console control event
// (GenerateConsoleCtrlEvent) that reaches every process on the console, the
// test runner included, and none where there is no console. stop is the
// signal context's: calling it cancels that context, which is what the
// runtime's Ctrl-C handler does through os/signal, so the same code path
// from the cancelled context on is tested; only the delivery is not.
func interruptSelf(stop context.CancelFunc) {
	stop()
}
