package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
	"github.com/procgen-dev/procgen/internal/rules/ptx/ptxtest"
)

// emuRun runs kernel k generated for p on st in the PTX emulator
// (rules/ptx/ptxtest), launching steps as CUDA.Run does, and returns what
// CUDA.Run would report.
func emuRun(p *Program, st *States, k ptx.Kernel, o Options) (stable []int32, fired [][]int64, runErr, err error) {
	steps := o.Steps
	src, err := ptx.Generate(p, k)
	if err != nil {
		return nil, nil, nil, err
	}
	kern, err := ptxtest.Parse(src, k.Name())
	if err != nil {
		return nil, nil, nil, err
	}
	n, wp, nr := st.N, ptx.PadWords(p.Words), len(p.Rules)
	words := []int{n * wp, n * wp, 2 * n * wp, n, n, n, 2 * n, 2 * max(steps, 1) * nr, n} // ptxParams
	firedAt, lastAt := 7, 8
	if k.Wide { // err_pc after err_key; last_fired an int64 a state
		words = []int{n * wp, n * wp, 2 * n * wp, n, n, n, 2 * n, 2 * n, 2 * max(steps, 1) * nr, 2 * n}
		firedAt, lastAt = 8, 9
	}
	_ = lastAt
	mem := &ptxtest.Memory{}
	args := make([]uint64, 0, len(words)+3)
	for i, w := range words {
		mem.Bufs = append(mem.Bufs, make([]uint32, w))
		args = append(args, ptxtest.BufferAddr(i))
	}
	copy(mem.Bufs[0], toLayout(st, k.Layout))
	for i := range mem.Bufs[6] {
		mem.Bufs[6][i] = ^uint32(0) // err_key
		if k.Wide {
			mem.Bufs[7][i] = ^uint32(0) // err_pc
		}
	}
	grid := n
	if k.Sched == Compact {
		grid = (n + k.Warps - 1) / k.Warps
	}
	// Launches of 1, 2, 4 ... steps, as CUDA.Run makes them: step0 and the
	// fired counters' offset change between launches.
	for done, batch := 0, 1; done < steps; done, batch = done+batch, 2*batch {
		batch = min(batch, steps-done)
		a := append(append([]uint64(nil), args...), uint64(n), uint64(done), uint64(batch))
		if p.Draws {
			a = append(a, o.Seed, uint64(o.FirstState), uint64(o.FirstStep))
		}
		a[firedAt] += uint64(8 * done * nr)
		if err := kern.Run(mem, grid, k.Threads(), a); err != nil {
			return nil, nil, nil, err
		}
	}
	fromLayout(st, k.Layout, mem.Bufs[0])
	stable = make([]int32, n)
	errs := make([]stateError, n)
	for s := range n {
		stable[s] = int32(mem.Bufs[3][s])
		if f := int32(mem.Bufs[4][s]); f != 0 {
			key := uint64(mem.Bufs[6][2*s]) | uint64(mem.Bufs[6][2*s+1])<<32
			var at uint64
			if k.Wide {
				at = uint64(mem.Bufs[7][2*s]) | uint64(mem.Bufs[7][2*s+1])<<32
			}
			rule := int(mem.Bufs[5][s])
			rel, fl, err := decodeFault(k.Wide, key, at)
			if err != nil {
				return nil, nil, nil, err
			}
			errs[s] = stateError{ok: true, step: int(f), rule: rule, index: rel + p.Rules[rule].Lo, f: fl}
		}
	}
	fired = make([][]int64, steps)
	for t := range fired {
		fired[t] = make([]int64, nr)
		for r := range nr {
			j := 2 * (t*nr + r)
			fired[t][r] = int64(uint64(mem.Bufs[firedAt][j]) | uint64(mem.Bufs[firedAt][j+1])<<32)
		}
	}
	return stable, fired, firstError(p, errs), nil
}

// emuAgrees compares kernel k in the emulator with the CPU interpreter.
func emuAgrees(p *Program, k ptx.Kernel, states, steps int, seed uint64) string {
	return emuAgreesOpts(p, k, states, seed, Options{Steps: steps})
}

// emuAgreesOpts is emuAgrees with the run's options (draws: Seed and
// FirstState).
func emuAgreesOpts(p *Program, k ptx.Kernel, states int, seed uint64, o Options) string {
	want, got := Generate(p, states, seed), Generate(p, states, seed)
	res, wantErr := CPU{Path: PathInterpret}.Run(context.Background(), p, want, o)
	stable, fired, gotErr, err := emuRun(p, got, k, o)
	if err != nil {
		return "emulator: " + err.Error()
	}
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		return fmt.Sprintf("errors differ:\n got %v\nwant %v", gotErr, wantErr)
	}
	if wantErr != nil {
		return ""
	}
	if w := differ(p, want.Data, got.Data); w >= 0 {
		return fmt.Sprintf("state %d word %d: %#x, want %#x", w/p.Words, w%p.Words, got.Data[w], want.Data[w])
	}
	if fmt.Sprint(stable, fired) != fmt.Sprint(res.StableAt, res.Fired) {
		return fmt.Sprintf("results differ:\n got %v %v\nwant %v %v", stable, fired, res.StableAt, res.Fired)
	}
	return ""
}

