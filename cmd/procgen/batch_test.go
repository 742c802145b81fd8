package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/job"
)

// A batch's bad -o patterns, colliding inputs and unreadable directories
// are usage errors: exit 2 (internal/job tests what is refused).
func TestBatchUsageErrors(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.l"), filepath.Join(dir, "sub", "a.l")
	for _, p := range []string{a, b} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("axiom: F\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log job.Warner = &logger{w: &bytes.Buffer{}}
	items := []job.Item{{Path: a, Name: "a", Slot: 0}, {Path: filepath.Join(dir, "b.l"), Name: "b", Slot: 1}}
	for _, bad := range []string{"out.obj", "%s%s.obj", "%d.obj", "x%", "-", "%%s.obj", filepath.Join(dir, "%s.l")} {
		if _, err := job.Outputs(items, []string{bad}); exitCode(err) != exitUsage {
			t.Errorf("-o %q: %v, exit %d, want %d", bad, err, exitCode(err), exitUsage)
		}
	}
	if _, _, err := job.Own("lsys", []string{a, b}, shard{Count: 1}, log, ".l"); exitCode(err) != exitUsage {
		t.Errorf("two inputs named a: %v, exit %d", err, exitCode(err))
	}
	if _, _, err := job.Own("lsys", []string{filepath.Join(dir, "sub")}, shard{Count: 1}, log, ".pga"); exitCode(err) != exitUsage {
		t.Errorf("a directory without inputs: %v, exit %d", err, exitCode(err))
	}
}
