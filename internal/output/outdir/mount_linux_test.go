package outdir

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// mountTmpfs mounts a tmpfs on dir for the test, or skips where mounting
// is not allowed (not root, no CAP_SYS_ADMIN in a container).
func mountTmpfs(t *testing.T, dir string) {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) {
			t.Skipf("cannot mount a tmpfs here: %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
}

// The reported case: a mode-1777 output directory holding procgen's files,
// another user's file and a tmpfs. Inspect refuses, naming both, and the
// mounted filesystem's file and the other user's file stay.
func TestInspectRefusesMountAndOtherOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount and to give a file to another user")
	}
	dir := filepath.Join(t.TempDir(), "out")
	produce(t, dir, map[string]string{"a.csv": "first"})
	if err := os.Chmod(dir, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(dir, "theirs.txt")
	if err := os.WriteFile(theirs, []byte("not yours"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	mountTmpfs(t, mnt)
	if err := os.WriteFile(filepath.Join(mnt, "data"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Inspect(dir)
	if err == nil || !strings.Contains(err.Error(), "mnt is a mount point") ||
		!strings.Contains(err.Error(), "theirs.txt belongs to user 65534") {
		t.Fatalf("Inspect: %v; want the mount point and the other user's file named", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{ManifestName, "a.csv", "mnt", "theirs.txt"}) {
		t.Errorf("directory now %v", got)
	}
	if b, err := os.ReadFile(filepath.Join(mnt, "data")); err != nil || string(b) != "keep" {
		t.Errorf("the mounted file: %q, %v", b, err)
	}
}

// An output directory that is itself a mount point cannot be renamed, so
// it is refused before the work even when empty.
func TestInspectRefusesMountedDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount")
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mountTmpfs(t, dir)
	if _, err := Inspect(dir); err == nil || !strings.Contains(err.Error(), "it is a mount point") {
		t.Errorf("Inspect: %v; want the mount point refused", err)
	}
}
