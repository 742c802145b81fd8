package flame

import "testing"

func xformOf(post int32, vars ...VarTerm) gpuXform {
	x := gpuXform{NVars: int32(len(vars)), HasPost: post, PreBlur: -1, LinearOnly: 1}
	for i, v := range vars {
		x.IDs[i], x.Weights[i] = uint16(v.ID), float32(v.Weight)
		x.LinearW += float32(v.Weight)
		if v.ID != VarLinear {
			x.LinearOnly = 0
		}
		if v.ID == VarPreBlur && v.Weight != 0 && x.PreBlur < 0 {
			x.PreBlur = int32(i)
		}
	}
	return x
}

// TestFitXform: a genome's xform is restated in a wider shape only when its
// variations are among the shape's, with the same post affine and pre_blur.
func TestFitXform(t *testing.T) {
	wide := xformOf(0, VarTerm{VarLinear, 0.5}, VarTerm{VarSinusoidal, 0.5})
	for _, tc := range []struct {
		name    string
		x       gpuXform
		ok      bool
		weights []float32
	}{
		{"linear only", xformOf(0, VarTerm{VarLinear, 0.7}), true, []float32{0.7, 0}},
		{"subset", xformOf(0, VarTerm{VarSinusoidal, 0.3}), true, []float32{0, 0.3}},
		{"same", wide, true, []float32{0.5, 0.5}},
		{"not a subset", xformOf(0, VarTerm{VarSpherical, 1}), false, nil},
		{"post", xformOf(1, VarTerm{VarLinear, 1}), false, nil},
		{"pre_blur", xformOf(0, VarTerm{VarLinear, 1}, VarTerm{VarPreBlur, 0.1}), false, nil},
	} {
		got, ok := fitXform(&tc.x, &wide)
		if ok != tc.ok {
			t.Errorf("%s: fits %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if got.LinearOnly != 0 || got.NVars != 2 || got.IDs != wide.IDs {
			t.Errorf("%s: not restated in the wide shape: %+v", tc.name, got)
		}
		for j, w := range tc.weights {
			if got.Weights[j] != w {
				t.Errorf("%s: weights %v, want %v", tc.name, got.Weights[:2], tc.weights)
			}
		}
	}
}

// CheckFitShapesEdgeStart is TestFitShapesEdgeStart (edge_test.go, an
// external test because flame/cuburn imports flame) on the first frame fs of
// a cuburn edge: one temporal sample at exactly the start node, with fewer
// variations than the interpolated rest; fitted, the whole frame has one
// shape.
func CheckFitShapesEdgeStart(t *testing.T, fs *FrameSpec) {
	t.Helper()
	fp, err := fs.framePlan(Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	sets, nx := make([][]gpuXform, len(fp.games)), make([]int, len(fp.games))
	shapes := map[string]bool{}
	for i := range fp.games {
		gg, xs, err := fp.plans[i].gpuInputs(fp.games[i])
		if err != nil {
			t.Fatal(err)
		}
		sets[i], nx[i] = xs, int(gg.NXforms)
		shapes[string(appendShape(nil, xs, nx[i]))] = true
	}
	if len(shapes) < 2 {
		t.Fatalf("the frame has %d shapes: the case this test is about is gone", len(shapes))
	}
	shape := fitShapes(sets, nx)
	if shape == nil {
		t.Fatal("the frame could not be fitted to one shape")
	}
	for i := range sets {
		if got := appendShape(nil, sets[i], nx[i]); string(got) != string(shape) {
			t.Fatalf("sample %d keeps shape %v, not %v", i, got, shape)
		}
	}
}

// TestFitShapesRefuses: a genome that is not a narrower form of the common
// shape leaves the frame without one (nil), and every genome as it was.
func TestFitShapesRefuses(t *testing.T) {
	wide := xformOf(0, VarTerm{VarLinear, 0.5}, VarTerm{VarSinusoidal, 0.5})
	narrow := xformOf(0, VarTerm{VarLinear, 0.7})
	odd := xformOf(0, VarTerm{VarSpherical, 1})
	sets := [][]gpuXform{{wide}, {wide}, {narrow}, {odd}}
	if fitShapes(sets, []int{1, 1, 1, 1}) != nil {
		t.Fatal("fitted a genome with a variation the shape lacks")
	}
	if sets[2][0] != narrow || sets[3][0] != odd {
		t.Error("a refused fit changed the genomes")
	}
	sets = sets[:3]
	if fitShapes(sets, []int{1, 1, 1}) == nil || sets[2][0].Weights[0] != 0.7 {
		t.Error("the narrower genome was not fitted")
	}
}