// emuCase is a program run in the PTX emulator on states states for steps
// steps.
type emuCase struct {
	name          string
	p             *Program
	states, steps int
}

// shippedEmuCases are the shipped rule files at emulator sizes.
func shippedEmuCases(t *testing.T) []emuCase {
	return []emuCase{
		{"eca30", compileConfig(t, "eca.rules", map[string]string{"RULE": "30", "N": "40"}), 5, 6},
		{"life", compileConfig(t, "life.rules", map[string]string{"W": "7", "H": "6"}), 3, 8},
		{"sandpile", compileConfig(t, "sandpile.rules", map[string]string{"W": "5", "H": "4"}), 3, 30},
		{"synthetic", compileConfig(t, "synthetic.rules", map[string]string{"RANGE": "70", "LOAD": "3", "PHI": "3"}), 9, 2},
	}
}

// TestPTXEmulatedMatchesCPU runs the generated kernels of the shipped rule
// files in the PTX emulator, every schedule, block shape and layout, and
// compares them with the CPU interpreter: the kernels' logic (firing
// order, snapshots, pending writes, compaction, faults, fixed points) is
// checked here without a GPU; the GPU tests check the hardware agrees.
func TestPTXEmulatedMatchesCPU(t *testing.T) {
	cases := append(shippedEmuCases(t), []emuCase{
		{"pending", compileSrc(t, `state { int a[7]  int s  int b[40] ~ uniform(-3, 50)  int cnt }
rule scatter over i in 0..40 when b[i] % 3 != 0 {
  a[b[i] % 7] = i * 10 + b[i]
  s = b[i]
  cnt += 1
}
rule fold over i in 3..9 let j = i % 7 when a[j] > 0 {
  if a[j] > 100 { a[j] = a[j] / 2 } else { a[j] = -a[j] }
  b[(i * 5) % 40] = max(a[j], b[i])
}`), 4, 6},
		{"fault", compileSrc(t, `state { int a[10] }
rule bad over i in 0..10 when i >= 2 {
  a[i + 1] = 1
}`), 3, 2},
	}...)
	for _, tc := range cases {
		for _, k := range allPTXKernels() {
			if msg := emuAgrees(tc.p, k, tc.states, tc.steps, 3); msg != "" {
				t.Errorf("%s/%s: %s", tc.name, k.Name(), msg)
			}
		}
	}
}

// TestPTXEmulatedMatchesCPURandom: random programs (closure_test.go's
// generator) in the emulator, each in all three schedules and one layout.
func TestPTXEmulatedMatchesCPURandom(t *testing.T) { emulateRandomPrograms(t, 100, 15, false) }

// emulateRandomPrograms runs n random programs (short under -short) in the
// emulator, each in all three schedules of the narrow or the wide kernels
// and one layout, against the CPU.
func emulateRandomPrograms(t *testing.T, n, short int, wide bool) {
	if testing.Short() {
		n = short
	}
	kind := ""
	if wide {
		kind = " wide"
	}
	ps, srcs := ptxRandomPrograms(t, n, func(p *Program) bool { return !hasOpcode(p, bytecode.OpADDF) })
	for k, p := range ps {
		l := []Layout{LayoutA, LayoutB, LayoutC}[k%3]
		for _, kern := range ptxKernels(l, wide) {
			if msg := emuAgrees(p, kern, 1+k%3, 1+k%4, uint64(k)); msg != "" {
				t.Fatalf("program %d, %s%s:\n%s\n%s", k, kern.Name(), kind, srcs[k], msg)
			}
		}
	}
}

func hasOpcode(p *Program, want int) bool {
	for pc := 0; pc < len(p.Code); pc++ {
		op, _, _, _ := bytecode.Decode(p.Code[pc])
		if op == want {
			return true
		}
		if bytecode.HasImm(op) {
			pc++
		}
	}
	return false
}

// ptxEdgeSources: an empty range, a range below zero, division faults, too
// many scattered writes, a range longer than a block's threads.
func ptxEdgeSources() []string {
	return []string{
		"state { int a[4] }\nrule r over i in 0..0 { a[i] = 1 }\nrule s over i in 0..4 when a[i] < 3 { a[i] += 1 }",
		"state { int a[4] }\nrule r over i in -3..2 when i + 3 < 4 { a[i + 3] = i }",
		"state { int a[40] ~ uniform(-100, 100) }\nrule r over i in 0..40 { a[i] = a[i] % (i - 20) + a[(i+1)%40] / (i - 21) }",
		"state { int a[300] }\nrule r over i in 0..2 { repeat 300 { a[(i * 7) % 300] = i } }",
		"state { int a[10] ~ uniform(0, 9)  int k }\nrule r over i in 0..1000 when a[i % 10] > 3 { k += 1 }",
	}
}

// TestPTXEmulatedEdgeCases runs ptxEdgeSources in the emulator.
func TestPTXEmulatedEdgeCases(t *testing.T) {
	for _, src := range ptxEdgeSources() {
		p := compileSrc(t, src)
		for _, k := range allPTXKernels() {
			if msg := emuAgrees(p, k, 3, 4, 2); msg != "" {
				t.Errorf("%s\n%s: %s", src, k.Name(), msg)
			}
		}
	}
}
