// Package hosttwin compiles CUDA device code as host C++, for tests that
// check a kernel's formulas against the Go code without a GPU: a shim
// defines the CUDA intrinsics the code uses and includes the repository's
// cuda/ headers. For tests only.
package hosttwin

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Build compiles shim (C++17, -O2, with the repository's cuda/ on the
// include path, plus flags) and returns the program's path. Without a C++
// compiler (g++ or c++ on PATH) the test skips.
func Build(t testing.TB, shim string, flags ...string) string {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		if cxx, err = exec.LookPath("c++"); err != nil {
			t.Skip("no C++ compiler on PATH")
		}
	}
	cuda := cudaDir(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "shim.cpp")
	if err := os.WriteFile(src, []byte(shim), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "shim")
	args := append(append([]string{"-O2", "-std=c++17"}, flags...), "-I", cuda, "-o", bin, src)
	if out, err := exec.Command(cxx, args...).CombinedOutput(); err != nil {
		t.Fatalf("compile the host twin: %v\n%s", err, out)
	}
	return bin
}

// cudaDir is the repository's cuda/ folder: the first one found walking up
// from the test's working directory (its package's folder).
func cudaDir(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, "cuda")); err == nil && fi.IsDir() {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return filepath.Join(dir, "cuda")
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no cuda/ folder beside a go.mod above the test's directory")
		}
		dir = up
	}
}
