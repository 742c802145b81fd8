package job

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExpandOut(t *testing.T) {
	for _, tc := range []struct{ pattern, name, want string }{
		{"out/%s.obj", "tree", "out/tree.obj"},
		{"%s/%%s.obj", "a", "a/%s.obj"},
		{"100%%-%s.png", "x", "100%-x.png"},
	} {
		if err := CheckPattern(tc.pattern); err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := Expand(tc.pattern, tc.name); got != tc.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", tc.pattern, tc.name, got, tc.want)
		}
	}
	for _, bad := range []string{"out.obj", "%s%s.obj", "%d.obj", "x%", "-", "%%s.obj"} {
		if err := CheckPattern(bad); err == nil {
			t.Errorf("CheckPattern(%q) passed, want an error", bad)
		}
	}
}

// Two inputs of one name would write one file: refused. A directory is a
// batch even with one file in it.
func TestBatchInputs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.l", "a.l", "c.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("axiom: F\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	items, batch, err := Inputs("lsys", []string{dir}, ".l")
	if err != nil || !batch || len(items) != 2 || items[0].Name != "a" || items[1].Slot != 1 {
		t.Fatalf("got %+v, %v, %v; want a.l then b.l, a batch", items, batch, err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "a.l"), []byte("axiom: F\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Inputs("lsys", []string{filepath.Join(dir, "a.l"), filepath.Join(other, "a.l")}, ".l"); err == nil {
		t.Fatal("two inputs named a: no error")
	}
	if _, batch, _ := Inputs("lsys", []string{filepath.Join(dir, "a.l")}, ".l"); batch {
		t.Fatal("one file is a batch")
	}
}

// Every pattern CheckPattern accepts gives each name a distinct path
// holding the name; nothing it refuses panics.
func FuzzOutPattern(f *testing.F) {
	for _, s := range []string{"out/%s.obj", "%%s%s", "%", "a%%b%s%%", "%s%s"} {
		f.Add(s, "tree")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if CheckPattern(pattern) != nil || name == "" || strings.Contains(name, "%") {
			return
		}
		a, b := Expand(pattern, name), Expand(pattern, name+"x")
		if a == b || !strings.Contains(a, name) {
			t.Fatalf("pattern %q: %q and %q", pattern, a, b)
		}
	})
}
