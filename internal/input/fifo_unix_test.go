//go:build unix

package input

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func mkfifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}

func TestFIFOOpenCancelled(t *testing.T) {
	p := mkfifo(t)
	cancelAfter(t, func(ctx context.Context) error {
		_, err := ReadFile(ctx, p, Genome)
		return err
	})
	// The abandoned open is still waiting: a writer releases it, and it
	// closes the file it then gets.
	if w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		_ = w.Close()
	}
}

func TestFIFOReadCancelled(t *testing.T) {
	p := mkfifo(t)
	// A writer that opens and then writes nothing: the open succeeds and
	// the read waits for data.
	w, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cancelAfter(t, func(ctx context.Context) error {
		_, err := ReadFile(ctx, p, Genome)
		return err
	})
}
