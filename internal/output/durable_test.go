package output

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestDurable(t *testing.T) {
	bg := context.Background()
	cases := []struct {
		name string
		ctx  context.Context
		want bool
	}{
		{"no policy: always", bg, true},
		{"no policy, resumable", Resumable(bg), true},
		{"always", WithFsync(bg, FsyncAlways), true},
		{"never", WithFsync(bg, FsyncNever), false},
		{"never, resumable", Resumable(WithFsync(bg, FsyncNever)), false},
		{"auto", WithFsync(bg, FsyncAuto), false},
		{"auto, resumable", Resumable(WithFsync(bg, FsyncAuto)), true},
		{"auto, resumable set first", WithFsync(Resumable(bg), FsyncAuto), true},
		{"a job's staging overrides the run's policy", WithFsync(Resumable(WithFsync(bg, FsyncAlways)), FsyncNever), false},
	}
	for _, c := range cases {
		if got := Durable(c.ctx); got != c.want {
			t.Errorf("%s: Durable = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParseFsync(t *testing.T) {
	for s, want := range map[string]FsyncPolicy{"auto": FsyncAuto, "always": FsyncAlways, "never": FsyncNever} {
		if got, err := ParseFsync(s); err != nil || got != want {
			t.Errorf("ParseFsync(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "Auto", "yes", "1"} {
		if _, err := ParseFsync(s); err == nil {
			t.Errorf("ParseFsync(%q) accepted", s)
		}
	}
}

// Every policy keeps the all-or-nothing rename: the result is complete,
// and a failed write leaves the old file and no temporary file.
func TestWriteFileContextEveryPolicy(t *testing.T) {
	for _, p := range []FsyncPolicy{FsyncAlways, FsyncAuto, FsyncNever} {
		dir := t.TempDir()
		path := filepath.Join(dir, "r.txt")
		ctx := WithFsync(context.Background(), p)
		if err := WriteFileContext(ctx, path, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }); err != nil {
			t.Fatalf("policy %d: %v", p, err)
		}
		err := WriteFileContext(ctx, path, func(w io.Writer) error {
			_, _ = w.Write([]byte("partial"))
			return os.ErrInvalid
		})
		if err == nil {
			t.Fatalf("policy %d: a failing write succeeded", p)
		}
		if b, _ := os.ReadFile(path); string(b) != "new" {
			t.Errorf("policy %d: after a failed write the file holds %q", p, b)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("policy %d: %d entries left, want the result alone", p, len(entries))
		}
	}
}
