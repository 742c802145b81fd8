//go:build cuda

package lifepack

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/gpu/gputest"
	"github.com/procgen-dev/procgen/internal/gpu/kerneltest"
	"github.com/procgen-dev/procgen/internal/rules"
)

// TestKernelSignatures checks stepKernel against cuda/rules_packed.cu (no
// GPU needed).
func TestKernelSignatures(t *testing.T) {
	kerneltest.Check(t, "internal/rules/lifepack", []gpu.KernelDecl{stepKernel, lifeKernel, lifeTorus128, lifePlane128, ruleTorus128, rulePlane128, popKernel}, nil)
}

// runBoth runs p on n states generated with seed, with o, on the CPU and
// on the packed engine, which must take the run: the CPU's result and the
// packed one's. Final boards that differ are an error.
func runBoth(t *testing.T, dev *gpu.Device, p *rules.Program, rule Rule, b Board, n int, seed uint64, o rules.Options) (want, got *rules.Result) {
	t.Helper()
	st := rules.Generate(p, n, seed)
	gst := &rules.States{N: st.N, Words: st.Words, Data: slices.Clone(st.Data)}
	want, err := rules.CPU{}.Run(context.Background(), p, st, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err = NewEngine(dev, rule, b, rules.CPU{}).Run(context.Background(), p, gst, o)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kernel != "packed" {
		t.Fatalf("kernel %q (%s), want packed", got.Kernel, got.KernelNote)
	}
	if !slices.Equal(gst.Data, st.Data) {
		t.Error("final boards differ")
	}
	return want, got
}

// TestCUDAPackedMatchesCPU: the packed engine gives the rules engine's CPU
// results for every twin case, many small states at once (warps that span
// states), boards of several thousand words a row, and --until-fixpoint.
func TestCUDAPackedMatchesCPU(t *testing.T) {
	dev := gputest.Device(t, nil)
	type run struct {
		c         testCase
		n, steps  int
		fixpoint  bool
		noPerStep bool
	}
	var runs []run
	for _, c := range twinCases {
		runs = append(runs, run{c: c, n: 3, steps: 40})
	}
	runs = append(runs,
		run{c: testCase{"B3/S23:T", 16, 16}, n: 700, steps: 60},
		run{c: testCase{"B36/S23:P", 7, 5}, n: 300, steps: 9},
		run{c: testCase{"B3/S23:T", 1000, 700}, n: 2, steps: 30, noPerStep: true},
		run{c: testCase{"B3/S23:P", 4100, 37}, n: 1, steps: 300},
		run{c: testCase{"B3/S23:P", 48, 48}, n: 40, steps: 2000, fixpoint: true},
		run{c: testCase{"B3/S1234:P", 30, 20}, n: 5, steps: 500, fixpoint: true},
		// Life's kernel for rows of whole 128-cell segments: one lane a
		// row, a segment whose first lane holds the row's last word,
		// heights that are not a multiple of the strip or of the three
		// rows its loop is unrolled by, strips that span states.
		run{c: testCase{"B3/S23:T", 128, 77}, n: 3, steps: 50},
		run{c: testCase{"B3/S23:P", 128, 77}, n: 3, steps: 50},
		run{c: testCase{"B3/S23:T", 4224, 50}, n: 2, steps: 40},
		run{c: testCase{"B3/S23:P", 4224, 50}, n: 2, steps: 40},
		run{c: testCase{"B3/S23:T", 128, 5}, n: 301, steps: 30},
		run{c: testCase{"B3/S23:P", 256, 34}, n: 40, steps: 2000, fixpoint: true},
		// and the other rules' kernel on such boards
		run{c: testCase{"B36/S23:T", 128, 77}, n: 3, steps: 50},
		run{c: testCase{"B2/S:P", 4224, 50}, n: 2, steps: 40},
		run{c: testCase{"B3678/S34678:T", 4224, 50}, n: 2, steps: 40},
		run{c: testCase{"B1/S1:T", 256, 5}, n: 301, steps: 30},
		run{c: testCase{"B12345678/S08:P", 128, 40}, n: 5, steps: 60},
		run{c: testCase{"B3/S012345678:P", 384, 34}, n: 40, steps: 2000, fixpoint: true},
	)
	for _, r := range runs {
		t.Run(fmt.Sprintf("%s%d,%d_n%d_t%d", r.c.notation, r.c.w, r.c.h, r.n, r.steps), func(t *testing.T) {
			p, rule, b := program(t, r.c)
			o := rules.Options{Steps: r.steps, UntilFixpoint: r.fixpoint, NoFiredPerStep: r.noPerStep}
			want, got := runBoth(t, dev, p, rule, b, r.n, 11, o)
			if got.Steps != want.Steps || got.FixpointReached != want.FixpointReached {
				t.Errorf("steps %d, fixpoint %v; want %d, %v", got.Steps, got.FixpointReached, want.Steps, want.FixpointReached)
			}
			if !slices.Equal(got.StableAt, want.StableAt) {
				t.Errorf("StableAt %v, want %v", got.StableAt[:min(8, len(got.StableAt))], want.StableAt[:min(8, len(want.StableAt))])
			}
			if !slices.Equal(got.FiredTotal, want.FiredTotal) || len(got.Fired) != len(want.Fired) {
				t.Fatalf("fired %v over %d steps, want %v over %d", got.FiredTotal, len(got.Fired), want.FiredTotal, len(want.Fired))
			}
			for s := range want.Fired {
				if !slices.Equal(got.Fired[s], want.Fired[s]) {
					t.Fatalf("step %d: fired %v, want %v", s+1, got.Fired[s], want.Fired[s])
				}
			}
		})
	}
}

// TestKernelChoice: on rows of whole 128-cell segments Life and the other
// rules take the 9-cell kernels of their topology, on other widths Life's
// own kernel and the any-rule kernel (no GPU needed).
func TestKernelChoice(t *testing.T) {
	for _, c := range []struct {
		rule Rule
		w    int
		want string
	}{
		{Rule{Birth: Life.Birth, Survive: Life.Survive, Torus: true}, 16384, "pg_life_b3s23_w128_torus"},
		{Rule{Birth: Life.Birth, Survive: Life.Survive}, 128, "pg_life_b3s23_w128_plane"},
		{Rule{Birth: Life.Birth, Survive: Life.Survive, Torus: true}, 16352, "pg_life_step_b3s23"},
		{Rule{Birth: Life.Birth, Survive: Life.Survive}, 100, "pg_life_step_b3s23"},
		{Rule{Birth: 1<<3 | 1<<6, Survive: Life.Survive, Torus: true}, 16384, "pg_life_w128_torus"},
		{Rule{Birth: 1 << 2}, 4224, "pg_life_w128_plane"},
		{Rule{Birth: 1<<3 | 1<<6, Survive: Life.Survive, Torus: true}, 16352, "pg_life_step"},
	} {
		e := Engine{Rule: c.rule, Board: Board{W: c.w, H: 8}}
		if got := e.kernel().Name; got != c.want {
			t.Errorf("%+v on width %d: kernel %s, want %s", c.rule, c.w, got, c.want)
		}
	}
}

// TestCUDAPackedRecordMatchesCPU: --record on the packed kernel (live cells
// counted on the device) gives the rules engine's rows, bit for bit, for
// every reduction, with and without --until-fixpoint (rows held after the
// states stop), over several states and a board wider than a warp's row.
func TestCUDAPackedRecordMatchesCPU(t *testing.T) {
	dev := gputest.Device(t, nil)
	for _, r := range []struct {
		c        testCase
		n, steps int
		fixpoint bool
	}{
		{testCase{"B3/S23:T", 40, 30}, 3, 50, false},
		{testCase{"B36/S23:P", 4100, 9}, 2, 20, false},
		{testCase{"B3/S23:P", 48, 48}, 20, 700, true},
		{testCase{"B3/S23:P", 48, 48}, 20, 700, false},
		{testCase{"B3/S1234:T", 30, 20}, 4, 0, false},
	} {
		t.Run(fmt.Sprintf("%s%d,%d_n%d_t%d_%v", r.c.notation, r.c.w, r.c.h, r.n, r.steps, r.fixpoint), func(t *testing.T) {
			p, rule, b := program(t, r.c)
			var obs []rules.Observable
			for _, text := range []string{"sum(c)", "count(c == 0)", "mean(c)", "min(c)", "max(c > 0)"} {
				ob, err := rules.ParseObservable(p, text)
				if err != nil {
					t.Fatal(err)
				}
				obs = append(obs, ob)
			}
			o := rules.Options{Steps: r.steps, UntilFixpoint: r.fixpoint, Record: obs}
			want, got := runBoth(t, dev, p, rule, b, r.n, 3, o)
			if got.Steps != want.Steps || len(got.Records) != len(want.Records) {
				t.Fatalf("%d steps, %d rows; want %d, %d", got.Steps, len(got.Records), want.Steps, len(want.Records))
			}
			for s := range want.Records {
				if !slices.Equal(got.Records[s], want.Records[s]) {
					t.Fatalf("step %d: %+v, want %+v", s, got.Records[s], want.Records[s])
				}
			}
		})
	}
}

// TestCUDAPackedFallsBack: a board the packed rule cannot hold (a cell of
// 2) runs on the engine wrapped, which says why.
func TestCUDAPackedFallsBack(t *testing.T) {
	dev := gputest.Device(t, nil)
	p, rule, b := program(t, testCase{"B3/S23:T", 20, 20})
	st := rules.Generate(p, 2, 5)
	st.Data[b.Off+3] = 2
	want := &rules.States{N: st.N, Words: st.Words, Data: slices.Clone(st.Data)}
	o := rules.Options{Steps: 10}
	wres, err := rules.CPU{}.Run(context.Background(), p, want, o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := NewEngine(dev, rule, b, rules.CPU{}).Run(context.Background(), p, st, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Kernel == "packed" || res.KernelNote != "not bit-packed: a cell holds a value other than 0 or 1" {
		t.Errorf("kernel %q, note %q", res.Kernel, res.KernelNote)
	}
	if !slices.Equal(st.Data, want.Data) || !slices.Equal(res.FiredTotal, wres.FiredTotal) {
		t.Error("the fallback's results differ from the CPU's")
	}
}

// BenchmarkCUDAPackedLife16384 steps Life and BenchmarkCUDAPackedHighLife16384
// B36/S23 (the 9-cell kernels of whole 128-cell rows) on one random 16384 x 16384 torus, 100 steps an iteration, on the
// device alone (the packed board uploaded once): ms a step and the
// stencil's traffic, each step reading and writing the 32 MiB board once.
// BenchmarkCUDAPackedLife16352 and BenchmarkCUDAPackedHighLife16352 are the
// kernels for other widths, on a board 32 cells narrower.
func BenchmarkCUDAPackedLife16384(b *testing.B) { benchPacked(b, Life, 16384) }

func BenchmarkCUDAPackedLife16352(b *testing.B) { benchPacked(b, Life, 16352) }

func BenchmarkCUDAPackedHighLife16384(b *testing.B) {
	benchPacked(b, Rule{Birth: 1<<3 | 1<<6, Survive: 1<<2 | 1<<3}, 16384)
}

func BenchmarkCUDAPackedHighLife16352(b *testing.B) {
	benchPacked(b, Rule{Birth: 1<<3 | 1<<6, Survive: 1<<2 | 1<<3}, 16352)
}

func benchPacked(b *testing.B, rule Rule, width int) {
	dev := gputest.Device(b, nil)
	const side, steps = 16384, 100
	board := Board{W: width, H: side}
	packed := make([]uint32, board.PackedLen(1))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range packed {
		if i%board.Stride() < board.Words() { // the padding words stay 0
			packed[i] = rng.Uint32()
		}
	}
	rule.Torus = true
	e := Engine{Dev: dev, Rule: rule, Board: board}
	s, err := e.newStepper(packed, 1, steps)
	if err != nil {
		b.Fatal(err)
	}
	defer s.free()
	if err := s.advance(steps); err != nil { // load and warm up
		b.Fatal(err)
	}
	var kernel time.Duration
	b.ResetTimer()
	for range b.N {
		d, err := dev.Time(func() error { return s.advance(steps) })
		if err != nil {
			b.Fatal(err)
		}
		kernel += d
	}
	perStep := kernel.Seconds() / float64(b.N*steps)
	b.ReportMetric(perStep*1e3, "ms/step")
	b.ReportMetric(2*4*float64(len(packed))/perStep/1e9, "GB/s")
}
