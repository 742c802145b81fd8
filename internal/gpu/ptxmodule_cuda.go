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
)

// LoadPTXModule makes a module generated at run time (PTX text, e.g. a
// kernel specialised for one rule set) available to Kernel.LoadFrom under the
// family name it returns. The module is compiled by the driver's JIT once
// per device and kept loaded until Close; the compiled cubin is cached on
// disk beside the vector-reduction variants (keyed by key, a hash of the
// PTX, the architecture and the driver), so later processes skip the JIT.
// Under JITNever nothing is compiled and the caller keeps its fatbin code.
func (d *Device) LoadPTXModule(key string, ptx []byte) (string, error) {
	h := sha256.Sum256(append([]byte(key+"\x00"), ptx...))
	family := "ptx-" + hex.EncodeToString(h[:12])
	d.modMu.Lock()
	defer d.modMu.Unlock()
	if _, ok := d.modules[family]; ok {
		return family, nil
	}
	if d.jit == JITNever {
		return "", fmt.Errorf("gpu: %s: run-time compiled kernels are off (JIT policy never)", key)
	}
	path := d.cubinPath(family, ptx)
	variant := "generated PTX, cached JIT cubin"
	cubin, err := os.ReadFile(path)
	if path == "" || err != nil || len(cubin) == 0 {
		if cubin, err = d.jitPTX(ptx); err != nil {
			return "", fmt.Errorf("gpu: compile generated %s kernels: %w", key, err)
		}
		variant = "generated PTX, JIT-compiled now"
		if path != "" {
			WriteCache(path, cubin) // best effort: without it the next process compiles again
			PruneGenerated(filepath.Dir(path), GeneratedCacheBytes)
		}
	} else {
		TouchCached(path)
	}
	m := &module{image: C.CBytes(cubin), funcs: map[string]*Function{}, variant: variant}
	if err := d.do(func() error { return check("cuModuleLoadData("+key+")", C.pg_module_load_data(&m.handle, m.image)) }); err != nil {
		m.free()
		return "", err
	}
	d.modules[family] = m
	return family, nil
}
