//go:build cuda

package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// drawsOnGPUAgree runs p on the GPU (the interpreter kernel or the
// generated one, variant v) and on the CPU interpreter: draws, faults,
// fired counts, stable steps and traces the same, int words bit for bit.
func drawsOnGPUAgree(t *testing.T, c CUDA, p *Program, v genVariant, states int, seed uint64, o Options, interp bool) string {
	t.Helper()
	if !interp {
		requireGenerated(t, c.Dev, p, v.kernel(p))
	}
	want := Generate(p, states, seed)
	wantRes, wantErr := CPU{Path: PathInterpret}.Run(context.Background(), p, want, o)
	got, gotRes, gotErr := runVariant(c, p, v, states, seed, o, interp)
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		return fmt.Sprintf("errors differ:\n got %v\nwant %v", gotErr, wantErr)
	}
	if wantErr != nil {
		return ""
	}
	if k := differ(p, want.Data, got.Data); k >= 0 {
		return fmt.Sprintf("state %d word %d: %#x, want %#x", k/p.Words, k%p.Words, got.Data[k], want.Data[k])
	}
	if fmt.Sprint(wantRes.Fired, wantRes.StableAt, wantRes.Steps) != fmt.Sprint(gotRes.Fired, gotRes.StableAt, gotRes.Steps) {
		return fmt.Sprintf("results differ:\n got %v %v\nwant %v %v", gotRes.Fired, gotRes.StableAt, wantRes.Fired, wantRes.StableAt)
	}
	if len(wantRes.Trace) != len(gotRes.Trace) {
		return "traces differ in length"
	}
	for k, w := range wantRes.Trace {
		if g := gotRes.Trace[k]; w.Step != g.Step || w.State != g.State || differ(p, w.Words, g.Words) >= 0 {
			return fmt.Sprintf("trace record %d differs", k)
		}
	}
	return ""
}

// TestCUDADrawsMatchCPU: drawPrograms on every schedule, block shape and
// layout, through the interpreter kernel and the generated one, with a
// seed and a first state that are not zero.
func TestCUDADrawsMatchCPU(t *testing.T) {
	c := cudaEngine(t)
	for name, src := range drawPrograms {
		p := compileSrc(t, src)
		for _, v := range allGenVariants() {
			for _, interp := range []bool{true, false} {
				o := Options{Steps: 4, Seed: 77, FirstState: 3, FirstStep: 2, Trace: []int{0}}
				if msg := drawsOnGPUAgree(t, c, p, v, 41, 5, o, interp); msg != "" {
					t.Errorf("%s/%s interpreter=%v: %s", name, v, interp, msg)
				}
			}
		}
	}
}

// TestCUDADrawsMatchCPURandom: random programs with draws (100, -short:
// 20), all three schedules, both kernels.
func TestCUDADrawsMatchCPURandom(t *testing.T) {
	c := cudaEngine(t)
	n := 100
	if testing.Short() {
		n = 20
	}
	ps, srcs := drawRandomPrograms(t, n)
	for k, p := range ps {
		l := []Layout{LayoutA, LayoutB, LayoutC}[k%3]
		o := Options{Steps: 1 + k%4, Seed: uint64(k), FirstState: k % 5}
		states := 1 + (k*7)%40
		for _, v := range []genVariant{{Simple, 0, l}, {Compact, 32, l}, {Compact, ptx.CompactSmall, l}} {
			for _, interp := range []bool{true, false} {
				if msg := drawsOnGPUAgree(t, c, p, v, states, uint64(k), o, interp); msg != "" {
					t.Fatalf("program %d, %s, interpreter=%v, %d states:\n%s\n%s", k, v, interp, states, srcs[k], msg)
				}
			}
		}
	}
}

// TestCUDADrawsSplitWithCPU: a run cut between the GPU and the CPU
// (Multi numbers each part's states from its first) draws what one CPU
// run draws.
func TestCUDADrawsSplitWithCPU(t *testing.T) {
	c := cudaEngine(t)
	p := compileSrc(t, drawPrograms["walk"])
	want := Generate(p, 50, 1)
	if _, err := (CPU{}).Run(context.Background(), p, want, Options{Steps: 6, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	got := Generate(p, 50, 1)
	m := Multi{Engines: []Engine{c, CPU{}}}
	if _, err := m.Run(context.Background(), p, got, Options{Steps: 6, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	if k := differ(p, want.Data, got.Data); k >= 0 {
		t.Errorf("state %d word %d differs", k/p.Words, k%p.Words)
	}
}
