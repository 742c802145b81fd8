package turtle

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// TestGPUTypesMatchHeader compiles cuda/turtle_types.cuh with the host C++
// compiler, prints every field's offset, each struct's size and the command
// numbers, and checks the Go mirrors (and Segment and Polygon, which the
// kernels write directly) against them. Skips when no C++ compiler is
// installed.
func TestGPUTypesMatchHeader(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile the CUDA header with")
	}
	types := []struct {
		c      string
		goType any
	}{
		{"TurtleProgram", gpuProgram{}}, {"TurtleChunk", gpuChunk{}}, {"TurtleSums", gpuSums{}},
		{"TurtleTotals", gpuTotals{}}, {"TurtleXform", gpuXform{}}, {"TurtleState", gpuState{}},
		{"TurtleEvent", gpuEvent{}}, {"TurtleBox", gpuBox{}},
		{"TurtleSegment", Segment{}}, {"TurtlePolygon", Polygon{}},
	}
	cmds := map[string]cmd{
		"TC_NONE": cNone, "TC_DRAW": cDraw, "TC_LEFT": cLeft, "TC_RIGHT": cRight, "TC_PITCH_UP": cPitchUp,
		"TC_PITCH_DOWN": cPitchDown, "TC_ROLL_RIGHT": cRollRight, "TC_ROLL_LEFT": cRollLeft, "TC_MOVE": cMove,
		"TC_AROUND": cAround, "TC_LEVEL": cLevel, "TC_PUSH": cPush, "TC_POP": cPop, "TC_THINNER": cThinner,
		"TC_THICKER": cThicker, "TC_COLOR": cColor, "TC_POLY_START": cPolyStart,
		"TC_POLY_VERTEX": cPolyVertex, "TC_POLY_END": cPolyEnd, "TURTLE_MAX_LEVELS": gpuMaxLevels,
	}
	var prog strings.Builder
	prog.WriteString("#include <cstdio>\n#include <cstddef>\n#include \"turtle_types.cuh\"\nint main(){\n")
	for _, ty := range types {
		rt := reflect.TypeOf(ty.goType)
		prog.WriteString("printf(\"" + ty.c + " %zu\\n\", sizeof(" + ty.c + "));\n")
		for i := 0; i < rt.NumField(); i++ {
			f := snake(rt.Field(i).Name)
			prog.WriteString("printf(\"" + ty.c + "." + f + " %zu\\n\", offsetof(" + ty.c + ", " + f + "));\n")
		}
	}
	for name := range cmds {
		prog.WriteString("printf(\"" + name + " %d\\n\", (int)(" + name + "));\n")
	}
	prog.WriteString("}\n")
	dir := t.TempDir()
	src := filepath.Join(dir, "layout.cpp")
	if err := os.WriteFile(src, []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "layout")
	if out, err := exec.Command(cxx, "-I../../../cuda", "-o", bin, src).CombinedOutput(); err != nil {
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
		if ln := len(gpuWords(ty.goType)); uintptr(ln*4) != rt.Size() {
			t.Errorf("%s encodes to %d bytes, size %d", ty.c, ln*4, rt.Size())
		}
	}
	for _, w := range []struct {
		v     any
		words int
	}{
		{gpuChunk{}, gpuChunkWords}, {gpuSums{}, gpuSumsWords}, {gpuTotals{}, gpuTotalsWords},
		{gpuXform{}, gpuXformWords}, {gpuState{}, gpuStateWords}, {gpuEvent{}, gpuEventWords},
		{gpuBox{}, gpuBoxWords}, {Segment{}, gpuSegmentWords}, {Polygon{}, gpuPolygonWords},
		{[3]float32{}, gpuVertexWords},
	} {
		if size := reflect.TypeOf(w.v).Size(); size != uintptr(4*w.words) {
			t.Errorf("%T: %d bytes, %d words", w.v, size, w.words)
		}
	}
	for name, c := range cmds {
		if got[name] != uintptr(c) {
			t.Errorf("%s = %d in C, %d in Go", name, got[name], c)
		}
	}
}

// snake maps a Go field name to the C one: TreeOff -> tree_off, NChunks ->
// nchunks, MaxRel -> max_rel, Width0 -> width0, A -> a.
func snake(s string) string {
	special := map[string]string{"NChunks": "nchunks", "ColorKind": "color_kind"}
	if v, ok := special[s]; ok {
		return v
	}
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func TestGPUProgramTree(t *testing.T) {
	p := newProgram(&lsys.System{Angle: 90, Step: 1}, Options{})
	for _, tc := range []struct{ n, chunk, levels, size int }{
		{1, 16, 1, 1}, {16, 16, 1, 1}, {17, 16, 2, 3}, {1000, 16, 7, 63 + 32 + 16 + 8 + 4 + 2 + 1},
	} {
		g, err := newGPUProgram(p, tc.n, tc.chunk)
		if err != nil {
			t.Fatal(err)
		}
		if int(g.Levels) != tc.levels || g.treeSize() != tc.size || g.TreeLen[g.Levels-1] != 1 {
			t.Errorf("n %d chunk %d: %d levels, %d entries %v", tc.n, tc.chunk, g.Levels, g.treeSize(), g.TreeLen[:g.Levels])
		}
	}
	for _, c := range []int{8, 24, 8192} {
		if _, err := newGPUProgram(p, 100, c); err == nil {
			t.Errorf("chunk %d accepted", c)
		}
	}
}
