//go:build unix

package output

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/ctxtest"
)

// mkfifo makes a named pipe at path.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

// An output FIFO that no reader opens, and one whose reader stops reading,
// end with the run's context (Ctrl-C): before, the first waited forever.
func TestStreamFIFOCancel(t *testing.T) {
	dir := t.TempDir()
	noReader := filepath.Join(dir, "noreader")
	mkfifo(t, noReader)
	ctxtest.Latency(t, 100*time.Millisecond, func(ctx context.Context) error {
		return NewPlan(io.Discard).Commit(ctx, []Write{{Path: noReader, Func: func(w io.Writer) error {
			_, err := w.Write([]byte("x"))
			return err
		}}})
	})
	stalled := filepath.Join(dir, "stalled")
	mkfifo(t, stalled)
	// A reader that opens the FIFO and never reads: the pipe fills up.
	r, err := os.OpenFile(stalled, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctxtest.Latency(t, 200*time.Millisecond, func(ctx context.Context) error {
		return NewPlan(io.Discard).Commit(ctx, []Write{{Path: stalled, Func: func(w io.Writer) error {
			block := make([]byte, 1<<16)
			for {
				if _, err := w.Write(block); err != nil {
					return err
				}
			}
		}}})
	})
}
