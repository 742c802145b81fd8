package outdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/procgen-dev/procgen/internal/output"
)

// Stage makes the empty directory a run writes its results into, beside
// the output directory (so that Commit renames within one filesystem).
// It is made 0755 less the umask, the mode any new directory gets; Commit
// gives it the old directory's mode when it replaces one. The caller
// removes it (os.RemoveAll) when the run fails; after a successful Commit
// it is gone.
func (d *Dir) Stage() (string, error) {
	return makeUnique(d.abs, ".tmp-", 0o755)
}

// makeUnique makes a new directory named after path with a hidden prefix,
// tag and a random suffix, in path's parent.
func makeUnique(path, tag string, perm fs.FileMode) (string, error) {
	parent, base := filepath.Split(filepath.Clean(path))
	for range 100 {
		p := filepath.Join(parent, "."+base+tag+strconv.FormatUint(rand.Uint64()%1e9, 36))
		err := os.Mkdir(p, perm)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: no free name for a temporary directory", parent)
}

// Commit writes the manifest of the complete stage and puts it in place of
// the output directory, all or nothing: on any error before the new
// directory is in place, the old one is where it was, as it was, and stage
// is still stage. A directory that held files is first moved aside, checked
// again against what Inspect verified (nothing may have been added,
// replaced or changed while the run worked), and only then deleted file by
// file.
//
// Under a durable ctx (output.Durable) every file, the manifest and the
// stage are synced before the rename and the parent directory after it, so
// a power cut leaves the old directory or the new one, whole.
func (d *Dir) Commit(ctx context.Context, stage string) error {
	durable := output.Durable(ctx)
	if err := writeManifest(stage); err != nil {
		return err
	}
	if durable {
		if err := syncTree(stage); err != nil {
			return err
		}
		defer output.SyncDir(filepath.Dir(d.abs))
	}
	if d.exists {
		if err := os.Chmod(stage, d.mode); err != nil {
			return err
		}
	}
	if len(d.owned) == 0 {
		// Missing, or empty when inspected: a rename replaces an empty
		// directory, and fails, harming nothing, if one appeared with files.
		if err := renameOver(stage, d.abs); err != nil {
			return fmt.Errorf("%s changed during the run: %w", d.path, err)
		}
		return nil
	}
	// An empty directory as the target of the rename reserves a unique
	// name with no window in which another process could take it.
	old, err := makeUnique(d.abs, ".old-", 0o700)
	if err != nil {
		return err
	}
	if err := renameOver(d.abs, old); err != nil {
		_ = os.Remove(old)
		return err
	}
	putBack := func(cause error) error {
		if err := os.Rename(old, d.abs); err != nil {
			return fmt.Errorf("%w (and the old directory stays at %s: %v)", cause, old, err)
		}
		return cause
	}
	if err := d.unchanged(old); err != nil {
		return putBack(err)
	}
	if err := os.Rename(stage, d.abs); err != nil {
		return putBack(err)
	}
	return d.removeOld(old)
}

// unchanged checks the old directory, moved aside to old, against what
// Inspect verified: the same directory holding the same files, none of
// them written, replaced or chmodded since (their change times say so).
func (d *Dir) unchanged(old string) error {
	changed := func(what string) error {
		return fmt.Errorf("%s changed while the run worked (%s): it was left as it is", d.path, what)
	}
	fi, err := os.Lstat(old)
	if err != nil {
		return err
	}
	if id, _ := idOf(fi); id.dev != d.id.dev || id.ino != d.id.ino {
		return changed("it is another directory")
	}
	entries, err := os.ReadDir(old)
	if err != nil {
		return err
	}
	for _, e := range entries {
		want, ok := d.owned[e.Name()]
		if !ok {
			return changed(e.Name() + " appeared")
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		if id, _ := idOf(fi); id != want {
			return changed(e.Name() + " was modified")
		}
	}
	return nil
}

// removeOld deletes the files of the old directory that Inspect verified,
// then the directory. The new results are already in place; a failure here
// names what is left.
func (d *Dir) removeOld(old string) error {
	// The old mode may deny the owner writing (0555): deleting needs it.
	err := os.Chmod(old, 0o700)
	for name := range d.owned {
		if err != nil {
			break
		}
		if rerr := os.Remove(filepath.Join(old, name)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = rerr
		}
	}
	if err == nil {
		err = os.Remove(old)
	}
	if err != nil {
		return fmt.Errorf("the new results are in %s, but removing the old ones failed: %w (they are left in %s)",
			d.path, err, old)
	}
	return nil
}

// renameOver is rename(2): unlike os.Rename, which refuses any existing
// directory as the target, it replaces an empty one, atomically.
func renameOver(from, to string) error {
	if err := syscall.Rename(from, to); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// syncTree fsyncs every file of the flat directory stage, on all cores, and
// then stage itself.
func syncTree(stage string) error {
	entries, err := os.ReadDir(stage)
	if err != nil {
		return err
	}
	errs := make([]error, len(entries))
	eachParallel(len(entries), func(i int) {
		f, err := os.Open(filepath.Join(stage, entries[i].Name()))
		if err != nil {
			errs[i] = err
			return
		}
		errs[i] = errors.Join(f.Sync(), f.Close())
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	output.SyncDir(stage)
	return nil
}
