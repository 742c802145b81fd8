//go:build !unix

package output

import (
	"runtime"
	"testing"
)

// mkfifo skips the test: Windows has no named pipes in the file system
// (its named pipes live under \\.\pipe\, not beside an output file).
func mkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skip("no FIFOs on " + runtime.GOOS)
}
