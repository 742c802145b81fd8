//go:build cuda

package gpu

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "nvrtc_cuda.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// ErrNoNVRTC is wrapped by the error of every NVRTC call when no NVRTC library
// could be loaded. It is not ErrUnavailable: a device may still run the
// ahead-of-time kernels, so the caller decides whether this is fatal.
var ErrNoNVRTC = errors.New("NVRTC not found")

// howToGetNVRTC is appended to the not-found error.
const howToGetNVRTC = "install the CUDA toolkit's NVRTC (e.g. Debian's libnvrtc11.2 or NVIDIA's cuda-nvrtc package), " +
	"or set PROCGEN_NVRTC to the library's path"

// nvrtcNames are the library names tried, newest first. The unversioned name
// exists only with development packages; 11.2 is the soname every CUDA 11.2+
// toolkit of the 11 series uses.
var nvrtcNames = []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"}

// Like the driver, NVRTC is loaded once, lazily, on first use.
var nvrtc struct {
	once sync.Once
	err  error
}

// nvrtcCandidates lists what to dlopen, in order: $PROCGEN_NVRTC, the bare
// names (the loader's search: LD_LIBRARY_PATH, ld.so.cache), then the names
// under the usual toolkit directories, which the loader does not search.
func nvrtcCandidates(getenv func(string) string) []string {
	var c []string
	if p := getenv("PROCGEN_NVRTC"); p != "" {
		c = append(c, p)
	}
	c = append(c, nvrtcNames...)
	seen := map[string]bool{}
	for _, dir := range []string{getenv("CUDA_PATH"), getenv("CUDA_HOME"), "/usr/local/cuda"} {
		if dir == "" || seen[filepath.Clean(dir)] {
			continue
		}
		seen[filepath.Clean(dir)] = true
		for _, n := range nvrtcNames {
			c = append(c, filepath.Join(dir, "lib64", n))
		}
	}
	return c
}

// loadNVRTC opens the first candidate that loads and binds.
func loadNVRTC() error {
	nvrtc.once.Do(func() {
		explicit := os.Getenv("PROCGEN_NVRTC")
		var reasons []string
		for _, path := range nvrtcCandidates(os.Getenv) {
			cpath := C.CString(path)
			var buf [512]C.char
			r := C.pg_nvrtc_open(cpath, &buf[0], C.int(len(buf)))
			C.free(unsafe.Pointer(cpath))
			if r == 0 {
				return
			}
			// A missing file is the expected case for most candidates; keep
			// only reasons that say something (an explicit path that fails,
			// a library that is not NVRTC) so the error stays readable.
			if r == 2 || path == explicit {
				reasons = append(reasons, C.GoString(&buf[0]))
			}
		}
		nvrtc.err = nvrtcNotFound(reasons)
	})
	return nvrtc.err
}

// nvrtcNotFound is the error when no candidate loaded: the noteworthy
// reasons, then how to get NVRTC.
func nvrtcNotFound(reasons []string) error {
	msg := howToGetNVRTC
	if len(reasons) > 0 {
		msg = strings.Join(reasons, "; ") + "; " + msg
	}
	return fmt.Errorf("gpu: %w: %s", ErrNoNVRTC, msg)
}

// nvrtcError turns an nvrtcResult into nil or an error naming op.
func nvrtcError(op string, r C.pg_nvrtc_result) error {
	if r == C.PG_NVRTC_SUCCESS {
		return nil
	}
	return fmt.Errorf("gpu: %s: %s (%d)", op, C.GoString(C.pg_nvrtc_error_string(r)), int(r))
}

// NVRTCVersion loads NVRTC on first use and reports its version.
func NVRTCVersion() (major, minor int, err error) {
	if err := loadNVRTC(); err != nil {
		return 0, 0, err
	}
	var ma, mi C.int
	if err := nvrtcError("nvrtcVersion", C.pg_nvrtc_version(&ma, &mi)); err != nil {
		return 0, 0, err
	}
	return int(ma), int(mi), nil
}

// cStrings copies ss into a C-allocated array of C strings: cgo forbids
// passing Go memory that holds pointers, so neither the array nor the strings
// may live in Go memory. free releases everything.
func cStrings(ss []string) (arr **C.char, free func()) {
	if len(ss) == 0 {
		return nil, func() {}
	}
	p := C.malloc(C.size_t(len(ss)) * C.size_t(unsafe.Sizeof((*C.char)(nil))))
	a := unsafe.Slice((**C.char)(p), len(ss))
	for i, s := range ss {
		a[i] = C.CString(s)
	}
	return (**C.char)(p), func() {
		for _, s := range a {
			C.free(unsafe.Pointer(s))
		}
		C.free(p)
	}
}

