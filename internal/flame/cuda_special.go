//go:build cuda

package flame

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/procgen-dev/procgen/cuda"
	"github.com/procgen-dev/procgen/internal/gpu"
)

// specialStillSamples is the size of a still from which it is worth
// compiling its own kernel before iterating (one to two seconds with NVRTC
// and the driver's JIT, against a quarter or so of the iterate time saved,
// at some 50 G samples/s); smaller stills use a compiled kernel only when
// one is at hand.
var specialStillSamples = 250e9 // a variable for tests

// specialKernel is one shape's kernel on one device, compiled once.
type specialKernel struct {
	done    chan struct{} // closed when fn or err is set
	fn      gpu.Func[iterateArgs]
	err     error
	seconds float64 // compile time, until -v has said it (0: loaded from the cache)
}

type specialKey struct {
	dev   *gpu.Device
	shape string
}

var specials = struct {
	sync.Mutex
	m map[specialKey]*specialKernel
}{m: map[specialKey]*specialKernel{}}

// builtinOnly is set by PROCGEN_FLAME_KERNEL=builtin: always run the kernel
// built into the binary (for comparisons, or where NVRTC misbehaves).
var builtinOnly = os.Getenv("PROCGEN_FLAME_KERNEL") == "builtin"

// iterateKernel returns the iterate kernel for a launch over genomes of the
// given shape (appendShape; nil when they differ), whose first genome's
// xforms are xs with nx ordinary ones: the kernel compiled for the shape
// when it is ready, else the built-in one. With wait a missing kernel is
// compiled first; without, it is compiled in the background for later
// launches (an animation's next frames), or with cachedOnly not at all.
// One whose PTX is in the disk cache is always loaded first.
//
// The built-in kernel is fam's: the flame family's for flam3's variations
// only, flame_plugins' when some genome of the launch has a plugin variation
// (gpuUsesPlugins), flame3d's when points carry z (gpuCarriesZ). flame3d's
// genomes are never compiled for: their kernel is the built-in one.
func (r *cudaRun) iterateKernel(ctx context.Context, shape []byte, xs []gpuXform, nx int, fam iterFamily, wait, cachedOnly bool) (gpu.Func[iterateArgs], error) {
	builtin := func() (gpu.Func[iterateArgs], error) {
		switch fam {
		case famPlugins:
			return flameIteratePlugins.Load(r.dev)
		case fam3D:
			return flameIterate3D.Load(r.dev)
		}
		return flameIterate.Load(r.dev)
	}
	switch {
	case fam == fam3D:
		r.kernel = "built-in, points with z (flame3d)"
		return builtin()
	case builtinOnly:
		r.kernel = "built-in (PROCGEN_FLAME_KERNEL=builtin)"
		return builtin()
	case shape == nil:
		r.kernel = "built-in (the genomes' xforms differ in their variations)"
		return builtin()
	}
	key := specialKey{r.dev, string(shape)}
	specials.Lock()
	k := specials.m[key]
	if k == nil {
		src := specialSource(xs, nx)
		path := specialPTXPath(r.dev, src)
		if !wait && path != "" {
			if _, err := os.Stat(path); err == nil {
				wait = true // loading it from the cache takes milliseconds
			}
		}
		if wait || !cachedOnly {
			k = &specialKernel{done: make(chan struct{})}
			specials.m[key] = k
			go func() {
				t := time.Now()
				var compiled bool
				k.fn, compiled, k.err = compileSpecial(r.dev, src, path)
				if compiled {
					k.seconds = time.Since(t).Seconds()
				}
				close(k.done)
			}()
		}
	}
	specials.Unlock()
	if k == nil {
		return builtin()
	}
	if wait {
		select {
		case <-k.done:
		case <-ctx.Done(): // Ctrl-C while compiling: the compile finishes in the background
			return gpu.Func[iterateArgs]{}, ctx.Err()
		}
	}
	select {
	case <-k.done:
		if k.err == nil {
			r.kernel = "compiled for the genome's xforms"
			specials.Lock() // renders on one device may run side by side
			if k.seconds > 0 {
				r.kernel += fmt.Sprintf(" (in %.2f s)", k.seconds)
				k.seconds = 0 // said once
			}
			specials.Unlock()
			return k.fn, nil
		}
		why, _, _ := strings.Cut(k.err.Error(), "\n")
		r.kernel = "built-in (" + why + ")"
	default:
		r.kernel = "built-in (the genome's own is compiling)"
	}
	return builtin()
}

// specialOptions are NVRTC's options for dev: its architecture, and the
// vector reductions where the device and driver run them.
func specialOptions(dev *gpu.Device) []string {
	info := dev.Info()
	opts := []string{fmt.Sprintf("--gpu-architecture=compute_%d%d", info.Major, info.Minor), "--std=c++17"}
	if dev.VectorReductionsSupported() {
		opts = append(opts, "-DPG_VECTOR_RED")
	}
	return opts
}

