package turtle

import (
	"reflect"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/layouttest"
	"github.com/procgen-dev/procgen/internal/lsys"
)

// TestGPUTypesMatchHeader checks the Go mirrors (and Segment and Polygon,
// which the kernels write directly) and the command numbers against
// cuda/turtle_types.cuh as the host C++ compiler lays it out.
func TestGPUTypesMatchHeader(t *testing.T) {
	cmds := map[string]cmd{
		"TC_NONE": cNone, "TC_DRAW": cDraw, "TC_LEFT": cLeft, "TC_RIGHT": cRight, "TC_PITCH_UP": cPitchUp,
		"TC_PITCH_DOWN": cPitchDown, "TC_ROLL_RIGHT": cRollRight, "TC_ROLL_LEFT": cRollLeft, "TC_MOVE": cMove,
		"TC_AROUND": cAround, "TC_LEVEL": cLevel, "TC_PUSH": cPush, "TC_POP": cPop, "TC_THINNER": cThinner,
		"TC_THICKER": cThicker, "TC_COLOR": cColor, "TC_POLY_START": cPolyStart,
		"TC_POLY_VERTEX": cPolyVertex, "TC_POLY_END": cPolyEnd,
	}
	consts := map[string]int64{"TURTLE_MAX_LEVELS": gpuMaxLevels}
	for name, c := range cmds {
		consts[name] = int64(c)
	}
	layouttest.Check(t, layouttest.Header{Dir: "../../../cuda", File: "turtle_types.cuh", Consts: consts,
		Structs: []layouttest.Struct{
			{C: "TurtleProgram", Go: gpuProgram{}}, {C: "TurtleChunk", Go: gpuChunk{}}, {C: "TurtleSums", Go: gpuSums{}},
			{C: "TurtleTotals", Go: gpuTotals{}}, {C: "TurtleXform", Go: gpuXform{}}, {C: "TurtleState", Go: gpuState{}},
			{C: "TurtleEvent", Go: gpuEvent{}}, {C: "TurtleBox", Go: gpuBox{}},
			{C: "TurtleSegment", Go: Segment{}}, {C: "TurtlePolygon", Go: Polygon{}},
		}})
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
