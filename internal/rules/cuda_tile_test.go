//go:build cuda

package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// tileVariant is the tiled path in layout l (runVariant forces it on).
func tileVariant(l Layout) genVariant { return genVariant{sched: ptx.Tile, layout: l} }

// tileBoardCase is a board large enough that --device auto's CUDA run goes
// tiled by itself (UseTiles) on any GPU of more than one SM.
type tileBoardCase struct {
	name          string
	p             *Program
	states, steps int
	o             Options
}

func tileBoardCases(t *testing.T) []tileBoardCase {
	draws := Options{Seed: 41, FirstState: 3, FirstStep: 2}
	return []tileBoardCase{
		{"life-torus-1024", compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"}), 2, 12, Options{}},
		{"life-plane-700x600", compileSrc(t, planeLifeSrc(700, 600)), 3, 12, Options{}},
		{"forestfire-600x500", compileConfig(t, "forestfire.rules", map[string]string{"W": "600", "H": "500", "P": "0.05", "F": "0.001"}), 2, 10, draws},
		{"sandpile-plane-400x300", compileConfig(t, "sandpile.rules", map[string]string{"W": "400", "H": "300"}), 2, 40, Options{}},
		{"pending-two-fields", compileSrc(t, pendingSrc(300000)), 3, 5, Options{}},
	}
}

// sameRun compares a GPU run with the CPU's: the error text, every word bit
// for bit, firings per step, fixed points, steps and the trace.
func sameRun(p *Program, want, got *States, wantRes, gotRes *Result, wantErr, gotErr error) string {
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
		return fmt.Sprintf("%d trace records, want %d", len(gotRes.Trace), len(wantRes.Trace))
	}
	for k, w := range wantRes.Trace {
		if g := gotRes.Trace[k]; w.Step != g.Step || w.State != g.State || w.Fired != g.Fired || differ(p, w.Words, g.Words) >= 0 {
			return fmt.Sprintf("trace record %d (step %d) differs", k, w.Step)
		}
	}
	return ""
}

// TestCUDATiledBoardsMatchCPU: boards that trigger the tiled path (Life on
// a torus and on a plane, the forest fire's draws, the sandpile's plane
// edges and atomic counter, scattered writes over two fields) run as
// --device auto would (Result.Tiled must be set) and tiled in every
// layout with the generated and the interpreter kernels, equal to the CPU
// bit for bit, traces included.
func TestCUDATiledBoardsMatchCPU(t *testing.T) {
	c := cudaEngine(t)
	for _, tc := range tileBoardCases(t) {
		o := tc.o
		o.Steps, o.Trace = tc.steps, []int{tc.states - 1}
		if !UseTiles(tc.p, tc.states, c.Dev.Info().SMs) {
			t.Fatalf("%s: %d states on %d SMs do not go tiled", tc.name, tc.states, c.Dev.Info().SMs)
		}
		want := Generate(tc.p, tc.states, 7)
		wantRes, wantErr := CPU{}.Run(context.Background(), tc.p, want, o)
		got := Generate(tc.p, tc.states, 7)
		gotRes, gotErr := c.Run(context.Background(), tc.p, got, o)
		if msg := sameRun(tc.p, want, got, wantRes, gotRes, wantErr, gotErr); msg != "" {
			t.Errorf("%s/auto: %s", tc.name, msg)
		}
		if gotErr == nil && (!gotRes.Tiled || gotRes.Kernel != "generated") {
			t.Errorf("%s/auto: tiled %v, kernel %s (%s)", tc.name, gotRes.Tiled, gotRes.Kernel, gotRes.KernelNote)
		}
		for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
			for _, interp := range []bool{false, true} {
				v := tileVariant(l)
				if !interp {
					requireGenerated(t, c.Dev, tc.p, v.kernel(tc.p))
				}
				st, res, err := runVariant(c, tc.p, v, tc.states, 7, o, interp)
				if msg := sameRun(tc.p, want, st, wantRes, res, wantErr, err); msg != "" {
					t.Errorf("%s/%s/interp=%v: %s", tc.name, l, interp, msg)
				}
				if err == nil && !res.Tiled {
					t.Errorf("%s/%s/interp=%v: not tiled", tc.name, l, interp)
				}
			}
		}
	}
}