// specialPTXPath is where the PTX of src for dev is cached ("" for no
// cache): named by a hash of the source, the options, the headers and the
// NVRTC version, so any change compiles anew.
func specialPTXPath(dev *gpu.Device, src string) string {
	dir := gpu.DefaultJITDir()
	major, minor, err := gpu.NVRTCVersion()
	if dir == "" || err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00nvrtc %d.%d\x00%x", src, strings.Join(specialOptions(dev), " "), major, minor,
		headersHash())
	return filepath.Join(dir, "flame-iterate-"+hex.EncodeToString(h.Sum(nil)[:12])+".ptx")
}

// specialHeaders are the CUDA headers a generated kernel includes, by name.
func specialHeaders() map[string]string {
	headers := map[string]string{}
	entries, _ := fs.ReadDir(cuda.Headers, ".")
	for _, e := range entries {
		if b, err := cuda.Headers.ReadFile(e.Name()); err == nil {
			headers[e.Name()] = string(b)
		}
	}
	return headers
}

// headersHash is a hash of specialHeaders, computed once.
var headersHash = sync.OnceValue(func() []byte {
	h, headers := sha256.New(), specialHeaders()
	for _, name := range slices.Sorted(maps.Keys(headers)) {
		fmt.Fprintf(h, "%s\x00%s\x00", name, headers[name])
	}
	return h.Sum(nil)
})

// compileSpecial compiles src with NVRTC, or reads its PTX from the cache
// at path ("" for none), and loads it on dev; compiled says NVRTC ran.
func compileSpecial(dev *gpu.Device, src, path string) (fn gpu.Func[iterateArgs], compiled bool, err error) {
	ptx, rerr := os.ReadFile(path)
	if path == "" || rerr != nil || len(ptx) == 0 {
		opts := specialOptions(dev)
		if ptx, err = gpu.CompileToPTX("flame_special.cu", src, specialHeaders(), opts); err != nil {
			return gpu.Func[iterateArgs]{}, false, err
		}
		if opts[len(opts)-1] == "-DPG_VECTOR_RED" {
			ptx = atLeastPTX81(ptx)
		}
		compiled = true
		if path != "" {
			gpu.WriteCache(path, ptx)
			gpu.PruneGenerated(filepath.Dir(path), gpu.GeneratedCacheBytes)
		}
	} else {
		gpu.TouchCached(path)
	}
	family, err := dev.LoadPTXModule("flame-special", ptx)
	if err != nil {
		return gpu.Func[iterateArgs]{}, compiled, err
	}
	fn, err = flameIterate.LoadFrom(dev, family)
	return fn, compiled, err
}

// atLeastPTX81 raises the PTX's ISA version to 8.1 where it is lower: the
// vector reductions are PTX 8.1, which NVRTC before 12.1 does not declare
// (it passes inline assembly through unchecked). The Makefile does the same
// to nvcc 11.8's PTX.
func atLeastPTX81(ptx []byte) []byte {
	re := regexp.MustCompile(`(?m)^\.version (\d+)\.(\d+)$`)
	m := re.FindSubmatch(ptx)
	if m == nil {
		return ptx
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	if major > 8 || major == 8 && minor >= 1 {
		return ptx
	}
	return re.ReplaceAll(ptx, []byte(".version 8.1"))
}

// iterFamily is the kernel family whose built-in iterate kernel a launch
// runs (cudaRun.iterateKernel).
type iterFamily int

const (
	famFlam3   iterFamily = iota // flame: flam3's variations
	famPlugins                   // flame_plugins: and the ported plugin variations
	fam3D                        // flame3d: and points that carry z, and the 3D camera
)

// iterFamilyOf picks the family for a launch whose genomes carry z (z3) or
// use plugin variations.
func iterFamilyOf(z3, plugins bool) iterFamily {
	switch {
	case z3:
		return fam3D
	case plugins:
		return famPlugins
	}
	return famFlam3
}

// sharedBytes is the dynamic shared memory a block of family f keeps for a
// genome of nx xforms (the final one included): the genome, then each xform
// as the kernel's SmemXform (flame_types.cuh). The flame family's (and a
// compiled kernel's without plugin variations) stops at flam3's
// parameters, without the plugin slab: 800 bytes an xform instead of
// 1,044. Reserving the whole FlameXform left the bench-anim edge's blocks
// 1.2 KB each that they never read, and fewer of them fit on an SM.
func (f iterFamily) sharedBytes(nx int) int {
	x := int(unsafe.Sizeof(gpuXform{}))
	if f == famFlam3 {
		x = smemXformFlam3Bytes
	}
	return int(unsafe.Sizeof(gpuGenome{})) + nx*x
}
