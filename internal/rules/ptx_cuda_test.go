//go:build cuda

package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// requireGenerated fails the test unless kernel k generated for p compiles
// on dev: otherwise a run would quietly fall back to the interpreter and a
// comparison with it prove nothing.
func requireGenerated(t testing.TB, dev *gpu.Device, p *Program, k ptx.Kernel) {
	t.Helper()
	load := func() error { _, err := loadGenerated(dev, p, k); return err }
	if k.Sched == ptx.Tile {
		load = func() error { _, err := loadTileGenerated(dev, p, k.Layout, k.Wide); return err }
	}
	if err := load(); err != nil {
		t.Fatalf("%s: generated kernel %s does not load: %v", p.File, k.Name(), err)
	}
}

// genVariant is one kernel choice: schedule, warps a block (compact), layout.
type genVariant struct {
	sched  Schedule
	warps  int
	layout Layout
}

// kernel is the generated kernel the variant runs p on (wide where p's
// ranges need it or a test forces it).
func (v genVariant) kernel(p *Program) ptx.Kernel {
	return ptx.Kernel{Sched: v.sched, Layout: v.layout, Warps: v.warps, Wide: ptx.NeedsWide(p) || forceWide}
}
func (v genVariant) String() string { return fmt.Sprintf("%s%d/%s", v.sched, v.warps, v.layout) }

func allGenVariants() []genVariant {
	var vs []genVariant
	for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
		vs = append(vs, genVariant{Simple, 0, l}, genVariant{Compact, 32, l}, genVariant{Compact, ptx.CompactSmall, l})
	}
	return vs
}

// runVariant runs p on states generated from seed with the generated kernel
// (interp false) or the interpreter kernel of variant v.
func runVariant(c CUDA, p *Program, v genVariant, states int, seed uint64, o Options, interp bool) (*States, *Result, error) {
	st := Generate(p, states, seed)
	o.Schedule, o.Layout, o.Interpreter = v.sched, v.layout, interp
	compactWarps = v.warps
	// The variant names the path: the per-state kernels stay per state
	// whatever the sizes, and the tiled one runs tiled at any size.
	tileForce = -1
	if v.sched == ptx.Tile {
		o.Schedule, tileForce = "", 1
	}
	defer func() { compactWarps, tileForce = 0, 0 }()
	res, err := c.Run(context.Background(), p, st, o)
	return st, res, err
}

// genAgrees compares a generated kernel's run with the interpreter's: the
// error text, every int word bit for bit (float words too, any NaN equal to
// any NaN), fired counts, fixed points and traces.
func genAgrees(t *testing.T, c CUDA, p *Program, v genVariant, states int, seed uint64, o Options) string {
	t.Helper()
	requireGenerated(t, c.Dev, p, v.kernel(p))
	want, wantRes, wantErr := runVariant(c, p, v, states, seed, o, true)
	got, gotRes, gotErr := runVariant(c, p, v, states, seed, o, false)
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		return fmt.Sprintf("errors differ:\n got %v\nwant %v", gotErr, wantErr)
	}
	if wantErr != nil {
		return ""
	}
	if k := differ(p, want.Data, got.Data); k >= 0 {
		return fmt.Sprintf("state %d word %d: %#x, want %#x", k/p.Words, k%p.Words, got.Data[k], want.Data[k])
	}
	if fmt.Sprint(wantRes.Fired, wantRes.FiredTotal, wantRes.StableAt, wantRes.Steps, wantRes.FixpointReached) !=
		fmt.Sprint(gotRes.Fired, gotRes.FiredTotal, gotRes.StableAt, gotRes.Steps, gotRes.FixpointReached) {
		return fmt.Sprintf("results differ:\n got %v %v %d\nwant %v %v %d", gotRes.Fired, gotRes.StableAt, gotRes.Steps,
			wantRes.Fired, wantRes.StableAt, wantRes.Steps)
	}
	if len(wantRes.Trace) != len(gotRes.Trace) {
		return "traces differ in length"
	}
	for k, w := range wantRes.Trace {
		g := gotRes.Trace[k]
		if w.Step != g.Step || w.State != g.State || w.Fired != g.Fired || differ(p, w.Words, g.Words) >= 0 {
			return fmt.Sprintf("trace record %d differs", k)
		}
	}
	return ""
}

// TestCUDAGeneratedMatchesInterpreterConfigs: every shipped rule file (and
// the scattered-write case), every schedule, block shape and layout.
func TestCUDAGeneratedMatchesInterpreterConfigs(t *testing.T) {
	c := cudaEngine(t)
	for _, tc := range equivCases(t) {
		o := Options{Steps: tc.steps, UntilFixpoint: tc.fix, Trace: []int{0, tc.states - 1}}
		for _, v := range allGenVariants() {
			if msg := genAgrees(t, c, tc.p, v, tc.states, 11, o); msg != "" {
				t.Errorf("%s/%s: %s", tc.name, v, msg)
			}
		}
	}
}

// TestCUDAGeneratedMatchesInterpreterEdges: ptxEdgeSources on the GPU.
func TestCUDAGeneratedMatchesInterpreterEdges(t *testing.T) {
	c := cudaEngine(t)
	for _, src := range ptxEdgeSources() {
		p := compileSrc(t, src)
		for _, v := range allGenVariants() {
			if msg := genAgrees(t, c, p, v, 37, 2, Options{Steps: 4}); msg != "" {
				t.Errorf("%s\n%s: %s", src, v, msg)
			}
		}
	}
}

// TestCUDAGeneratedMatchesInterpreterRandom: 300 random programs (-short:
// 30), each under all three schedules (simple, compact with 32 and with 8
// states a block) in one layout, the layout taking turns. Programs that
// accumulate floats (+= on a float: the order of atomic additions is the
// hardware's) are left out.
func TestCUDAGeneratedMatchesInterpreterRandom(t *testing.T) {
	c := cudaEngine(t)
	n := 300
	if testing.Short() {
		n = 30
	}
	ps, srcs := ptxRandomPrograms(t, n, func(p *Program) bool { return !hasOpcode(p, bytecode.OpADDF) })
	seen, faults := 0, 0
	for k, p := range ps {
		seen++
		l := []Layout{LayoutA, LayoutB, LayoutC}[seen%3]
		o := Options{Steps: 1 + k%5, UntilFixpoint: k%2 == 0, Trace: []int{0}}
		states := 1 + (k*7)%40
		for _, v := range []genVariant{{Simple, 0, l}, {Compact, 32, l}, {Compact, ptx.CompactSmall, l}} {
			if msg := genAgrees(t, c, p, v, states, uint64(k), o); msg != "" {
				t.Fatalf("program %d, %s, %d states:\n%s\n%s", k, v, states, srcs[k], msg)
			}
		}
		if _, _, err := runVariant(c, p, genVariant{Simple, 0, l}, states, uint64(k), o, true); err != nil {
			faults++
		}
	}
	t.Logf("%d programs, %d ending in a runtime error", seen, faults)
}
