package gpu

import (
	"fmt"
	"reflect"
	"testing"
)

func TestParseArchs(t *testing.T) {
	got := parseArchs("# built by nvcc 11.8\nsm_80\nsm_90\n\ncompute_90\nsm_90\n")
	want := []string{"sm_80", "sm_90", "compute_90"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseArchs = %v, want %v", got, want)
	}
}

func TestCanRun(t *testing.T) {
	archs := []string{"sm_80", "sm_90", "compute_90"}
	for _, tc := range []struct {
		major, minor int
		want         bool
	}{
		{7, 5, false}, // Turing: no SASS, PTX too new
		{8, 0, true},  // A100: sm_80 SASS
		{8, 6, true},  // GA10x: sm_80 SASS is forward compatible within major 8
		{8, 9, true},  // Ada
		{9, 0, true},  // H100: sm_90 SASS
		{10, 0, true}, // Blackwell: JIT from compute_90 PTX
		{12, 0, true},
	} {
		t.Run(fmt.Sprintf("%d.%d", tc.major, tc.minor), func(t *testing.T) {
			if got := canRun(archs, tc.major, tc.minor); got != tc.want {
				t.Fatalf("canRun(%d.%d) = %v, want %v", tc.major, tc.minor, got, tc.want)
			}
		})
	}
	if canRun([]string{"sm_90"}, 10, 0) {
		t.Fatal("sm_90 SASS alone must not run on 10.0")
	}
	if canRun(nil, 9, 0) {
		t.Fatal("no archs can run nothing")
	}
}

func TestTrimUnavailable(t *testing.T) {
	err := fmt.Errorf("%w: libcuda.so.1 not found", ErrUnavailable)
	if got := trimUnavailable(err); got != "libcuda.so.1 not found" {
		t.Fatalf("trimUnavailable = %q", got)
	}
}
