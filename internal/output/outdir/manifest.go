package outdir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// ManifestName is the file procgen writes into every directory it replaces
// as a whole, naming the files it wrote. It is hidden so that listing the
// results shows the results.
const ManifestName = ".procgen-manifest.json"

// manifestVersion is the format written; a manifest of another version is
// not trusted.
const manifestVersion = 1

// maxManifest bounds what is read as a manifest: a hundred thousand files'
// entries fit well within it.
const maxManifest = 16 << 20

type manifestDoc struct {
	Version int            `json:"procgen_manifest"`
	Note    string         `json:"note"`
	Files   []manifestFile `json:"files"`
}

// manifestFile is one file as procgen wrote it. A size and a SHA-256 of the
// content, rather than times, so that a copied or restored directory is
// still recognised and an edit that keeps the size is not.
type manifestFile struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// writeManifest hashes every file in stage (a directory only this run wrote
// into) and writes the manifest naming them.
func writeManifest(stage string) error {
	entries, err := os.ReadDir(stage)
	if err != nil {
		return err
	}
	doc := manifestDoc{Version: manifestVersion, Files: []manifestFile{},
		Note: "the files procgen wrote here; with --force procgen replaces this directory only while it holds nothing else"}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			return fmt.Errorf("%s: %s is not a regular file", stage, e.Name())
		}
	}
	// The files in parallel: hashing tens of megabytes is a visible part
	// of a run that writes them.
	doc.Files = make([]manifestFile, len(entries))
	errs := make([]error, len(entries))
	eachParallel(len(entries), func(i int) {
		sum, size, err := hashFile(filepath.Join(stage, entries[i].Name()), nil)
		doc.Files[i], errs[i] = manifestFile{Name: entries[i].Name(), Size: size, SHA256: sum}, err
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	p := filepath.Join(stage, ManifestName)
	if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Chmod(p, 0o644) // like every result file, whatever the umask
}

// readManifest reads dir's manifest, which must be a regular file of this
// user on dir's filesystem naming plain file names once each.
func readManifest(dir string, dirID fileID) (map[string]manifestFile, error) {
	p := filepath.Join(dir, ManifestName)
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("it has no %s (procgen writes one into every output directory, naming its files)", ManifestName)
	}
	if err != nil {
		return nil, err
	}
	id, _ := idOf(fi)
	switch {
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("its %s is not a regular file", ManifestName)
	case id.dev != dirID.dev || id.uid != euid():
		return nil, fmt.Errorf("its %s belongs to user %d or another filesystem", ManifestName, id.uid)
	case fi.Size() > maxManifest:
		return nil, fmt.Errorf("its %s is larger than %d bytes", ManifestName, maxManifest)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var doc manifestDoc
	if err := json.Unmarshal(b, &doc); err != nil || doc.Version != manifestVersion {
		return nil, fmt.Errorf("its %s is not a procgen manifest of version %d", ManifestName, manifestVersion)
	}
	m := make(map[string]manifestFile, len(doc.Files))
	for _, f := range doc.Files {
		_, dup := m[f.Name]
		if dup || f.Name == ManifestName || f.Name == "." || f.Name == ".." || filepath.Base(f.Name) != f.Name {
			return nil, fmt.Errorf("its %s names %q, which procgen never writes", ManifestName, f.Name)
		}
		m[f.Name] = f
	}
	return m, nil
}

// matches says how the file at path (whose identity is id) differs from
// what the manifest records, or "" when it does not.
func matches(path string, id fileID, want manifestFile) string {
	if id.size != want.Size {
		return fmt.Sprintf("has changed since procgen wrote it (%d bytes, not %d)", id.size, want.Size)
	}
	sum, _, err := hashFile(path, &id)
	switch {
	case err != nil:
		return fmt.Sprintf("cannot be checked: %v", err)
	case sum != want.SHA256:
		return "has changed since procgen wrote it (same size, different content)"
	}
	return ""
}

// hashFile is the SHA-256 and size of the file at path; with want, the file
// opened must still be that one (not swapped since it was looked at).
func hashFile(path string, want *fileID) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if want != nil {
		fi, err := f.Stat()
		if err != nil {
			return "", 0, err
		}
		if id, _ := idOf(fi); id.dev != want.dev || id.ino != want.ino {
			return "", 0, errors.New("it was replaced while being checked")
		}
	}
	h := sha256.New()
	// A large buffer and a plain reader (os.File's WriteTo would copy in
	// 32 KiB reads): fewer system calls per megabyte hashed.
	n, err := io.CopyBuffer(h, struct{ io.Reader }{f}, make([]byte, 1<<20))
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// eachParallel calls f(0) ... f(n-1) on up to GOMAXPROCS goroutines and
// returns when all have returned.
func eachParallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}
