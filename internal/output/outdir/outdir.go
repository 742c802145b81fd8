// Package outdir owns an output directory that a run replaces as a whole
// (forest disperse -o DIR): the results are written into a fresh directory
// beside it and swapped in only when complete.
//
// Replacing a directory deletes what was in it, so it is allowed only for a
// directory procgen wrote itself: every directory it writes holds a manifest
// (ManifestName) naming each file with its size and SHA-256. Inspect, before
// any work, refuses a directory holding anything else — a file the manifest
// does not name or whose content no longer matches it, a subdirectory, a
// link, a file of another owner, a mount point — rather than guess what may
// be deleted. Commit checks again, on the old directory moved aside, that
// nothing changed while the run worked, and only then deletes the files it
// verified: never a tree, never across a filesystem.
package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Dir is an output directory settled before the work: missing, empty, or
// holding only what procgen wrote there.
type Dir struct {
	path   string // as given, for messages
	abs    string // what is renamed: "." has no name to rename
	exists bool
	mode   fs.FileMode // the old directory's, kept by its replacement
	id     fileID      // the old directory's identity
	// owned are the old directory's entries (the manifest among them) as
	// Inspect verified them; Commit deletes these and nothing else.
	owned map[string]fileID
}

// RefusedError says why a directory may not be replaced.
type RefusedError struct {
	Dir     string
	Reasons []string // one per offending entry, sorted
}

// maxReasons bounds the list a refusal prints; a directory of thousands of
// foreign files needs a few examples, not all of them.
const maxReasons = 8

func (e *RefusedError) Error() string {
	shown := e.Reasons
	more := ""
	if len(shown) > maxReasons {
		more = fmt.Sprintf("; and %d more", len(shown)-maxReasons)
		shown = shown[:maxReasons]
	}
	return fmt.Sprintf("%s cannot be replaced (procgen replaces only a directory of files it wrote itself): %s%s",
		e.Dir, strings.Join(shown, "; "), more)
}

// Path is the directory's path.
func (d *Dir) Path() string { return d.path }

// Exists says whether the directory existed when it was inspected.
func (d *Dir) Exists() bool { return d.exists }

// Inspect settles path (symlinks already resolved) as an output directory
// to be replaced as a whole. A missing path is fine; an existing one must
// be a directory that is not a mount point and, unless empty, that holds
// only files procgen wrote there and that still match its manifest, all
// of this user and on the directory's filesystem. Anything else is a
// *RefusedError naming every offending entry.
func Inspect(path string) (*Dir, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return &Dir{path: path, abs: abs}, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &RefusedError{Dir: path, Reasons: []string{"it is not a directory"}}
	}
	id, ok := idOf(fi)
	if !ok {
		if empty, err := isEmpty(abs); err != nil || !empty {
			return nil, &RefusedError{Dir: path, Reasons: []string{"this system does not report file owners and devices"}}
		}
	}
	d := &Dir{path: path, abs: abs, exists: true, mode: fi.Mode() & (fs.ModePerm | fs.ModeSetgid | fs.ModeSticky), id: id,
		owned: map[string]fileID{}}
	mounts := mountPoints()
	var dirWhy, entryWhy []string
	if pfi, err := os.Stat(filepath.Dir(abs)); err == nil {
		if pid, ok := idOf(pfi); ok && pid.dev != id.dev || mounts[abs] {
			dirWhy = append(dirWhy, "it is a mount point (a rename cannot replace it; name a directory inside it)")
		}
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	if len(entries) > 0 {
		if id.uid != euid() {
			dirWhy = append(dirWhy, fmt.Sprintf("it belongs to user %d, not to this user (%d)", id.uid, euid()))
		}
		m, mctime, err := readManifest(abs, id)
		if err != nil {
			names := make([]string, 0, len(entries))
			for _, e := range entries {
				names = append(names, e.Name())
			}
			return nil, refused(path, append(dirWhy, err.Error()), []string{"it holds " + nameList(names)})
		}
		var toHash []hashCheck
		for _, e := range entries {
			why, hc := d.check(abs, e, m, mounts)
			if why != "" {
				entryWhy = append(entryWhy, why)
			} else if hc != nil {
				toHash = append(toHash, *hc)
			}
		}
		entryWhy = append(entryWhy, d.checkContents(toHash, mctime)...)
	}
	if err := refused(path, dirWhy, entryWhy); err != nil {
		return nil, err
	}
	return d, nil
}

