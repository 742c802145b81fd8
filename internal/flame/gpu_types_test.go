package flame

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestGPUTypesMatchHeader compiles cuda/flame_types.cuh with the host C++
// compiler, prints every field's offset and each struct's size, and checks
// the Go mirrors against them. Skips when no C++ compiler is installed.
func TestGPUTypesMatchHeader(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile the CUDA header with")
	}
	types := []struct {
		c      string
		goType any
	}{{"FlameXform", gpuXform{}}, {"FlameGenome", gpuGenome{}}, {"FlameDE", gpuDE{}}, {"FlameTone", gpuTone{}}}
	var prog strings.Builder
	prog.WriteString("#include <cstdio>\n#include <cstddef>\n#include \"flame_types.cuh\"\nint main(){\n")
	for _, ty := range types {
		rt := reflect.TypeOf(ty.goType)
		prog.WriteString("printf(\"" + ty.c + " %zu\\n\", sizeof(" + ty.c + "));\n")
		for i := 0; i < rt.NumField(); i++ {
			f := snake(rt.Field(i).Name)
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
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			key := ty.c + "." + snake(f.Name)
			if got[key] != f.Offset {
				t.Errorf("offsetof(%s) = %d in C, %d in Go", key, got[key], f.Offset)
			}
		}
		if ln := len(words(ty.goType)); uintptr(ln*4) != rt.Size() {
			t.Errorf("%s encodes to %d bytes, size %d", ty.c, ln*4, rt.Size())
		}
	}
}

// snake maps a Go field name to the C one: ColorSpeed -> color_speed,
// NXforms -> nxforms, BW -> bw, X0 -> x0, IDs -> ids, BG -> bg.
func snake(s string) string {
	special := map[string]string{"NXforms": "nxforms", "NVars": "nvars", "IDs": "ids", "HasFinal": "has_final",
		"HasPost": "has_post", "RotCos": "rot_cos", "RotSin": "rot_sin", "KernelSize": "kernel_size",
		"MaxIndex": "max_index", "MaxFiltered": "max_filtered", "ColorSpeed": "color_speed", "AlphaHits": "alpha_hits", "WarpUniform": "warp_uniform", "LinearOnly": "linear_only", "LinearW": "linear_w"}
	if v, ok := special[s]; ok {
		return v
	}
	return strings.ToLower(s)
}
