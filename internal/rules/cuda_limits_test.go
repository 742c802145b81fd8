//go:build cuda

package rules

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// kernelChoice is one of the 18 ways a run goes: generated or interpreter,
// schedule and block shape, layout.
type kernelChoice struct {
	v      genVariant
	interp bool
}

func (k kernelChoice) String() string { return fmt.Sprintf("%s/interp=%v", k.v, k.interp) }

func allKernelChoices() []kernelChoice {
	var ks []kernelChoice
	for _, v := range allGenVariants() {
		ks = append(ks, kernelChoice{v, false}, kernelChoice{v, true})
	}
	return ks
}

// A 1024x1024 Life board (2^20 indices: the wide kernels) runs 20 steps on
// every kernel, generated and interpreter, equal to the CPU byte for byte:
// the boards, the firings of every step and the trace (with its int64
// last-step firings).
func TestCUDALife1024MatchesCPU(t *testing.T) {
	c := cudaEngine(t)
	p := compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"})
	if !ptx.NeedsWide(p) {
		t.Fatal("a 1024x1024 board does not need the wide kernels")
	}
	const states, steps = 2, 20
	o := Options{Steps: steps, Trace: []int{states - 1}}
	ref := Generate(p, states, 4)
	want, err := CPU{}.Run(context.Background(), p, ref, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range allKernelChoices() {
		if !k.interp {
			requireGenerated(t, c.Dev, p, k.v.kernel(p))
		}
		st, got, err := runVariant(c, p, k.v, states, 4, o, k.interp)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if w := differ(p, ref.Data, st.Data); w >= 0 {
			t.Fatalf("%s: state %d cell %d: %d, want %d", k, w/p.Words, w%p.Words, st.Data[w], ref.Data[w])
		}
		if fmt.Sprint(got.Fired, got.StableAt) != fmt.Sprint(want.Fired, want.StableAt) {
			t.Errorf("%s: fired %v stable %v, want %v %v", k, got.Fired, got.StableAt, want.Fired, want.StableAt)
		}
		if len(got.Trace) != len(want.Trace) {
			t.Errorf("%s: %d trace records, want %d", k, len(got.Trace), len(want.Trace))
		} else {
			for r, w := range want.Trace {
				if g := got.Trace[r]; g.Step != w.Step || g.State != w.State || g.Fired != w.Fired || differ(p, w.Words, g.Words) >= 0 {
					t.Errorf("%s: trace record %d (step %d) differs: fired %d, want %d", k, r, w.Step, g.Fired, w.Fired)
					break
				}
			}
		}
		if got.Kernel != map[bool]string{false: "generated", true: "interpreter"}[k.interp] {
			t.Errorf("%s: ran the %s kernel", k, got.Kernel)
		}
	}
}

// highIndexSources: faults (index out of range with a negative index,
// division by zero) and pending writes at indices just past n, where the
// state decides the faulting index.
func highIndexSources(n int) map[string]string {
	return map[string]string{
		"range": fmt.Sprintf("state { int a[5]  int k ~ uniform(0, 20) }\nrule r over i in 0..%d when i >= %d + k { a[i - %d - 30] = i }", n+40, n, n),
		"div":   fmt.Sprintf("state { int s  int k ~ uniform(0, 20) }\nrule r over i in 0..%d when i >= %d { s += 1000 / (i - %d - k) }", n+40, n, n),
		"pending": fmt.Sprintf("state { int a[3]  int b[3]  int k ~ uniform(0, 9) }\nrule r over i in 0..%d when i >= %d - k {\n  a[i %% 3] = i + 5\n  b[(i * 7) %% 3] = -i\n  a[i %% 3] = i\n}",
			n+40, n),
	}
}

// Faults past 2^19, 2^24 and 2^27 give the CPU's error text (rule, state,
// index, source position, value) on every kernel, and pending writes from
// such indices leave the CPU's winners. -short: 2^19 on every kernel, 2^24
// on the simple schedule's (the compact ones walk a state's range with one
// warp, 32 indices a round).
func TestCUDAHighIndicesMatchCPU(t *testing.T) {
	c := cudaEngine(t)
	sizes := []int{1<<19 + 1, 1<<24 + 3, 1<<27 + 5}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		for name, src := range highIndexSources(n) {
			p := compileSrc(t, src)
			const states = 5
			want := Generate(p, states, 8)
			wantRes, wantErr := CPU{}.Run(context.Background(), p, want, Options{Steps: 2})
			if name != "pending" && wantErr == nil {
				t.Fatalf("%s at %d: no CPU error", name, n)
			}
			for _, k := range allKernelChoices() {
				if testing.Short() && n > 1<<20 && k.v.sched != Simple {
					continue
				}
				if !k.interp {
					requireGenerated(t, c.Dev, p, k.v.kernel(p))
				}
				st, got, err := runVariant(c, p, k.v, states, 8, Options{Steps: 2}, k.interp)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s at %d, %s:\n got %v\nwant %v", name, n, k, err, wantErr)
					continue
				}
				if wantErr != nil {
					continue
				}
				if w := differ(p, want.Data, st.Data); w >= 0 {
					t.Errorf("%s at %d, %s: state %d word %d: %d, want %d", name, n, k, w/p.Words, w%p.Words,
						int32(st.Data[w]), int32(want.Data[w]))
				}
				if fmt.Sprint(got.Fired) != fmt.Sprint(wantRes.Fired) {
					t.Errorf("%s at %d, %s: fired %v, want %v", name, n, k, got.Fired, wantRes.Fired)
				}
			}
		}
	}
}

