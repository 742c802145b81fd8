//go:build cuda

package gpu

import (
	"math"
	"slices"
	"testing"
)

type argsInner struct {
	f float32
	d float64
}

type argsAll struct {
	p     Ptr
	s32   int32
	u32   uint32
	s64   int64
	u64   uint64
	inner argsInner
	null  Ptr
}

// TestArgsOf: a parameter struct flattens to the bits the driver gets, a
// nested struct's fields in its place, in the order Params lists them. No
// GPU needed.
func TestArgsOf(t *testing.T) {
	p := argsAll{Ptr{0x7f0000001000}, -2, 0xdeadbeef, -3, 1 << 40, argsInner{3.25, math.Pi}, Ptr{}}
	got, err := Func[argsAll]{&Function{}}.args(&p)
	if err != nil {
		t.Fatal(err)
	}
	want := []arg{{0x7f0000001000}, {0xfffffffe}, {0xdeadbeef}, {uint64(1<<64 - 3)}, {1 << 40},
		{uint64(math.Float32bits(3.25))}, {math.Float64bits(math.Pi)}, {0}}
	if !slices.Equal(got, want) {
		t.Errorf("args = %#v, want %#v", got, want)
	}
	kinds, err := Kernel[argsAll]{}.Params()
	if err != nil {
		t.Fatal(err)
	}
	wantKinds := []ParamKind{PtrParam, S32Param, U32Param, S64Param, U64Param, F32Param, F64Param, PtrParam}
	if !slices.Equal(kinds, wantKinds) {
		t.Errorf("Params = %v, want %v", kinds, wantKinds)
	}
	if _, err := (Func[struct{ s string }]{&Function{}}).args(&struct{ s string }{"x"}); err == nil {
		t.Error("args accepted a string parameter")
	}
	if _, err := (Kernel[struct{ b []byte }]{}).Params(); err == nil {
		t.Error("Params accepted a slice parameter")
	}
}

// BenchmarkArgsOf is the cost the typed seam adds to a launch of 25
// parameters (the rules interpreter's), against several microseconds a launch.
func BenchmarkArgsOf(b *testing.B) {
	type wide struct { // exported fields: only their layout matters
		P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12 Ptr
		A, C, D, E                                            int32
		F, G, H, I                                            int32
		Seed                                                  uint64
		J, K, L                                               int32
	}
	var w wide
	f := Func[wide]{&Function{}}
	for b.Loop() {
		if _, err := f.args(&w); err != nil {
			b.Fatal(err)
		}
	}
}
