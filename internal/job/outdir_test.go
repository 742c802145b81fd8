package job

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SettleOutDir: a new directory under a writable parent, an empty one and,
// with force, a non-empty one are accepted; a file, a non-empty directory
// without force and a parent that is a file are usage errors.
func TestSettleOutDir(t *testing.T) {
	root := t.TempDir()
	empty := filepath.Join(root, "empty")
	full := filepath.Join(root, "full")
	file := filepath.Join(root, "file")
	for _, d := range []string{empty, full} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{file, filepath.Join(full, "x")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Where links cannot be made (Windows without the privilege), the link
	// case tests the directory itself.
	link := filepath.Join(root, "link")
	if err := os.Symlink(full, link); err != nil {
		link = full
	}
	tests := []struct {
		dir    string
		force  bool
		clean  string
		exists bool
		err    string
	}{
		{filepath.Join(root, "new"), false, filepath.Join(root, "new"), false, ""},
		{empty, false, empty, true, ""},
		{full, true, full, true, ""},
		{link, true, full, true, ""}, // followed
		{full, false, "", false, "--frames " + full + " exists and is not empty: HINT"},
		{file, false, "", false, "--frames " + file + " exists and is not a directory"},
		{filepath.Join(root, "missing", "sub"), false, filepath.Join(root, "missing", "sub"), false, ""}, // made with its parent
		{filepath.Join(file, "sub"), false, "", false, "file"},
	}
	for _, tc := range tests {
		clean, exists, err := SettleOutDir("--frames", tc.dir, tc.force, "HINT", nil)
		if tc.err == "" {
			if err != nil || clean != tc.clean || exists != tc.exists {
				t.Errorf("%s force=%v: %q, %v, %v; want %q, %v", tc.dir, tc.force, clean, exists, err, tc.clean, tc.exists)
			}
			continue
		}
		var ue UsageError
		if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.As(err, &ue) {
			t.Errorf("%s force=%v: %v; want a usage error with %q", tc.dir, tc.force, err, tc.err)
		}
	}
	// first runs on an existing directory before its emptiness, and its
	// error is returned as it is.
	mine := errors.New("not ours")
	if _, _, err := SettleOutDir("output", full, false, "HINT", func(string) error { return mine }); err != mine {
		t.Errorf("first's error: %v", err)
	}
}
