//go:build cuda

package gpu

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// nvrtcOrSkip skips when no NVRTC library loads: the CUDA build must still
// test cleanly on machines without the toolkit.
func nvrtcOrSkip(t *testing.T) {
	t.Helper()
	major, minor, err := NVRTCVersion()
	if err != nil {
		if !errors.Is(err, ErrNoNVRTC) {
			t.Fatalf("NVRTCVersion: %v (want an error wrapping ErrNoNVRTC)", err)
		}
		t.Skipf("no NVRTC: %v", err)
	}
	t.Logf("NVRTC %d.%d", major, minor)
	if major < 11 {
		t.Fatalf("NVRTC %d.%d: implausible version", major, minor)
	}
}

func TestNVRTCCandidates(t *testing.T) {
	env := map[string]string{"PROCGEN_NVRTC": "/opt/x/libnvrtc.so.12", "CUDA_PATH": "/usr/local/cuda/", "CUDA_HOME": ""}
	got := nvrtcCandidates(func(k string) string { return env[k] })
	want := []string{"/opt/x/libnvrtc.so.12", "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
		// CUDA_PATH is /usr/local/cuda: listed once; CUDA_HOME is empty: skipped.
		"/usr/local/cuda/lib64/libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13",
		"/usr/local/cuda/lib64/libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so.11.2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates:\n got %q\nwant %q", got, want)
	}
}

func TestNVRTCNotFoundSaysHow(t *testing.T) {
	err := nvrtcNotFound([]string{"/x/libnvrtc.so: cannot open shared object file"})
	if !errors.Is(err, ErrNoNVRTC) {
		t.Errorf("%v does not wrap ErrNoNVRTC", err)
	}
	for _, want := range []string{"/x/libnvrtc.so", "libnvrtc11.2", "cuda-nvrtc", "PROCGEN_NVRTC"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestNVRTCCompileWithHeader(t *testing.T) {
	nvrtcOrSkip(t)
	src := `#include "two.h"
extern "C" __global__ void k(float *p) { p[threadIdx.x] *= TWO; }
`
	ptx, err := CompileToPTX("k.cu", src, map[string]string{"two.h": "#define TWO 2.f\n"},
		[]string{"--gpu-architecture=compute_80", "--std=c++17"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(ptx)
	for _, want := range []string{".version", ".target sm_80", ".entry k("} {
		if !strings.Contains(s, want) {
			t.Errorf("PTX lacks %q:\n%s", want, s)
		}
	}
	if strings.IndexByte(s, 0) >= 0 {
		t.Error("PTX contains a NUL byte")
	}
}

func TestNVRTCCompileErrorHasLog(t *testing.T) {
	nvrtcOrSkip(t)
	_, err := CompileToPTX("bad.cu", "extern \"C\" __global__ void k(float *p) { p[0] = ; }\n", nil,
		[]string{"--gpu-architecture=compute_80"})
	if err == nil {
		t.Fatal("a syntax error compiled")
	}
	t.Log(err)
	// The log names the file and the line: that is what the user needs.
	for _, want := range []string{"error", "bad.cu(1)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestNVRTCAngleBracketHeader(t *testing.T) {
	nvrtcOrSkip(t)
	src := `#include <mystdint.h>
extern "C" __global__ void k(my_u32 *p) { p[threadIdx.x] += MY_ONE; }
`
	hdr := map[string]string{
		"mystdint.h": "#pragma once\ntypedef unsigned int my_u32;\n#define MY_ONE 1u\n",
		"unused.h":   "#error unused.h must not be included\n",
	}
	ptx, err := CompileToPTX("angle.cu", src, hdr, []string{"--gpu-architecture=compute_80", "-DUNUSED=1"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ptx), ".entry k(") {
		t.Errorf("PTX lacks the entry k:\n%s", ptx)
	}
}

func TestNVRTCRejectsNUL(t *testing.T) {
	nvrtcOrSkip(t)
	if _, err := CompileToPTX("nul.cu", "__global__ void k() {}\x00garbage", nil, nil); err == nil {
		t.Error("a source with a NUL byte was accepted")
	}
}
