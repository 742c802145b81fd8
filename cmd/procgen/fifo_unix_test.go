//go:build unix

package main

import "syscall"

// makeFifo makes a named pipe at path (the mkfifo script command).
func makeFifo(path string) error { return syscall.Mkfifo(path, 0o644) }
