//go:build cuda

package gpu

/*
#include <stdlib.h>
#include "driver_cuda.h"
*/
import "C"

import (
	"embed"
	"fmt"
	"sync/atomic"
	"unsafe"
)

// The fatbins `make kernels` builds from cuda/*.cu, one per kernel family, and
// the manifest of the architectures they hold. A CUDA build without them does
// not compile, which is what we want: run `make kernels` first.
//
// Families whose accumulation benefits from vector reductions also come as
// PTX (<family>.vred.ptx, see the Makefile and pg_red_add4 in common.cuh).
//
//go:embed kernels/*.fatbin kernels/*.ptx kernels/archs.txt
var kernelFS embed.FS

func embeddedArchs() []string {
	b, err := kernelFS.ReadFile("kernels/archs.txt")
	if err != nil {
		return nil
	}
	return parseArchs(string(b))
}

// module is a fatbin loaded into the device's context, with its functions.
type module struct {
	handle  C.pg_module
	image   unsafe.Pointer // C copy of the fatbin or PTX, kept for the module's lifetime
	variant string         // KernelVariant's answer
	funcs   map[string]*Function
}

func (m *module) free() {
	if m.image != nil {
		C.free(m.image)
		m.image = nil
	}
}

// Function is a kernel in a loaded module.
type Function struct {
	dev  *Device
	name string
	fn   C.pg_function
	plan atomic.Pointer[argPlan] // its parameters' layout (Func.args), made on the first launch
}

// function looks up kernel name in the embedded fatbin cuda/<family>.cu (or
// a module LoadPTXModule made), loading the module into the context on
// first use. Callers outside go through a Kernel declaration (Kernel.Load).
func (d *Device) function(family, name string) (*Function, error) {
	d.modMu.Lock()
	defer d.modMu.Unlock()
	m, err := d.moduleLocked(family)
	if err != nil {
		return nil, err
	}
	if f, ok := m.funcs[name]; ok {
		return f, nil
	}
	f := &Function{dev: d, name: family + "." + name}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	err = d.do(func() error {
		return check("cuModuleGetFunction("+f.name+")", C.pg_module_get_function(&f.fn, m.handle, cname))
	})
	if err != nil {
		return nil, err
	}
	m.funcs[name] = f
	return f, nil
}

// Preload loads family's kernels into the context now; they load on first
// use otherwise. A job that opens the GPU ahead of need (device.Policy.
// Prefetch) has the driver load them while the host prepares its input.
func (d *Device) Preload(family string) error {
	d.modMu.Lock()
	defer d.modMu.Unlock()
	_, err := d.moduleLocked(family)
	return err
}

// moduleLocked is family's module, loaded into the context on first use;
// the caller holds modMu.
func (d *Device) moduleLocked(family string) (*module, error) {
	if m, ok := d.modules[family]; ok {
		return m, nil
	}
	m, err := d.loadModule(family)
	if err != nil {
		return nil, err
	}
	d.modules[family] = m
	return m, nil
}

// loadModule loads family's vector-reduction code where the device, the
// driver and the JIT policy allow it (see jit_cuda.go), else its fatbin.
func (d *Device) loadModule(family string) (*module, error) {
	if m := d.loadVectorRed(family); m != nil {
		return m, nil
	}
	image, err := kernelFS.ReadFile("kernels/" + family + ".fatbin")
	if err != nil {
		return nil, fmt.Errorf("gpu: no embedded kernels for %q (run `make kernels`): %w", family, err)
	}
	m := &module{image: C.CBytes(image), funcs: map[string]*Function{},
		variant: fmt.Sprintf("fatbin, sm_%d%d SASS", d.info.Major, d.info.Minor)}
	err = d.do(func() error {
		r := C.pg_module_load_data(&m.handle, m.image)
		if r == C.PG_ERROR_NO_BINARY_FOR_GPU {
			return fmt.Errorf("gpu: load %s kernels: no code for compute capability %s in %v",
				family, d.info.ComputeCapability(), embeddedArchs())
		}
		return check("cuModuleLoadData("+family+")", r)
	})
	if err != nil {
		m.free()
		return nil, err
	}
	return m, nil
}

// unloadVectorFamilies drops loaded modules that have a vector-reduction
// variant, so the next lookup chooses again. Call with modMu held.
func (d *Device) unloadVectorFamilies() error {
	return d.do(func() error {
		var errs error
		for family, m := range d.modules {
			if _, err := kernelFS.ReadFile("kernels/" + family + ".vred.ptx"); err != nil {
				continue
			}
			if err := check("cuModuleUnload", C.pg_module_unload(m.handle)); err != nil && errs == nil {
				errs = err
			}
			m.free()
			delete(d.modules, family)
		}
		return errs
	})
}

