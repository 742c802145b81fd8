//go:build linux

package outdir

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A file untouched since its manifest was written is trusted by its inode
// and change time without being read (so a wrong recorded hash goes
// unseen); once its change time moves, even by a chmod that keeps the
// content, it is hashed again and the wrong hash is caught.
func TestManifestShortcut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	d, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	stage := writeStage(t, d, map[string]string{"a.csv": "first"})
	// The manifest must be written in a later clock tick than the file
	// for the shortcut to apply (matches).
	time.Sleep(50 * time.Millisecond)
	if err := d.Commit(context.Background(), stage); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc manifestDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 1 || doc.Files[0].Ino == 0 || doc.Files[0].Ctime == 0 {
		t.Fatalf("manifest %s records no inode and change time", b)
	}
	doc.Files[0].XXH64 = strings.Repeat("0", 16)
	b, _ = json.Marshal(doc)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(dir); err != nil {
		t.Fatalf("untouched file not trusted by its change time: %v", err)
	}
	if err := os.Chmod(filepath.Join(dir, "a.csv"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(dir); err == nil || !strings.Contains(err.Error(), "same size, different content") {
		t.Fatalf("after a chmod the file must be hashed again: %v", err)
	}
}

// A change time no older than the manifest's may hide a write in the same
// clock tick: such a file is hashed, whatever its inode and change time.
func TestManifestShortcutRacy(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.csv")
	if err := os.WriteFile(p, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := idOf(fi)
	want := manifestFile{Name: "a.csv", Size: 5, XXH64: strings.Repeat("0", 16), Ino: id.ino, Ctime: id.ctime}
	if got := matches(p, id, want, id.ctime); !strings.Contains(got, "different content") {
		t.Errorf("same tick as the manifest: %q, want the file hashed and refused", got)
	}
	if got := matches(p, id, want, id.ctime+1); got != "" {
		t.Errorf("older than the manifest: %q, want it trusted unread", got)
	}
}
