//go:build linux

package outdir

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// produce runs what a command does: inspect dir, write files into a stage,
// commit. It fails the test on any error.
func produce(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	d, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	stage := writeStage(t, d, files)
	if err := d.Commit(context.Background(), stage); err != nil {
		t.Fatal(err)
	}
}

func writeStage(t *testing.T, d *Dir, files map[string]string) string {
	t.Helper()
	stage, err := d.Stage()
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(stage, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return stage
}

// names lists dir's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode() & (fs.ModePerm | fs.ModeSetgid | fs.ModeSticky)
}

// A fresh directory gets 0755 less the umask (not os.MkdirTemp's 0700).
func TestFreshDirMode(t *testing.T) {
	for _, c := range []struct {
		umask int
		want  fs.FileMode
	}{{0o022, 0o755}, {0o027, 0o750}, {0o077, 0o700}} {
		old := syscall.Umask(c.umask)
		dir := filepath.Join(t.TempDir(), "out")
		produce(t, dir, map[string]string{"a.csv": "1"})
		syscall.Umask(old)
		if got := mode(t, dir); got != c.want {
			t.Errorf("umask %03o: mode %v, want %v", c.umask, got, c.want)
		}
	}
}

// A second run replaces procgen's own directory whole, keeps its mode
// (special bits too), and leaves nothing beside it; an empty existing
// directory keeps its mode as well.
func TestReplaceOwn(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	produce(t, dir, map[string]string{"a.csv": "first", "b.png": "image"})
	if got := names(t, dir); !slices.Equal(got, []string{ManifestName, "a.csv", "b.png"}) {
		t.Fatalf("first run wrote %v", got)
	}
	if err := os.Chmod(dir, fs.ModeSetgid|0o751); err != nil {
		t.Fatal(err)
	}
	produce(t, dir, map[string]string{"c.csv": "second"})
	if got := names(t, dir); !slices.Equal(got, []string{ManifestName, "c.csv"}) {
		t.Errorf("second run left %v", got)
	}
	if got := mode(t, dir); got != fs.ModeSetgid|0o751 {
		t.Errorf("mode %v, want the old directory's %v", got, fs.ModeSetgid|0o751)
	}
	if got := names(t, parent); !slices.Equal(got, []string{"out"}) {
		t.Errorf("left beside it: %v", got)
	}
	// Read-only for its owner: still replaced, mode kept.
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	produce(t, dir, map[string]string{"d.csv": "third"})
	if got := mode(t, dir); got != 0o555 {
		t.Errorf("mode %v, want 0555", got)
	}
	if got := names(t, parent); !slices.Equal(got, []string{"out"}) {
		t.Errorf("left beside it: %v", got)
	}

	empty := filepath.Join(parent, "empty")
	if err := os.Mkdir(empty, 0o705); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(empty, 0o705); err != nil {
		t.Fatal(err)
	}
	produce(t, empty, map[string]string{"a.csv": "x"})
	if got := mode(t, empty); got != 0o705 {
		t.Errorf("empty directory replaced with mode %v, want 0705", got)
	}
}

