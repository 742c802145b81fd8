package output

import (
	"bytes"
	"context"
	"errors"
	"image"
	_ "image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestResolveKinds(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("f.txt", link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.txt")
	if err := os.Symlink("new.txt", dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	if err := os.Symlink("sub/../new.txt", filepath.Join(dir, "viamissing")); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		kind    Kind
		file    string
		wantErr string
	}{
		{path: "-", kind: KindStdout},
		{path: file, kind: KindFile, file: file},
		{path: filepath.Join(dir, "new.png"), kind: KindFile, file: filepath.Join(dir, "new.png")},
		{path: link, kind: KindFile, file: file},
		{path: fifo, kind: KindStream, file: fifo},
		{path: "/dev/null", kind: KindStream, file: "/dev/null"},
		{path: dir, wantErr: "is a directory"},
		{path: filepath.Join(dir, "missing", "x.png"), wantErr: "does not exist"},
		{path: filepath.Join(file, "x.png"), wantErr: "not a directory"},
		{path: loop, wantErr: "too many levels"},
		// The kernel needs sub to exist to take its "..": a lexical Clean did not.
		{path: filepath.Join(dir, "viamissing"), wantErr: "does not exist"},
		{path: "", wantErr: "empty path"},
	}
	for _, tt := range tests {
		got, err := Resolve(tt.path)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrTarget) {
				t.Errorf("Resolve(%q) error %v, want %q (ErrTarget)", tt.path, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Resolve(%q): %v", tt.path, err)
			continue
		}
		if got.Kind != tt.kind || (tt.file != "" && filepath.Clean(got.File) != tt.file) {
			t.Errorf("Resolve(%q) = %+v, want kind %d file %s", tt.path, got, tt.kind, tt.file)
		}
	}
	// A dangling link is written at the file it names.
	if got, err := Resolve(dangling); err != nil || filepath.Clean(got.File) != filepath.Join(dir, "new.txt") {
		t.Errorf("Resolve(dangling) = %+v, %v", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 6 {
		t.Errorf("Resolve left files behind: %d entries", len(entries))
	}
}

func TestWriteFileKeepsSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.txt")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi.Mode(), err)
	}
	if got := readString(t, target); got != "new" {
		t.Errorf("target holds %q, want new", got)
	}
}

func TestWriteFileDeviceIsStreamed(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		_ = f.Close()
		got <- string(b)
	}()
	if err := WriteFile(fifo, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("FIFO replaced: %v %v", fi.Mode(), err)
	}
	// /dev/null stays a device.
	if err := WriteFile("/dev/null", writeString("x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v", fi.Mode())
	}
}

func TestPlanRefusesDuplicatesAndInputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte("input"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "alias.txt")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	p := NewPlan(io.Discard)
	if _, err := p.Add(link); err != nil {
		t.Fatal(err)
	}
	if err := p.RefuseInputs(in); err == nil || !strings.Contains(err.Error(), "is the input") {
		t.Errorf("output = input accepted: %v", err)
	}
	p = NewPlan(io.Discard)
	a := filepath.Join(dir, "a.txt")
	if _, err := p.Add(a); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Add(filepath.Join(dir, ".", "a.txt")); err == nil {
		t.Error("the same destination twice accepted")
	}
	if _, err := p.Add("-"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Add("-"); err == nil {
		t.Error("stdout twice accepted")
	}
	if err := p.RefuseInputs(in, "-"); err != nil {
		t.Errorf("distinct outputs refused: %v", err)
	}
}

func TestPlanCommitAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	if err := os.WriteFile(b, []byte("old b"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	p := NewPlan(&stdout)
	err := p.Commit(context.Background(), []Write{
		{Path: a, Func: writeString("new a")},
		{Path: "-", Func: writeString("to stdout")},
		{Path: b, Func: func(w io.Writer) error { _, _ = io.WriteString(w, "partial"); return errBoom }},
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("Commit: %v, want errBoom", err)
	}
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Error("a.txt written although b.txt failed")
	}
	if got := readString(t, b); got != "old b" {
		t.Errorf("b.txt = %q, want the old content", got)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout written although a file failed: %q", stdout.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %d entries", len(entries))
	}

	p = NewPlan(&stdout)
	if err := p.Commit(context.Background(), []Write{
		{Path: a, Func: writeString("new a")}, {Path: "-", Func: writeString("out")}, {Path: b, Func: writeString("new b")},
	}); err != nil {
		t.Fatal(err)
	}
	if readString(t, a) != "new a" || readString(t, b) != "new b" || stdout.String() != "out" {
		t.Error("Commit did not write every output")
	}
}

func TestPlanCommitCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	big := func(w io.Writer) error {
		chunk := bytes.Repeat([]byte("x"), 1<<10)
		for i := 0; i < 1<<12; i++ {
			if i == 100 {
				cancel()
			}
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	}
	p := NewPlan(io.Discard)
	err := p.Commit(ctx, []Write{{Path: filepath.Join(dir, "big.bin"), Func: big}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Commit after cancel: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("cancelled commit left %d files", len(entries))
	}
}

func TestProbeCreatableDir(t *testing.T) {
	dir := t.TempDir()
	if err := ProbeCreatableDir(filepath.Join(dir, "a", "b")); err != nil {
		t.Errorf("creatable dir refused: %v", err)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ProbeCreatableDir(filepath.Join(file, "sub")); err == nil {
		t.Error("directory under a file accepted")
	}
	if err := ProbeCreatableDir("/proc/procgen-test"); err == nil {
		t.Error("directory under /proc accepted")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("probe left files: %d entries", len(entries))
	}
}

func TestEncodeJPEG(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	var buf bytes.Buffer
	if err := EncodeJPEG(context.Background(), &buf, img, 90); err != nil {
		t.Fatal(err)
	}
	if _, format, err := image.Decode(&buf); err != nil || format != "jpeg" {
		t.Errorf("decoded %q, %v", format, err)
	}
	if err := EncodeJPEG(context.Background(), &buf, img, 0); err == nil {
		t.Error("quality 0 accepted")
	}
}