// check verifies one entry of the old directory against its manifest,
// all but its content; it returns why the entry is not procgen's, or "" and
// (for a file the manifest names) the content check still to make. The
// manifest itself and a file whose content is checked are recorded as
// owned only once they pass.
func (d *Dir) check(dir string, e fs.DirEntry, m map[string]manifestFile, mounts map[string]bool) (string, *hashCheck) {
	name, full := e.Name(), filepath.Join(dir, e.Name())
	fi, err := e.Info()
	if err != nil {
		return fmt.Sprintf("%s cannot be read: %v", name, err), nil
	}
	id, _ := idOf(fi)
	switch {
	case mounts[full] || id.dev != d.id.dev:
		return describe(name, fi, "is a mount point"), nil
	case !fi.Mode().IsRegular():
		return describe(name, fi, ""), nil
	case id.uid != euid():
		return describe(name, fi, fmt.Sprintf("belongs to user %d, not to this user (%d)", id.uid, euid())), nil
	}
	if name == ManifestName {
		d.owned[name] = id
		return "", nil
	}
	want, ok := m[name]
	if !ok {
		return describe(name, fi, ""), nil
	}
	return "", &hashCheck{name: name, path: full, fi: fi, id: id, want: want}
}

// hashCheck is a file whose content is still to be compared with its
// manifest entry.
type hashCheck struct {
	name, path string
	fi         fs.FileInfo
	id         fileID
	want       manifestFile
}

// checkContents compares the files' contents with the manifest (changed
// at manifestCtime), the files in parallel (hashing is the slow part of settling a large directory),
// records those that match as owned and returns why the others are not
// procgen's.
func (d *Dir) checkContents(files []hashCheck, manifestCtime int64) []string {
	why := make([]string, len(files))
	eachParallel(len(files), func(i int) {
		f := files[i]
		if w := matches(f.path, f.id, f.want, manifestCtime); w != "" {
			why[i] = describe(f.name, f.fi, w)
		}
	})
	var out []string
	for i, f := range files {
		if why[i] != "" {
			out = append(out, why[i])
		} else {
			d.owned[f.name] = f.id
		}
	}
	return out
}

// describe says what an entry procgen will not delete is; why, when not
// empty, replaces the default reason.
func describe(name string, fi fs.FileInfo, why string) string {
	if why == "" {
		switch {
		case fi.Mode().IsRegular():
			why = "is not a file procgen wrote here (its manifest " + ManifestName + " does not name it)"
		case fi.IsDir():
			return name + "/ is a subdirectory (procgen writes none)"
		case fi.Mode()&fs.ModeSymlink != 0:
			why = "is a symbolic link (procgen writes none)"
		default:
			why = "is not a regular file (" + fi.Mode().Type().String() + ")"
		}
	}
	return name + " " + why
}

// refused is the refusal for the directory-wide reasons and the entries'
// (sorted, after them), or nil when there are none.
func refused(path string, dirWhy, entryWhy []string) error {
	if len(dirWhy)+len(entryWhy) == 0 {
		return nil
	}
	sort.Strings(entryWhy)
	return &RefusedError{Dir: path, Reasons: append(dirWhy, entryWhy...)}
}

// nameList lists up to maxReasons names.
func nameList(names []string) string {
	sort.Strings(names)
	if len(names) > maxReasons {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:maxReasons], ", "), len(names)-maxReasons)
	}
	return strings.Join(names, ", ")
}

func isEmpty(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	return len(entries) == 0, err
}
