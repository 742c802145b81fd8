//go:build cuda

package gpu

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "driver_cuda.h"
*/
import "C"

import (
	"fmt"
	"sync"
)

// minDriverVersion is the oldest driver API that can load our fatbins: they are
// built by nvcc 11.8, and their PTX needs a driver at least that new to JIT.
const minDriverVersion = 11080

// The driver library is process-wide state by nature (dlopen, cuInit), so it is
// loaded once, lazily, on first use: never at package initialisation.
var driver struct {
	once    sync.Once
	err     error
	version int
}

// loadDriver dlopens libcuda.so.1, initialises the driver and checks its
// version. Every error wraps ErrUnavailable and says precisely what is missing.
func loadDriver() (int, error) {
	driver.once.Do(func() {
		var buf [512]C.char
		switch C.pg_load(&buf[0], C.int(len(buf))) {
		case 0:
		case 1:
			driver.err = fmt.Errorf("%w: libcuda.so.1 not found (no NVIDIA driver installed?): %s",
				ErrUnavailable, C.GoString(&buf[0]))
			return
		default:
			driver.err = fmt.Errorf("%w: %s", ErrUnavailable, C.GoString(&buf[0]))
			return
		}
		if r := C.pg_init(); r != C.PG_SUCCESS {
			switch r {
			case C.PG_ERROR_NO_DEVICE:
				driver.err = fmt.Errorf("%w: the NVIDIA driver is installed but found no CUDA device", ErrUnavailable)
			case C.PG_ERROR_INSUFFICIENT_DRIVER:
				driver.err = fmt.Errorf("%w: driver too old: cuInit reports CUDA_ERROR_INSUFFICIENT_DRIVER", ErrUnavailable)
			default:
				driver.err = fmt.Errorf("%w: cuInit: %v", ErrUnavailable, newError("cuInit", r))
			}
			return
		}
		var v C.int
		if err := check("cuDriverGetVersion", C.pg_driver_version(&v)); err != nil {
			driver.err = fmt.Errorf("%w: %v", ErrUnavailable, err)
			return
		}
		driver.version = int(v)
		if driver.version < minDriverVersion {
			driver.err = fmt.Errorf("%w: driver too old: it supports CUDA %s, procgen's kernels need %s or newer",
				ErrUnavailable, DriverVersionString(driver.version), DriverVersionString(minDriverVersion))
		}
	})
	return driver.version, driver.err
}

// Error is a failed driver call.
type Error struct {
	Op   string // the driver function or the kernel that failed
	Code int    // CUresult
	Name string // e.g. CUDA_ERROR_OUT_OF_MEMORY
	Msg  string // the driver's description
}

func (e *Error) Error() string {
	return fmt.Sprintf("gpu: %s: %s (%s)", e.Op, e.Name, e.Msg)
}

func newError(op string, r C.pg_result) *Error {
	return &Error{Op: op, Code: int(r), Name: C.GoString(C.pg_error_name(r)), Msg: C.GoString(C.pg_error_string(r))}
}

// check turns a CUresult into nil or an *Error naming op.
func check(op string, r C.pg_result) error {
	if r == C.PG_SUCCESS {
		return nil
	}
	return newError(op, r)
}
