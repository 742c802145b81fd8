package output

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeStringFunc(s string) func(w io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// fdPaths are the names a shell user has for descriptor fd of this process.
func fdPaths(fd int) []string {
	return []string{fmt.Sprintf("/dev/fd/%d", fd), fmt.Sprintf("/proc/self/fd/%d", fd),
		fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), fd), fmt.Sprintf("/proc/thread-self/fd/%d", fd)}
}

func needProcFD(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/fd/0"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
}

// A descriptor is written through, where the caller's writes left it: an
// append-mode file keeps its earlier lines, a truncated one gets the result
// after what the shell wrote first and before what it writes next, and the
// file is never renamed over (same inode).
func TestDescriptorWrittenThrough(t *testing.T) {
	needProcFD(t)
	dir := t.TempDir()
	for _, flags := range []int{os.O_WRONLY | os.O_APPEND, os.O_WRONLY | os.O_TRUNC, os.O_RDWR} {
		file := filepath.Join(dir, fmt.Sprintf("log%d", flags))
		if err := os.WriteFile(file, []byte("earlier\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(file)
		f, err := os.OpenFile(file, flags, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if flags&os.O_APPEND != 0 {
			want = "earlier\n"
		}
		if _, err := f.WriteString("HEADER\n"); err != nil {
			t.Fatal(err)
		}
		want += "HEADER\n"
		for _, path := range fdPaths(int(f.Fd())) {
			tg, err := Resolve(path)
			if err != nil || tg.Kind != KindDescriptor || tg.FD != int(f.Fd()) {
				t.Fatalf("Resolve(%s) = %+v, %v; want descriptor %d", path, tg, err, f.Fd())
			}
			p := NewPlan(io.Discard)
			if err := p.Commit(context.Background(), []Write{{Path: path, Func: writeStringFunc(path + "\n")}}); err != nil {
				t.Fatalf("Commit(%s): %v", path, err)
			}
			want += path + "\n"
		}
		if _, err := f.WriteString("FOOTER\n"); err != nil {
			t.Fatalf("the caller's descriptor was closed: %v", err)
		}
		want += "FOOTER\n"
		_ = f.Close()
		if got := readString(t, file); got != want {
			t.Errorf("flags %#x: file holds %q, want %q", flags, got, want)
		}
		after, _ := os.Stat(file)
		if !os.SameFile(before, after) || after.Mode().Perm() != 0o600 {
			t.Errorf("flags %#x: the file was replaced (mode %v)", flags, after.Mode())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("stray files: %v", entries)
	}
}

func TestDescriptorPipeAndDeleted(t *testing.T) {
	needProcFD(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := make(chan string)
	go func() { b, _ := io.ReadAll(r); got <- string(b) }()
	if err := WriteFile(fmt.Sprintf("/dev/fd/%d", w.Fd()), writeStringFunc("through the pipe")); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	if s := <-got; s != "through the pipe" {
		t.Errorf("pipe read %q", s)
	}

	// A descriptor of a deleted file: written through, no "x (deleted)" file.
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "gone.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Remove(f.Name()); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), writeStringFunc("x")); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("writing a deleted file's descriptor made %v", entries)
	}
	if b, _ := os.ReadFile(fmt.Sprintf("/proc/self/fd/%d", f.Fd())); string(b) != "x" {
		t.Errorf("deleted file holds %q", b)
	}
}

func TestDescriptorRefused(t *testing.T) {
	needProcFD(t)
	dir := t.TempDir()
	ro, err := os.Create(filepath.Join(dir, "ro"))
	if err != nil {
		t.Fatal(err)
	}
	_ = ro.Close()
	rdonly, err := os.Open(ro.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer rdonly.Close()
	closed, err := os.Open(ro.Name())
	if err != nil {
		t.Fatal(err)
	}
	closedFD := closed.Fd()
	_ = closed.Close()
	tests := []struct{ path, want string }{
		{fmt.Sprintf("/dev/fd/%d", closedFD), "not open"},
		{fmt.Sprintf("/dev/fd/%d", rdonly.Fd()), "reading only"},
		{fmt.Sprintf("/dev/fd/%d/x", rdonly.Fd()), "below descriptor"},
	}
	if os.Getpid() != 1 {
		tests = append(tests, struct{ path, want string }{"/proc/1/fd/1", "another process"})
	}
	for _, tt := range tests {
		_, err := Resolve(tt.path)
		if err == nil || !errors.Is(err, ErrTarget) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Resolve(%s) = %v, want %q", tt.path, err, tt.want)
		}
	}
}

// Where several outputs may meet: one descriptor twice (or "-" and
// /dev/stdout) is a collision, the null device is not.
func TestPlanDescriptorKeys(t *testing.T) {
	needProcFD(t)
	p := NewPlan(&bytes.Buffer{})
	if _, err := p.Add("/dev/null"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Add("/dev/null"); err != nil {
		t.Errorf("the null device twice: %v", err)
	}
	if _, err := p.Add("/dev/../dev/null"); err != nil {
		t.Errorf("the null device twice: %v", err)
	}
	if _, err := p.Add("-"); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		if _, err := p.Add(path); err == nil || !strings.Contains(err.Error(), "same place") {
			t.Errorf("Add(%s) after -: %v, want a collision", path, err)
		}
	}
}

// Links resolved as the kernel does: with a -> real/sub and
// real/sub/out.png -> ../target.png, a/out.png is real/target.png (the ".."
// is taken in real/sub, where the link lives), not ./target.png.
func TestResolvePhysicalDotDot(t *testing.T) {
	dir := t.TempDir()
	mustDo(t, os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	mustDo(t, os.Symlink("real/sub", filepath.Join(dir, "a")))
	mustDo(t, os.Symlink("../target.png", filepath.Join(dir, "real", "sub", "out.png")))
	mustDo(t, os.WriteFile(filepath.Join(dir, "target.png"), []byte("decoy"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(dir, "real", "target.png"), []byte("old"), 0o644))
	path := filepath.Join(dir, "a", "out.png")
	tg, err := Resolve(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "real", "target.png"); tg.File != want {
		t.Errorf("Resolve(a/out.png).File = %s, want %s", tg.File, want)
	}
	mustDo(t, WriteFile(path, writeStringFunc("new")))
	if got := readString(t, filepath.Join(dir, "target.png")); got != "decoy" {
		t.Errorf("./target.png was overwritten: %q", got)
	}
	if got := readString(t, filepath.Join(dir, "real", "target.png")); got != "new" {
		t.Errorf("real/target.png = %q, want the result", got)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "real", "sub", "out.png")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}

	// Two outputs through a directory link reach one file: a collision.
	mustDo(t, os.Symlink("real", filepath.Join(dir, "b")))
	p := NewPlan(io.Discard)
	if _, err := p.Add(filepath.Join(dir, "real", "x.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Add(filepath.Join(dir, "b", "x.json")); err == nil || !strings.Contains(err.Error(), "same place") {
		t.Errorf("b/x.json after real/x.json (b -> real): %v, want a collision", err)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
