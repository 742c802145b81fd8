package gpu

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// GeneratedCacheBytes bounds the kernels compiled at run time for one input
// (a flame genome's shape, a rule set) that the JIT cache keeps: a render
// farm meets a new genome with every edge, and each leaves some 60-300 KB.
// The vector-reduction variants (`procgen devices --prepare`) are not
// counted and never removed.
const GeneratedCacheBytes = 256 << 20

// generatedPrefixes name the cache files of generated kernels: the driver's
// cubins of LoadPTXModule ("ptx-…") and the PTX that a job compiled from
// source ("flame-iterate-…").
var generatedPrefixes = []string{"ptx-", "flame-iterate-"}

// TouchCached marks a cached file as just used, so PruneGenerated removes
// it last.
func TouchCached(path string) {
	now := time.Now()
	os.Chtimes(path, now, now) // best effort
}

// PruneGenerated removes the least recently used generated kernels from
// dir until they take at most three quarters of max bytes, once they take
// more than max. Best effort: a file another process removed or is writing
// is skipped.
func PruneGenerated(dir string, max int64) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		path string
		size int64
		used time.Time
	}
	var files []file
	var total int64
	for _, e := range entries {
		name := e.Name()
		generated := false
		for _, p := range generatedPrefixes {
			generated = generated || strings.HasPrefix(name, p)
		}
		if !generated || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{filepath.Join(dir, name), info.Size(), info.ModTime()})
		total += info.Size()
	}
	if total <= max {
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].used.Before(files[j].used) })
	for _, f := range files {
		if total <= max/4*3 {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}

// WriteCache writes a compiled kernel to path through a temporary file in
// its directory, so another process never reads part of one; best effort
// (a kernel that is not cached is compiled again next time).
func WriteCache(path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".jit-*")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil {
		os.Remove(f.Name())
		return
	}
	if os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name())
	}
}
