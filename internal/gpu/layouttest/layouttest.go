// Package layouttest checks that Go mirrors of structs declared in a CUDA
// header have the header's layout: it compiles the header with the host C++
// compiler, prints every size, field offset and named constant, and compares
// them with the Go side. For tests only.
package layouttest

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// Struct is one C struct and its Go mirror. Fields lists the C names of the
// Go fields in order; nil means Snake of each Go field name.
type Struct struct {
	C      string
	Go     any
	Fields []string
}

// Header is a .cuh file and what must match in it.
type Header struct {
	Dir, File string // include directory (relative to the test) and header name
	Structs   []Struct
	// Consts are integer constants (#define or enum) with their Go values.
	Consts map[string]int64
}

// Snake maps a Go field name to the C one: ColorSpeed -> color_speed,
// TreeOff -> tree_off, LinearW -> linear_w, NXforms -> nxforms (a leading N
// before a capital is a count), BW -> bw, X0 -> x0, IDs -> ids.
func Snake(s string) string {
	if len(s) > 1 && s[0] == 'N' && unicode.IsUpper(rune(s[1])) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Check compiles h and reports every difference with t.Errorf; it skips
// when there is no g++.
func Check(t testing.TB, h Header) {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile the CUDA header with")
	}
	names := make([][]string, len(h.Structs))
	var prog strings.Builder
	prog.WriteString("#include <cstdio>\n#include <cstddef>\n#include \"" + h.File + "\"\nint main(){\n")
	for k, s := range h.Structs {
		rt := reflect.TypeOf(s.Go)
		names[k] = s.Fields
		if names[k] == nil {
			for i := 0; i < rt.NumField(); i++ {
				names[k] = append(names[k], Snake(rt.Field(i).Name))
			}
		}
		if len(names[k]) != rt.NumField() {
			t.Fatalf("%s: %d Go fields, %d C names", s.C, rt.NumField(), len(names[k]))
		}
		prog.WriteString("printf(\"" + s.C + " %lld\\n\", (long long)sizeof(" + s.C + "));\n")
		for _, f := range names[k] {
			prog.WriteString("printf(\"" + s.C + "." + f + " %lld\\n\", (long long)offsetof(" + s.C + ", " + f + "));\n")
		}
	}
	for name := range h.Consts {
		prog.WriteString("printf(\"" + name + " %lld\\n\", (long long)(" + name + "));\n")
	}
	prog.WriteString("}\n")
	dir := t.TempDir()
	src := filepath.Join(dir, "layout.cpp")
	if err := os.WriteFile(src, []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "layout")
	if out, err := exec.Command(cxx, "-I"+h.Dir, "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("compile %s: %v\n%s", h.File, err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, " ")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("%s: %q", k, v)
		}
		got[k] = n
	}
	for k, s := range h.Structs {
		rt := reflect.TypeOf(s.Go)
		if got[s.C] != int64(rt.Size()) {
			t.Errorf("sizeof(%s) = %d in C, %d in Go", s.C, got[s.C], rt.Size())
		}
		// gpu.Words pads only at the end: padding inside would shift fields.
		if n := (binary.Size(s.Go) + 3) / 4 * 4; n != int(rt.Size()) {
			t.Errorf("%s encodes to %d bytes, size %d (padding inside the struct?)", s.C, n, rt.Size())
		}
		for i, f := range names[k] {
			key := s.C + "." + f
			if off := int64(rt.Field(i).Offset); got[key] != off {
				t.Errorf("offsetof(%s) = %d in C, %d in Go (%s)", key, got[key], off, rt.Field(i).Name)
			}
		}
	}
	for name, want := range h.Consts {
		if got[name] != want {
			t.Errorf("%s = %d in C, %d in Go", name, got[name], want)
		}
	}
}
