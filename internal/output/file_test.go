package output

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var errBoom = errors.New("boom")

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		existing string // content of a file already at the destination; "" for none
		write    func(w io.Writer) error
		panics   bool
		wantErr  error
		want     string // destination content afterwards; "" for no file
	}{
		{
			name:  "new file",
			write: writeString("hello\n"),
			want:  "hello\n",
		},
		{
			name:     "replaces existing",
			existing: "old\n",
			write:    writeString("new\n"),
			want:     "new\n",
		},
		{
			name:    "callback error leaves nothing",
			write:   func(w io.Writer) error { _, _ = io.WriteString(w, "partial"); return errBoom },
			wantErr: errBoom,
		},
		{
			name:     "callback error keeps existing",
			existing: "old\n",
			write:    func(w io.Writer) error { _, _ = io.WriteString(w, "partial"); return errBoom },
			wantErr:  errBoom,
			want:     "old\n",
		},
		{
			name:   "panic leaves nothing",
			write:  func(w io.Writer) error { _, _ = io.WriteString(w, "partial"); panic(errBoom) },
			panics: true,
		},
		{
			name:     "panic keeps existing",
			existing: "old\n",
			write:    func(w io.Writer) error { _, _ = io.WriteString(w, "partial"); panic(errBoom) },
			panics:   true,
			want:     "old\n",
		},
		{
			name: "large content is flushed",
			write: func(w io.Writer) error {
				_, err := io.WriteString(w, strings.Repeat("x", 3*bufferSize+7))
				return err
			},
			want: strings.Repeat("x", 3*bufferSize+7),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "result.txt")
			if tt.existing != "" {
				if err := os.WriteFile(path, []byte(tt.existing), 0o600); err != nil {
					t.Fatal(err)
				}
			}

			var err error
			recovered := func() (r any) {
				defer func() { r = recover() }()
				err = WriteFile(path, tt.write)
				return nil
			}()

			if tt.panics {
				if recovered != errBoom {
					t.Fatalf("recovered %v, want the callback's panic value", recovered)
				}
			} else if recovered != nil {
				t.Fatalf("unexpected panic: %v", recovered)
			}
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("WriteFile: %v", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("WriteFile error = %v, want %v", err, tt.wantErr)
			case tt.wantErr != nil && !strings.Contains(err.Error(), "output: write "+path+": "):
				t.Errorf("error %q does not name the file", err)
			}

			assertOnly(t, dir, tt.want != "", "result.txt")
			if tt.want == "" {
				return
			}
			got, rerr := os.ReadFile(path)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if string(got) != tt.want {
				t.Errorf("content = %.40q, want %.40q", got, tt.want)
			}
			if tt.existing != "" && tt.wantErr == nil && !tt.panics {
				// A replaced file keeps its permission bits (written 0600 above).
				assertModeIs(t, path, 0o600)
			}
		})
	}
}

func TestWriteFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mode.txt")
	if err := WriteFile(path, writeString("x")); err != nil {
		t.Fatal(err)
	}
	assertMode(t, path)
	// A replaced file keeps its bits, even ones the umask would clear.
	if err := os.Chmod(path, 0o757); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, writeString("y")); err != nil {
		t.Fatal(err)
	}
	assertModeIs(t, path, 0o757)
}

func TestWriteFileBadPath(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		path string
	}{
		{"missing directory", filepath.Join(dir, "nope", "out.txt")},
		{"no file name", dir + string(filepath.Separator)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WriteFile(tt.path, writeString("x"))
			if err == nil {
				t.Fatal("WriteFile succeeded")
			}
			if !strings.HasPrefix(err.Error(), "output: write ") {
				t.Errorf("error %q lacks the output: write prefix", err)
			}
			assertOnly(t, dir, false, "")
		})
	}
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// assertOnly checks that dir holds exactly the named file when want is set
// and nothing at all otherwise: in particular no temp file.
func assertOnly(t *testing.T, dir string, want bool, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want && (len(names) != 1 || names[0] != name) {
		t.Errorf("directory holds %q, want only %q", names, name)
	}
	if !want && len(names) != 0 {
		t.Errorf("directory holds %q, want nothing", names)
	}
}

func assertMode(t *testing.T, path string) {
	t.Helper()
	assertModeIs(t, path, fileMode)
}

func assertModeIs(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != want {
		t.Errorf("mode = %v, want %v", fi.Mode().Perm(), want)
	}
}
