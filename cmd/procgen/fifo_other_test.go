//go:build !unix

package main

import "errors"

// makeFifo fails: Windows has no named pipes in the file system, so the
// scripts that need one skip there.
func makeFifo(string) error { return errors.ErrUnsupported }