// Inspect refuses anything procgen did not write, naming it and why, and
// touches nothing.
func TestInspectRefuses(t *testing.T) {
	root := os.Geteuid() == 0
	cases := []struct {
		name     string
		rootOnly bool
		spoil    func(dir string) error
		want     string
	}{
		{"unknown file", false, func(d string) error { return os.WriteFile(filepath.Join(d, "notes.txt"), []byte("mine"), 0o644) },
			"notes.txt is not a file procgen wrote here"},
		{"subdirectory", false, func(d string) error { return os.Mkdir(filepath.Join(d, "sub"), 0o755) },
			"sub/ is a subdirectory"},
		{"symlink", false, func(d string) error { return os.Symlink("/etc/passwd", filepath.Join(d, "link")) },
			"link is a symbolic link"},
		{"fifo", false, func(d string) error { return syscall.Mkfifo(filepath.Join(d, "pipe"), 0o644) },
			"pipe is not a regular file"},
		{"edited, same size", false, func(d string) error { return os.WriteFile(filepath.Join(d, "a.csv"), []byte("FIRST"), 0o644) },
			"a.csv has changed since procgen wrote it (same size, different content)"},
		{"appended", false, func(d string) error { return os.WriteFile(filepath.Join(d, "a.csv"), []byte("first!"), 0o644) },
			"a.csv has changed since procgen wrote it (6 bytes, not 5)"},
		{"a listed file replaced by a directory", false, func(d string) error {
			if err := os.Remove(filepath.Join(d, "a.csv")); err != nil {
				return err
			}
			return os.Mkdir(filepath.Join(d, "a.csv"), 0o755)
		}, "a.csv/ is a subdirectory"},
		{"no manifest", false, func(d string) error { return os.Remove(filepath.Join(d, ManifestName)) },
			"it has no " + ManifestName},
		{"garbage manifest", false, func(d string) error { return os.WriteFile(filepath.Join(d, ManifestName), []byte("{"), 0o644) },
			"is not a procgen manifest"},
		{"manifest naming a path", false, func(d string) error {
			doc := `{"procgen_manifest": 1, "files": [{"name": "../x", "size": 1, "sha256": ""}]}`
			return os.WriteFile(filepath.Join(d, ManifestName), []byte(doc), 0o644)
		}, `names "../x", which procgen never writes`},
		{"file of another user", true, func(d string) error { return os.Chown(filepath.Join(d, "a.csv"), 65534, 65534) },
			"a.csv belongs to user 65534"},
		{"directory of another user", true, func(d string) error { return os.Chown(d, 65534, 65534) },
			"it belongs to user 65534"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.rootOnly && !root {
				t.Skip("needs root to give a file to another user")
			}
			dir := filepath.Join(t.TempDir(), "out")
			produce(t, dir, map[string]string{"a.csv": "first", "b.png": "image"})
			if err := c.spoil(dir); err != nil {
				t.Fatal(err)
			}
			before := names(t, dir)
			d, err := Inspect(dir)
			var refused *RefusedError
			if !errors.As(err, &refused) || d != nil {
				t.Fatalf("Inspect: %v, %v; want a refusal", d, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("refusal %q does not say %q", err, c.want)
			}
			if after := names(t, dir); !slices.Equal(before, after) {
				t.Errorf("Inspect changed the directory: %v, then %v", before, after)
			}
		})
	}
}

// A directory procgen never wrote is refused by listing what it holds, and
// a long list is cut short.
func TestInspectForeignDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 12 {
		if err := os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".txt"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Inspect(dir)
	if err == nil || !strings.Contains(err.Error(), "it holds a.txt, b.txt") || !strings.Contains(err.Error(), "and 4 more") {
		t.Errorf("refusal: %v", err)
	}
	if _, err := Inspect(filepath.Join(dir, "a.txt")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file as the output directory: %v", err)
	}
}

// What changes in the old directory while the run works is caught at
// Commit: the old directory stays where and as it was, the stage stays for
// the caller to remove, nothing else is left.
func TestCommitChangedDuringRun(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(dir string) error
		want   string
	}{
		{"a file appeared", func(d string) error { return os.WriteFile(filepath.Join(d, "late.txt"), []byte("x"), 0o644) },
			"late.txt appeared"},
		{"a file was modified", func(d string) error {
			f, err := os.OpenFile(filepath.Join(d, "a.csv"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, err = f.WriteString("more")
			return errors.Join(err, f.Close())
		}, "a.csv was modified"},
		{"the directory was replaced", func(d string) error {
			if err := os.Rename(d, d+".moved"); err != nil {
				return err
			}
			return os.Mkdir(d, 0o755)
		}, "it is another directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "out")
			produce(t, dir, map[string]string{"a.csv": "first"})
			d, err := Inspect(dir)
			if err != nil {
				t.Fatal(err)
			}
			stage := writeStage(t, d, map[string]string{"new.csv": "second"})
			if err := c.change(dir); err != nil {
				t.Fatal(err)
			}
			before := names(t, dir)
			err = d.Commit(context.Background(), stage)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Commit: %v, want %q", err, c.want)
			}
			if after := names(t, dir); !slices.Equal(before, after) {
				t.Errorf("old directory %v became %v", before, after)
			}
			if err := os.RemoveAll(stage); err != nil {
				t.Fatal(err)
			}
			for _, n := range names(t, parent) {
				if n != "out" && n != "out.moved" {
					t.Errorf("left behind: %s", n)
				}
			}
		})
	}
}

func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{`/a\040b`: "/a b", `/x\134y`: `/x\y`, `/plain`: "/plain", `/end\04`: `/end\04`} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}
