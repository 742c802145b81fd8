//go:build cuda

package rules

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

func cudaEngine(t testing.TB) CUDA {
	t.Helper()
	return CUDA{Dev: gputest.Device(t, nil)}
}

type equivCase struct {
	name    string
	p       *Program
	states  int
	steps   int
	fix     bool
	floatOK bool // float accumulation: compared with a tolerance
}

func equivCases(t *testing.T) []equivCase {
	return []equivCase{
		{name: "eca30", p: compileConfig(t, "eca.rules", map[string]string{"RULE": "30", "N": "100"}), states: 77, steps: 40},
		{name: "life", p: compileConfig(t, "life.rules", map[string]string{"W": "13", "H": "11"}), states: 70, steps: 300, fix: true},
		{name: "sandpile", p: compileConfig(t, "sandpile.rules", map[string]string{"W": "9", "H": "7"}), states: 33, steps: 5000, fix: true},
		{name: "synthetic", p: compileConfig(t, "synthetic.rules", map[string]string{"RANGE": "100", "LOAD": "7", "PHI": "3"}), states: 65, steps: 2},
		{name: "pending", p: compileSrc(t, `state { int a[7]  int s  int b[40] ~ uniform(-3, 50)  float f  int cnt }
rule scatter over i in 0..40 when b[i] % 3 != 0 {
  a[b[i] % 7] = i * 10 + b[i]
  s = b[i]
  cnt += 1
  f += 0.25
}
rule fold over i in 3..9 let j = i % 7 when a[j] > 0 {
  if a[j] > 100 { a[j] = a[j] / 2 } else { a[j] = -a[j] }
  b[(i * 5) % 40] = max(a[j], b[i])
}`), states: 100, steps: 30, fix: true, floatOK: true},
	}
}

// TestCUDAMatchesCPU runs every schedule and layout, with the kernels
// generated for the rule set and with the interpreter kernels, against the
// CPU reference on state counts that are not multiples of the block sizes:
// int32 state bit for bit, and float state too where no float is
// accumulated with +=.
func TestCUDAMatchesCPU(t *testing.T) {
	c := cudaEngine(t)
	for _, tc := range equivCases(t) {
		ref := Generate(tc.p, tc.states, 11)
		o := Options{Steps: tc.steps, UntilFixpoint: tc.fix, Trace: []int{0, tc.states - 1}}
		want, err := CPU{}.Run(context.Background(), tc.p, ref, o)
		if err != nil {
			t.Fatalf("%s: cpu: %v", tc.name, err)
		}
		for _, v := range []struct {
			sched Schedule
			warps int
		}{{Simple, 0}, {Compact, 32}, {Compact, ptx.CompactSmall}} {
			sched := v.sched
			for _, vl := range []struct {
				l      Layout
				interp bool
			}{{LayoutA, false}, {LayoutB, false}, {LayoutC, false}, {LayoutA, true}, {LayoutB, true}, {LayoutC, true}} {
				l := vl.l
				name := fmt.Sprintf("%s/%s%d/%s/interp=%v", tc.name, sched, v.warps, l, vl.interp)
				if !vl.interp {
					requireGenerated(t, c.Dev, tc.p, ptx.Kernel{Sched: sched, Layout: l, Warps: v.warps, Wide: ptx.NeedsWide(tc.p) || forceWide})
				}
				st := Generate(tc.p, tc.states, 11)
				o.Schedule, o.Layout, o.Interpreter = sched, l, vl.interp
				compactWarps = v.warps
				got, err := c.Run(context.Background(), tc.p, st, o)
				compactWarps = 0
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				compareStates(t, name, tc.p, ref, st, tc.floatOK)
				if fmt.Sprint(got.Fired) != fmt.Sprint(want.Fired) || fmt.Sprint(got.StableAt) != fmt.Sprint(want.StableAt) ||
					got.Steps != want.Steps || got.FixpointReached != want.FixpointReached {
					t.Errorf("%s: stats differ:\n got steps %d %v %v\nwant steps %d %v %v", name, got.Steps, got.Fired, got.StableAt,
						want.Steps, want.Fired, want.StableAt)
				}
				if len(got.Trace) != len(want.Trace) {
					t.Errorf("%s: %d trace records, want %d", name, len(got.Trace), len(want.Trace))
				} else if !tc.floatOK {
					for k := range got.Trace {
						if fmt.Sprint(got.Trace[k]) != fmt.Sprint(want.Trace[k]) {
							t.Errorf("%s: trace record %d: %v, want %v", name, k, got.Trace[k], want.Trace[k])
							break
						}
					}
				}
			}
		}
	}
}

func compareStates(t *testing.T, name string, p *Program, want, got *States, floatOK bool) {
	t.Helper()
	for s := range want.N {
		for _, f := range p.Fields {
			for k := range f.Size {
				a, b := want.State(s)[f.Off+k], got.State(s)[f.Off+k]
				if a == b {
					continue
				}
				if f.Type == Float && floatOK && math.Abs(float64(bytecode.F32(a)-bytecode.F32(b))) <= 1e-5*math.Abs(float64(bytecode.F32(a))) {
					continue
				}
				t.Fatalf("%s: state %d %s[%d]: %s, want %s", name, s, f.Name, k, FormatValue(&f, b), FormatValue(&f, a))
			}
		}
	}
}

// TestCUDARuntimeErrors: the GPU reports the fault the CPU reports, with
// generated and with interpreter kernels.
func TestCUDARuntimeErrors(t *testing.T) {
	c := cudaEngine(t)
	for _, src := range []string{`state { int a[10] }
rule bad over i in 0..10 when i >= 2 {
  a[i + 1] = 1
}`, `state { int a[4] }
rule bad over i in 0..4 {
  a[i] = 10 / (i - 2)
}`, `state { int a[4]  int k ~ uniform(0, 2) }
rule grow over i in 0..1 { k += 1 }
rule bad over i in 0..4 when a[k] == 0 { a[i] = 0 }`, `state { int a[50] }
rule many over i in 0..3 { repeat 300 { a[(i * 7) % 50] = i } }`} {
		p := compileSrc(t, src)
		_, want := CPU{}.Run(context.Background(), p, Generate(p, 70, 5), Options{Steps: 5})
		if want == nil {
			t.Fatalf("no CPU error for %s", src)
		}
		for _, v := range allGenVariants() {
			requireGenerated(t, c.Dev, p, v.kernel(p))
		}
		for _, sched := range []Schedule{Simple, Compact} {
			for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
				for _, interp := range []bool{false, true} {
					o := Options{Steps: 5, Schedule: sched, Layout: l, Interpreter: interp}
					_, err := c.Run(context.Background(), p, Generate(p, 70, 5), o)
					if err == nil || err.Error() != want.Error() {
						t.Errorf("%s/%s/interp=%v: got %v\nwant %v", sched, l, interp, err, want)
					}
				}
			}
		}
	}
}
