package outdir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
)

// ManifestName is the file procgen writes into every directory it replaces
// as a whole, naming the files it wrote. It is hidden so that listing the
// results shows the results.
const ManifestName = ".procgen-manifest.json"

// manifestVersion is the format written: version 2 records each file's
// XXH64, version 1 (procgen before it) a SHA-256; both are read, a manifest
// of any other version is not trusted.
const (
	manifestVersion   = 2
	manifestVersionV1 = 1
)

// maxManifest bounds what is read as a manifest: a hundred thousand files'
// entries fit well within it.
const maxManifest = 16 << 20

type manifestDoc struct {
	Version int            `json:"procgen_manifest"`
	Note    string         `json:"note"`
	Files   []manifestFile `json:"files"`
}

// manifestFile is one file as procgen wrote it. A size and a hash of the
// content (XXH64; SHA-256 in version-1 manifests), rather than times, so that a copied or restored directory is
// still recognised and an edit that keeps the size is not. The inode and
// change time are a shortcut past the hash: a file still holding both has
// not been written, replaced or even chmodded since (no user can set a
// change time), so its content is what was hashed; any other file, a copy
// or a restored one among them, is hashed again. Change times are coarse
// (a clock tick, a second on some filesystems), so a write in the same
// tick as the one recorded would go unseen: the shortcut is taken only for
// a file whose recorded change time is older than the manifest's own,
// which was written after every hash, so any later write gives the file a
// change time of at least the manifest's (matches). The shortcut matters with
// --force over large results: hashing the old files was a tenth of a
// forest run's CPU time.
//
// XXH64 rather than SHA-256 because the hash guards against accidents (an
// edit that keeps the size), not against an adversary: whoever could forge
// a collision could as well delete the files. SHA-256 of a forest run's
// 35 MB of CSV added 12-15 ms to a 0.4 s CUDA run on the H200 host; XXH64
// runs at several GB/s a core.
type manifestFile struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	XXH64  string `json:"xxh64,omitempty"`
	SHA256 string `json:"sha256,omitempty"` // version 1
	Ino    uint64 `json:"ino,omitempty"`
	Ctime  int64  `json:"ctime_ns,omitempty"`
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
		sum, id, err := hashFile(filepath.Join(stage, entries[i].Name()), nil, xxhash.New())
		doc.Files[i], errs[i] = manifestFile{Name: entries[i].Name(), Size: id.size, XXH64: sum, Ino: id.ino, Ctime: id.ctime}, err
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
// It returns the manifest's change time with it.
func readManifest(dir string, dirID fileID) (map[string]manifestFile, int64, error) {
	p := filepath.Join(dir, ManifestName)
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, fmt.Errorf("it has no %s (procgen writes one into every output directory, naming its files)", ManifestName)
	}
	if err != nil {
		return nil, 0, err
	}
	id, _ := idOf(fi)
	switch {
	case !fi.Mode().IsRegular():
		return nil, 0, fmt.Errorf("its %s is not a regular file", ManifestName)
	case id.dev != dirID.dev || id.uid != euid():
		return nil, 0, fmt.Errorf("its %s belongs to user %d or another filesystem", ManifestName, id.uid)
	case fi.Size() > maxManifest:
		return nil, 0, fmt.Errorf("its %s is larger than %d bytes", ManifestName, maxManifest)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, 0, err
	}
	var doc manifestDoc
	if err := json.Unmarshal(b, &doc); err != nil || (doc.Version != manifestVersion && doc.Version != manifestVersionV1) {
		return nil, 0, fmt.Errorf("its %s is not a procgen manifest of version %d or %d", ManifestName, manifestVersionV1, manifestVersion)
	}
	m := make(map[string]manifestFile, len(doc.Files))
	for _, f := range doc.Files {
		_, dup := m[f.Name]
		if dup || f.Name == ManifestName || f.Name == "." || f.Name == ".." || filepath.Base(f.Name) != f.Name {
			return nil, 0, fmt.Errorf("its %s names %q, which procgen never writes", ManifestName, f.Name)
		}
		m[f.Name] = f
	}
	return m, id.ctime, nil
}

// matches says how the file at path (whose identity is id) differs from
// what the manifest (changed at manifestCtime) records, or "" when it does
// not.
func matches(path string, id fileID, want manifestFile, manifestCtime int64) string {
	if id.size != want.Size {
		return fmt.Sprintf("has changed since procgen wrote it (%d bytes, not %d)", id.size, want.Size)
	}
	if want.Ino != 0 && id.ino == want.Ino && id.ctime == want.Ctime && want.Ctime < manifestCtime {
		return "" // untouched since it was hashed (manifestFile)
	}
	h, wantSum := hash.Hash(xxhash.New()), want.XXH64
	if want.SHA256 != "" {
		h, wantSum = sha256.New(), want.SHA256
	}
	sum, _, err := hashFile(path, &id, h)
	switch {
	case err != nil:
		return fmt.Sprintf("cannot be checked: %v", err)
	case sum != wantSum:
		return "has changed since procgen wrote it (same size, different content)"
	}
	return ""
}

// hashFile is the hash h of the file at path, in hex, and the identity of
// the file it read (its size the bytes hashed; the rest zero where the system does
// not report one); with want, the file opened must still be that one (not
// swapped since it was looked at).
func hashFile(path string, want *fileID, h hash.Hash) (string, fileID, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fileID{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fileID{}, err
	}
	id, _ := idOf(fi)
	if want != nil && (id.dev != want.dev || id.ino != want.ino) {
		return "", fileID{}, errors.New("it was replaced while being checked")
	}
	// A large buffer and a plain reader (os.File's WriteTo would copy in
	// 32 KiB reads): fewer system calls per megabyte hashed.
	n, err := io.CopyBuffer(h, struct{ io.Reader }{f}, make([]byte, 1<<20))
	if err != nil {
		return "", fileID{}, err
	}
	id.size = n
	return hex.EncodeToString(h.Sum(nil)), id, nil
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