// nvrtcStdint stands in for <stdint.h>, which NVRTC does not ship: headers
// written for nvcc include it. CompileToPTX provides it unless the caller
// brings its own.
const nvrtcStdint = `#pragma once
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
`

// CompileToPTX compiles CUDA C++ source src (name is the file name used in messages) with in-memory
// headers (include name -> text; these must be found by #include "name" and #include <name>;
// a stdint.h is added unless given)
// and NVRTC options (e.g. "--gpu-architecture=compute_90", "-DFOO=1", "--std=c++17"), returning
// the PTX text (without the trailing NUL). On a compile error the error's text contains NVRTC's program log.
func CompileToPTX(name, src string, headers map[string]string, opts []string) ([]byte, error) {
	if err := loadNVRTC(); err != nil {
		return nil, err
	}
	// Sorted so that the same inputs always make the same call (and the same PTX).
	names := make([]string, 0, len(headers)+1)
	for n := range headers {
		names = append(names, n)
	}
	if _, ok := headers["stdint.h"]; !ok {
		names = append(names, "stdint.h")
	}
	sort.Strings(names)
	texts := make([]string, len(names))
	for i, n := range names {
		texts[i] = headers[n]
		if _, ok := headers[n]; !ok {
			texts[i] = nvrtcStdint
		}
	}
	// C strings end at the first NUL, so one inside would silently cut an input short.
	for _, ss := range [][]string{{name, src}, names, texts, opts} {
		for _, s := range ss {
			if strings.IndexByte(s, 0) >= 0 {
				return nil, fmt.Errorf("gpu: nvrtc: compile %s: an input contains a NUL byte", name)
			}
		}
	}

	csrc := C.CString(src)
	defer C.free(unsafe.Pointer(csrc))
	var cname *C.char // NULL makes NVRTC use its default name
	if name != "" {
		cname = C.CString(name)
		defer C.free(unsafe.Pointer(cname))
	}
	chdrs, freeHdrs := cStrings(texts)
	defer freeHdrs()
	cnames, freeNames := cStrings(names)
	defer freeNames()
	copts, freeOpts := cStrings(opts)
	defer freeOpts()

	var prog C.pg_nvrtc_program
	r := C.pg_nvrtc_create(&prog, csrc, cname, C.int(len(names)), chdrs, cnames)
	if err := nvrtcError("nvrtcCreateProgram "+name, r); err != nil {
		return nil, err
	}
	defer C.pg_nvrtc_destroy(&prog)

	if r := C.pg_nvrtc_compile(prog, C.int(len(opts)), copts); r != C.PG_NVRTC_SUCCESS {
		err := nvrtcError("nvrtc: compile "+name, r)
		if log := programLog(prog); log != "" {
			err = fmt.Errorf("%w:\n%s", err, log)
		}
		return nil, err
	}
	var n C.size_t
	if err := nvrtcError("nvrtcGetPTXSize "+name, C.pg_nvrtc_ptx_size(prog, &n)); err != nil {
		return nil, err
	}
	ptx := make([]byte, int(n))
	if n > 0 {
		if err := nvrtcError("nvrtcGetPTX "+name, C.pg_nvrtc_ptx(prog, (*C.char)(unsafe.Pointer(&ptx[0])))); err != nil {
			return nil, err
		}
	}
	// The size counts the terminating NUL; callers that need one (cuModuleLoadData) add it.
	return bytes.TrimRight(ptx, "\x00"), nil
}

// programLog returns NVRTC's log for prog, or "" when it has none.
func programLog(prog C.pg_nvrtc_program) string {
	var n C.size_t
	if C.pg_nvrtc_log_size(prog, &n) != C.PG_NVRTC_SUCCESS || n <= 1 {
		return ""
	}
	buf := make([]byte, int(n))
	if C.pg_nvrtc_log(prog, (*C.char)(unsafe.Pointer(&buf[0]))) != C.PG_NVRTC_SUCCESS {
		return ""
	}
	return strings.TrimRight(string(buf), "\x00\n")
}

// RuntimeCompiler names the NVRTC this process can load ("NVRTC 13.0"), or
// says why there is none ("none: ...").
func RuntimeCompiler() string {
	major, minor, err := NVRTCVersion()
	if err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		return "none: " + line
	}
	return fmt.Sprintf("NVRTC %d.%d", major, minor)
}