// KernelVariant says which code of family is loaded: the fatbin's SASS or
// the JIT-compiled vector-reduction PTX; "" when family is not loaded.
func (d *Device) KernelVariant(family string) string {
	d.modMu.Lock()
	defer d.modMu.Unlock()
	if m, ok := d.modules[family]; ok {
		return m.variant
	}
	return ""
}

// SetMaxDynamicShared lets launches of f use bytes of dynamic shared memory.
// A launch may use 48 KiB of shared memory in all without it: the dynamic
// bytes plus the kernel's static __shared__ arrays, so a kernel with 8 KiB of
// its own fails a 41 KiB launch with CUDA_ERROR_INVALID_VALUE unless the
// limit is raised. Where bytes and the static arrays fit in 48 KiB nothing is
// set; otherwise the limit goes to the most the device allows, not to bytes,
// so that callers sharing f (renders side by side) never lower it under one
// another's launches. Bytes beyond the device's limit are an error here
// rather than at the launch.
func (f *Function) SetMaxDynamicShared(bytes int) error {
	return f.dev.do(func() error {
		var static, optin C.int
		if err := check("cuFuncGetAttribute("+f.name+")",
			C.pg_func_get_attr(&static, C.PG_FUNC_ATTR_SHARED_SIZE_BYTES, f.fn)); err != nil {
			return err
		}
		if bytes+int(static) <= 48<<10 {
			return nil
		}
		if err := check("cuDeviceGetAttribute(shared memory per block, opt-in)",
			C.pg_device_attr(&optin, C.PG_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, f.dev.handle)); err != nil {
			return err
		}
		most := int(optin) - int(static)
		if bytes > most {
			return fmt.Errorf("gpu: %s: %d bytes of dynamic shared memory, the device allows %d beside the kernel's own %d",
				f.name, bytes, most, int(static))
		}
		return check("cuFuncSetAttribute("+f.name+")",
			C.pg_func_set_attr(f.fn, C.PG_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES, C.int(most)))
	})
}

// ResidentBlocks is how many blocks of blockThreads threads, each with
// dynShared bytes of dynamic shared memory, the whole device runs at once
// (the occupancy calculator's blocks per SM times the SMs): one wave. A
// launch of many equal blocks is best a whole number of waves; 1.06 waves
// take as long as two.
func (f *Function) ResidentBlocks(blockThreads, dynShared int) (int, error) {
	var n C.int
	err := f.dev.do(func() error {
		return check("cuOccupancyMaxActiveBlocksPerMultiprocessor("+f.name+")",
			C.pg_occupancy(&n, f.fn, C.int(blockThreads), C.size_t(dynShared)))
	})
	if err != nil {
		return 0, err
	}
	return max(int(n), 1) * max(f.dev.info.SMs, 1), nil
}

// Dim3 is a grid or block shape.
type Dim3 struct{ X, Y, Z uint32 }

// Dim returns a one-dimensional shape.
func Dim(x int) Dim3 { return Dim3{uint32(x), 1, 1} }

// arg is one kernel parameter's bits: a 32- or 64-bit scalar (a 32-bit
// one in the low half), or a device pointer. Anything wider goes through a
// buffer. Func.Launch makes them from a Kernel's parameter struct.
type arg struct{ bits uint64 }

// launchOn queues the kernel on stream s (nil: the default stream). The
// launch itself is checked; with SetSync(true) the kernel's completion is
// checked too.
func (f *Function) launchOn(s *Stream, grid, block Dim3, sharedBytes int, args ...arg) error {
	run, err := f.launcher(s, grid, block, sharedBytes, args)
	if err != nil || run == nil {
		return err
	}
	return f.dev.do(run)
}

// launcher checks a launch and returns the call that makes it on the
// device's goroutine (Launch runs it now, Batch later); nil when the grid is
// empty and there is nothing to do (the driver would reject it).
func (f *Function) launcher(s *Stream, grid, block Dim3, sharedBytes int, args []arg) (func() error, error) {
	if len(args) > C.PG_MAX_ARGS {
		return nil, fmt.Errorf("gpu: launch %s: %d arguments, at most %d", f.name, len(args), C.PG_MAX_ARGS)
	}
	if grid.X == 0 || grid.Y == 0 || grid.Z == 0 {
		return nil, nil
	}
	vals := make([]C.ulonglong, len(args)+1) // +1: never pass a pointer to an empty slice
	for i, a := range args {
		vals[i] = C.ulonglong(a.bits)
	}
	stream := s.handle()
	return func() error {
		r := C.pg_launch(f.fn, C.uint(grid.X), C.uint(grid.Y), C.uint(grid.Z),
			C.uint(block.X), C.uint(block.Y), C.uint(block.Z), C.uint(sharedBytes), &vals[0], C.int(len(args)), stream)
		if err := check("launch "+f.name, r); err != nil {
			return err
		}
		if f.dev.sync {
			return check("kernel "+f.name, C.pg_ctx_synchronize())
		}
		return nil
	}, nil
}
