package gpu

import (
	"os"
	"path/filepath"
)

// JITPolicy says when a device uses the vector-reduction variants of kernel
// families (PTX that the driver compiles for the device: flame accumulation
// with red.global.add.v4.f32 on sm_90+, about 3.5x faster on an H100)
// instead of the embedded fatbins. Compiling them takes seconds, so it is
// done once and the result cached on disk.
type JITPolicy int

const (
	// JITCached uses a variant only when its compiled code is in the cache
	// (`procgen devices --prepare` fills it): never a surprise delay.
	JITCached JITPolicy = iota
	// JITAlways compiles and caches a missing variant on first use.
	JITAlways
	// JITNever uses the fatbins only.
	JITNever
)

// DefaultJITDir is where compiled kernels are cached:
// $XDG_CACHE_HOME/procgen/kernels (or the platform's equivalent); "" when
// there is no user cache directory.
func DefaultJITDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "procgen", "kernels")
}