// Rules over 2^31 indices, all of them (0..2^31: the end wraps in int32),
// on the simple schedule's kernels (the compact ones take a warp per state
// through 2^26 chunks: minutes); not in -short. A state's step fires
// 3579139413 times (past int32: last_fired is an int64), the rule's
// firings over three states pass 2^32, and the highest index's pending
// write wins.
func TestCUDAFullRange(t *testing.T) {
	if testing.Short() {
		t.Skip("2^32 evaluations a kernel")
	}
	c := cudaEngine(t)
	p := compileSrc(t, `state { int k  int top }
rule r over i in 0..2147483648 when i % 3 != 1 { if i >= 2147483600 { top = max(top, i) } }
rule s over i in 0..2147483648 { if i >= 2147483640 { k += 1 } }`)
	const states, fr = 3, 1431655765 // i % 3 != 1 for 1431655765 of the 2^31 indices
	for _, k := range allKernelChoices() {
		if k.v.sched != Simple {
			continue
		}
		st, got, err := runVariant(c, p, k.v, states, 1, Options{Steps: 1, Trace: []int{0}}, k.interp)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		for s := range states {
			if k, top := field(p, st, s, "k")[0], field(p, st, s, "top")[0]; k != 8 || top != 2147483646 {
				t.Errorf("state %d: k %d top %d, want 8 2147483646", s, k, top)
			}
		}
		if fmt.Sprint(got.Fired) != fmt.Sprint([][]int64{{states * fr, states << 31}}) ||
			len(got.Trace) != 2 || got.Trace[1].Fired != fr+1<<31 {
			t.Errorf("%s: fired %v, trace %v", k, got.Fired, got.Trace)
		}
	}
}

// A run whose buffers do not fit the device is refused before anything is
// allocated, with a message that says so (not a CUDA out-of-memory error).
func TestCUDAChecksDeviceMemory(t *testing.T) {
	c := cudaEngine(t)
	var src strings.Builder
	src.WriteString("state { int a }\n")
	for r := range 200 {
		fmt.Fprintf(&src, "rule r%d over i in 0..1 { a += 1 }\n", r)
	}
	p := compileSrc(t, src.String())
	// 200 rules' firing counts for 2^30 steps: 1.6 TB.
	_, err := c.Run(context.Background(), p, Generate(p, 1, 1), Options{Steps: 1 << 30})
	if err == nil || !strings.Contains(err.Error(), "device memory") {
		t.Fatalf("got %v", err)
	}
	if !errors.Is(err, input.ErrUsage) {
		t.Errorf("%v: not a usage error (exit code 2)", err)
	}
	if need := gpuMemory(p, 1, 1<<30); need < 1<<40 {
		t.Errorf("estimate %d bytes", need)
	}
}

// The wide kernels, forced on the small programs of the other GPU tests,
// agree with the CPU and with each other as the narrow ones do.
func TestCUDAWideKernels(t *testing.T) {
	cudaEngine(t)
	forceWide = true
	defer func() { forceWide = false }()
	t.Run("MatchesCPU", TestCUDAMatchesCPU)
	t.Run("RuntimeErrors", TestCUDARuntimeErrors)
	t.Run("GeneratedConfigs", TestCUDAGeneratedMatchesInterpreterConfigs)
	t.Run("GeneratedEdges", TestCUDAGeneratedMatchesInterpreterEdges)
	t.Run("GeneratedRandom", TestCUDAGeneratedMatchesInterpreterRandom)
	t.Run("Draws", TestCUDADrawsMatchCPU)
}
