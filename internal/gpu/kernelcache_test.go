package gpu

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPruneGenerated: over the bound, the least recently used generated
// kernels go until three quarters of it are left; other files stay.
func TestPruneGenerated(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	write := func(name string, size int, age int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(age) * time.Minute)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldest := write("ptx-a.cubin", 100, 0)
	old := write("flame-iterate-b.ptx", 100, 1)
	used := write("ptx-c.cubin", 100, 2)
	newest := write("flame-iterate-d.ptx", 100, 3)
	prepared := write("flame-0123-sm_90-cuda13000.cubin", 1000, -10) // a vector-reduction variant
	TouchCached(used)                                                // used just now: kept longest
	PruneGenerated(dir, 1000)                                        // 400 bytes: nothing to do
	for _, p := range []string{oldest, old, used, newest, prepared} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("under the bound %s went: %v", filepath.Base(p), err)
		}
	}
	PruneGenerated(dir, 300) // 400 > 300: down to 225, so the two least recently used go
	for p, want := range map[string]bool{oldest: false, old: false, newest: true, used: true, prepared: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
