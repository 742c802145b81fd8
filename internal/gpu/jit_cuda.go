//go:build cuda

package gpu

/*
#include <stdlib.h>
#include "driver_cuda.h"
*/
import "C"

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unsafe"
)

// minVectorRedDriver is the first driver that JITs PTX ISA 8.1 (CUDA 12.1).
const minVectorRedDriver = 12010

// VectorReductionsSupported: vector reductions need sm_90 or newer and a
// driver that compiles their PTX.
func (d *Device) VectorReductionsSupported() bool {
	return d.info.Major >= 9 && driver.version >= minVectorRedDriver
}

// loadVectorRed loads family's vector-reduction variant from the cubin
// cache, JIT-compiling it first when the policy says so; nil means "use the
// fatbin" (no variant, policy, device or driver, or any failure: the fatbin
// always works, only slower).
func (d *Device) loadVectorRed(family string) *module {
	if d.jit == JITNever || !d.VectorReductionsSupported() {
		return nil
	}
	ptx, err := kernelFS.ReadFile("kernels/" + family + ".vred.ptx")
	if err != nil {
		return nil
	}
	path := d.cubinPath(family, ptx)
	cubin, err := os.ReadFile(path)
	variant := "vector reductions, cached JIT cubin"
	if err != nil || len(cubin) == 0 {
		if d.jit != JITAlways {
			return nil
		}
		if cubin, err = d.jitPTX(ptx); err != nil {
			return nil
		}
		variant = "vector reductions, JIT-compiled now"
		if path != "" {
			WriteCache(path, cubin) // best effort: without it the next process compiles again
		}
	}
	m := &module{image: C.CBytes(cubin), funcs: map[string]*Function{}, variant: variant}
	if err := d.do(func() error { return check("cuModuleLoadData", C.pg_module_load_data(&m.handle, m.image)) }); err != nil {
		m.free()
		return nil
	}
	return m
}

// jitPTX compiles PTX for this device through the driver's linker.
func (d *Device) jitPTX(ptx []byte) ([]byte, error) {
	src := C.CBytes(append(ptx, 0))
	defer C.free(src)
	var out []byte
	err := d.do(func() error {
		var cubin unsafe.Pointer
		var n C.size_t
		if err := check("cuLinkComplete", C.pg_jit_ptx((*C.char)(src), C.size_t(len(ptx)+1), &cubin, &n)); err != nil {
			return err
		}
		out = C.GoBytes(cubin, C.int(n))
		C.free(cubin)
		return nil
	})
	return out, err
}

// cubinPath names the cached cubin by what determines it: the PTX, the
// device architecture and the driver that compiled it.
func (d *Device) cubinPath(family string, ptx []byte) string {
	if d.jitDir == "" {
		return ""
	}
	h := sha256.Sum256(ptx)
	return filepath.Join(d.jitDir, fmt.Sprintf("%s-%s-sm_%d%d-cuda%d.cubin", family, hex.EncodeToString(h[:8]),
		d.info.Major, d.info.Minor, driver.version))
}

func defaultJITDir() string { return DefaultJITDir() }

// SetJIT sets the JIT policy and the cubin cache directory ("" keeps the
// current one). Loaded families with a vector-reduction variant are
// unloaded so the next lookup follows the new policy: Functions looked up
// from them before the call become invalid.
func (d *Device) SetJIT(p JITPolicy, dir string) error {
	d.modMu.Lock()
	defer d.modMu.Unlock()
	d.jit = p
	if dir != "" {
		d.jitDir = dir
	}
	return d.unloadVectorFamilies()
}

// PrepareKernels compiles and caches every vector-reduction variant this
// device can use (about 20 s for the flame kernels on an H100 host), so
// that later processes load them from the cache under JITCached. It returns
// the families prepared; none where the device or driver cannot use them.
func (d *Device) PrepareKernels() ([]string, error) {
	if !d.VectorReductionsSupported() {
		return nil, nil
	}
	if d.jitDir == "" {
		return nil, fmt.Errorf("gpu: no cache directory for compiled kernels")
	}
	entries, err := kernelFS.ReadDir("kernels")
	if err != nil {
		return nil, err
	}
	var done []string
	for _, e := range entries {
		family, ok := strings.CutSuffix(e.Name(), ".vred.ptx")
		if !ok {
			continue
		}
		ptx, err := kernelFS.ReadFile("kernels/" + e.Name())
		if err != nil {
			return done, err
		}
		path := d.cubinPath(family, ptx)
		if _, err := os.Stat(path); err != nil {
			cubin, err := d.jitPTX(ptx)
			if err != nil {
				return done, fmt.Errorf("gpu: compile %s vector-reduction kernels: %w", family, err)
			}
			WriteCache(path, cubin)
			if _, err := os.Stat(path); err != nil {
				return done, fmt.Errorf("gpu: cache compiled %s kernels in %s: %w", family, d.jitDir, err)
			}
		}
		done = append(done, family)
	}
	sort.Strings(done)
	return done, nil
}
