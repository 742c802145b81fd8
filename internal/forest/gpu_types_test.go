package forest

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestForestGPUTypesMatchHeader compiles cuda/forest_types.cuh with the host
// C++ compiler, prints every field's offset and each struct's size, and
// checks the Go mirrors against them. Skips when no C++ compiler is installed.
func TestForestGPUTypesMatchHeader(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile the CUDA header with")
	}
	types := []struct {
		c      string
		fields []string // C names of the Go fields, in order
		goType any
	}{
		{"ForestExact", []string{"nx", "ny", "tiles_x", "torus", "h", "lx", "ly", "theta_half", "logn_c", "cut2",
			"hd", "lxd", "lyd", "ilxd", "ilyd"}, gpuExactParams{}},
		{"ForestFftPlan", []string{"n", "nstages", "generic", "pad0", "radix"}, gpuFFTPlan{}},
		{"ForestTableKern", []string{"logn", "torus", "px", "py", "h", "d", "theta", "half_theta", "ln_x0", "inv2xb2"},
			gpuTableKern{}},
	}
	var prog strings.Builder
	prog.WriteString("#include <cstdio>\n#include <cstddef>\n#include \"forest_types.cuh\"\nint main(){\n")
	for _, ty := range types {
		rt := reflect.TypeOf(ty.goType)
		if rt.NumField() != len(ty.fields) {
			t.Fatalf("%s: %d Go fields, %d C names listed", ty.c, rt.NumField(), len(ty.fields))
		}
		prog.WriteString("printf(\"" + ty.c + " %zu\\n\", sizeof(" + ty.c + "));\n")
		for _, f := range ty.fields {
			prog.WriteString("printf(\"" + ty.c + "." + f + " %zu\\n\", offsetof(" + ty.c + ", " + f + "));\n")
		}
	}
	prog.WriteString("}\n")
	dir := t.TempDir()
	src := filepath.Join(dir, "layout.cpp")
	if err := os.WriteFile(src, []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "layout")
	if out, err := exec.Command(cxx, "-I../../cuda", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("compile header: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uintptr{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, " ")
		n, _ := strconv.Atoi(v)
		got[k] = uintptr(n)
	}
	for _, ty := range types {
		rt := reflect.TypeOf(ty.goType)
		if got[ty.c] != rt.Size() {
			t.Errorf("sizeof(%s) = %d in C, %d in Go", ty.c, got[ty.c], rt.Size())
		}
		for i, name := range ty.fields {
			key := ty.c + "." + name
			if off := rt.Field(i).Offset; got[key] != off {
				t.Errorf("offsetof(%s) = %d in C, %d in Go (%s)", key, got[key], off, rt.Field(i).Name)
			}
		}
		if n := len(gpuWords(ty.goType)); uintptr(n*4) != rt.Size() {
			t.Errorf("%s encodes to %d bytes, size %d", ty.c, n*4, rt.Size())
		}
	}
}