// TestCUDATiledSmallPrograms: the shipped rule files, the edge cases
// (faults, empty and negative ranges, too many scattered writes), the draw
// programs and random programs (with and without draws), forced tiled,
// generated and interpreter, against the CPU interpreter; narrow and
// (forceWide) wide encodings.
func TestCUDATiledSmallPrograms(t *testing.T) {
	c := cudaEngine(t)
	n := 120
	if testing.Short() {
		n = 20
	}
	var ps []*Program
	var names []string
	for _, tc := range equivCases(t) {
		if !hasOpcode(tc.p, bytecode.OpADDF) {
			ps, names = append(ps, tc.p), append(names, tc.name)
		}
	}
	for _, src := range ptxEdgeSources() {
		ps, names = append(ps, compileSrc(t, src)), append(names, src)
	}
	for name, src := range drawPrograms {
		ps, names = append(ps, compileSrc(t, src)), append(names, name)
	}
	rnd, srcs := ptxRandomPrograms(t, n, func(p *Program) bool { return !hasOpcode(p, bytecode.OpADDF) })
	ps, names = append(ps, rnd...), append(names, srcs...)
	drw, dsrcs := drawRandomPrograms(t, n/3)
	ps, names = append(ps, drw...), append(names, dsrcs...)
	for _, wide := range []bool{false, true} {
		forceWide = wide
		for k, p := range ps {
			l := []Layout{LayoutA, LayoutB, LayoutC}[k%3]
			o := Options{Steps: 1 + k%5, UntilFixpoint: k%2 == 0, Seed: uint64(k), FirstState: k % 4, FirstStep: k % 3, Trace: []int{0}}
			states := 1 + (k*7)%40
			for _, interp := range []bool{false, true} {
				if msg := drawsOnGPUAgree(t, c, p, tileVariant(l), states, uint64(k), o, interp); msg != "" {
					forceWide = false
					t.Fatalf("program %d (wide=%v, %s, interpreter=%v, %d states):\n%s\n%s", k, wide, l, interp, states, names[k], msg)
				}
			}
		}
	}
	forceWide = false
}

// TestCUDATiledHighIndices: highIndexSources past 2^20 (the wide kernels,
// faults and pending writes at high indices) tiled, with the CPU's errors
// and winners.
func TestCUDATiledHighIndices(t *testing.T) {
	c := cudaEngine(t)
	for name, src := range highIndexSources(1<<20 + 3) {
		p := compileSrc(t, src)
		for _, l := range []Layout{LayoutA, LayoutC} {
			for _, interp := range []bool{false, true} {
				if msg := drawsOnGPUAgree(t, c, p, tileVariant(l), 5, 8, Options{Steps: 2}, interp); msg != "" {
					t.Errorf("%s/%s/interp=%v: %s", name, l, interp, msg)
				}
			}
		}
	}
}

// TestCUDATiledCancel: a long tiled run ends soon after its context does.
func TestCUDATiledCancel(t *testing.T) {
	c := cudaEngine(t)
	p := compileConfig(t, "life.rules", map[string]string{"W": "2048", "H": "2048"})
	ctx, cancel := context.WithCancel(context.Background())
	o := Options{Steps: 1 << 20, NoFiredPerStep: true, Progress: func(done, _ int64) {
		if done >= 4 {
			cancel()
		}
	}}
	_, err := c.Run(ctx, p, Generate(p, 1, 1), o)
	if err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestCUDATiledBigField: a field of 2^26 cells (Life on 8192x8192, past
// the old 2^24 words a state) runs on the GPU, tiled, equal to the CPU.
func TestCUDATiledBigField(t *testing.T) {
	c := cudaEngine(t)
	p := compileConfig(t, "life.rules", map[string]string{"W": "8192", "H": "8192"})
	if err := GPUSupports(p); err != nil {
		t.Fatal(err)
	}
	o := Options{Steps: 3}
	want, got := Generate(p, 1, 9), Generate(p, 1, 9)
	wantRes, wantErr := CPU{}.Run(context.Background(), p, want, o)
	gotRes, gotErr := c.Run(context.Background(), p, got, o)
	if msg := sameRun(p, want, got, wantRes, gotRes, wantErr, gotErr); msg != "" {
		t.Fatal(msg)
	}
	if !gotRes.Tiled {
		t.Error("not tiled")
	}
}
