package rules

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// wideKernels is allPTXKernels in the wide encodings.
func wideKernels() []ptx.Kernel {
	ks := allPTXKernels()
	for k := range ks {
		ks[k].Wide = true
	}
	return ks
}

// wideCases are programs for the wide kernels at emulator sizes: the
// shipped rule files, scattered writes (a thread overwriting its own
// earlier write with a smaller value: the compare-and-swap), faults, and
// ranges that end at 2^31 or start at -2^31.
func wideCases(t *testing.T) []emuCase {
	return append(shippedEmuCases(t), []emuCase{
		{"overwrite", compileSrc(t, `state { int a[5]  int b[40] ~ uniform(-30, 30) }
rule r over i in 0..40 when b[i] != 0 {
  a[(i + b[i] + 40) % 5] = 100 + i
  a[(i * 3) % 5] = b[i]
  a[(i + b[i] + 40) % 5] = i
}`), 4, 3},
		{"fault", compileSrc(t, `state { int a[10] }
rule bad over i in 0..10 when i >= 2 {
  a[i + 1] = 1
}`), 3, 2},
		{"top", compileSrc(t, `state { int a[64] ~ uniform(0, 9)  int k  int m }
rule r over i in 2147483600..2147483648 when a[i - 2147483600] > 2 {
  k += 1
  m = i - 2147483000
}
rule s over i in 2147483640..2147483648 { a[(i - 2147483640) * 9] = i }`), 3, 2},
		{"bottom", compileSrc(t, `state { int a[40] ~ uniform(0, 9)  int k }
rule r over i in -2147483647 - 1..-2147483610 when a[i + 2147483647 + 1] > 4 { k += i + 2147483647 }`), 2, 2},
	}...)
}

// The wide kernels agree with the CPU interpreter in the PTX emulator,
// every schedule, block shape and layout.
func TestPTXWideEmulatedMatchesCPU(t *testing.T) {
	for _, tc := range wideCases(t) {
		for _, k := range wideKernels() {
			if msg := emuAgrees(tc.p, k, tc.states, tc.steps, 3); msg != "" {
				t.Errorf("%s/%s wide: %s", tc.name, k.Name(), msg)
			}
		}
	}
	for i, src := range ptxEdgeSources() {
		p := compileSrc(t, src)
		for _, k := range wideKernels() {
			if msg := emuAgrees(p, k, 3, 3, 5); msg != "" {
				t.Errorf("edge %d/%s wide: %s", i, k.Name(), msg)
			}
		}
	}
}

// Random programs in the wide kernels, as TestPTXEmulatedMatchesCPURandom.
func TestPTXWideEmulatedMatchesCPURandom(t *testing.T) { emulateRandomPrograms(t, 60, 10, true) }

// Faults and pending writes at indices past 2^19 in the emulator: the wide
// kernels report the CPU's index, pc and value. The simple schedule's
// kernels only (-short: one): the emulator runs a compact block's threads
// through 2^15 rounds of barriers; the GPU tests run every kernel.
func TestPTXWideEmulatedHighIndices(t *testing.T) {
	srcs := []string{
		// index out of range at i = 2^20 + 5 (a[i - 2^20] with a of 5)
		"state { int a[5] }\nrule r over i in 0..1048600 when i >= 1048570 { a[i - 1048576] = i }",
		// division by zero at i = 600000
		"state { int k }\nrule r over i in 0..600010 when i >= 599990 { k += 1000 / (i - 600000) }",
		// pending writes from high indices: the highest writer wins
		"state { int a[3]  int b[3] }\nrule r over i in 0..1048600 when i >= 1048590 { a[i % 3] = i  b[(i * 7) % 3] = -i }",
	}
	var ks []ptx.Kernel
	for _, k := range wideKernels() {
		if k.Sched == Simple {
			ks = append(ks, k)
		}
	}
	if testing.Short() {
		ks = ks[:1]
	}
	for n, src := range srcs {
		p := compileSrc(t, src)
		for _, k := range ks {
			if msg := emuAgrees(p, k, 1, 1, 1); msg != "" {
				t.Errorf("source %d, %s: %s", n, k.Name(), msg)
			}
		}
	}
}

// The wide fault records decode to what was recorded, and the narrow
// ones as they always did; records that disagree are an error.
func TestDecodeFault(t *testing.T) {
	for _, c := range []struct {
		rel, pc int
		value   int32
	}{{0, 0, 0}, {1<<31 - 1, 8191, -1}, {1 << 20, 17, -2147483648}, {524287, 5, 2147483647}} {
		key, at := wideFaultKeys(c.rel, c.pc, c.value)
		rel, f, err := decodeFault(true, key, at)
		if err != nil || rel != c.rel || f.PC != c.pc || f.Value != c.value {
			t.Errorf("%+v: %d %+v %v", c, rel, f, err)
		}
		if c.rel < ptx.NarrowRange {
			narrow := uint64(c.rel)<<45 | uint64(c.pc)<<32 | uint64(uint32(c.value))
			if rel, f, _ := decodeFault(false, narrow, 0); rel != c.rel || f.PC != c.pc || f.Value != c.value {
				t.Errorf("narrow %+v: %d %+v", c, rel, f)
			}
		}
	}
	key, at := wideFaultKeys(5, 3, 1)
	if _, _, err := decodeFault(true, key, at+1<<32); err == nil {
		t.Error("records of two indices decoded")
	}
}

// The wide fault protocol under every order: the two atomicMins of a
// state's faults (distinct rel) leave the lowest rel's pc and value.
func TestWideFaultMinimum(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + r.IntN(20)
		rels := r.Perm(1 << 12)[:n]
		key, at := ^uint64(0), ^uint64(0)
		best := -1
		type rec struct {
			rel, pc int
			value   int32
		}
		recs := make([]rec, n)
		for k, rel := range rels {
			recs[k] = rec{rel<<19 | r.IntN(1<<19), r.IntN(8192), int32(r.Uint32())}
			if best < 0 || recs[k].rel < recs[best].rel {
				best = k
			}
		}
		// Each fault is two atomics; interleave them in a random order
		// that keeps each fault's own two in program order.
		next := make([]int, n)
		for done := 0; done < 2*n; {
			k := r.IntN(n)
			if next[k] == 2 {
				continue
			}
			kk, ka := wideFaultKeys(recs[k].rel, recs[k].pc, recs[k].value)
			if next[k] == 0 {
				key = min(key, kk)
			} else {
				at = min(at, ka)
			}
			next[k]++
			done++
		}
		rel, f, err := decodeFault(true, key, at)
		if err != nil || rel != recs[best].rel || f.PC != recs[best].pc || f.Value != recs[best].value {
			t.Fatalf("trial %d: %d %+v %v, want %+v", trial, rel, f, err, recs[best])
		}
	}
}

// The wide pending-write protocol under random interleavings: threads
// (distinct rel) each write a word several times, each write an atomicMax
// of (rel+1)<<32 | value and then, when the old word was the thread's own
// with a larger value, a compare-and-swap; the word ends with the highest
// rel's last value, as on the CPU.
func TestWidePendingWinner(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 5000; trial++ {
		n := 1 + r.IntN(6)
		var rels []int
		seen := map[int]bool{}
		for len(rels) < n {
			if v := r.IntN(1 << 31); !seen[v] {
				seen[v] = true
				rels = append(rels, v)
			}
		}
		writes := make([][]uint32, n)
		top := 0
		for k := range writes {
			for range 1 + r.IntN(4) {
				writes[k] = append(writes[k], r.Uint32()>>uint(r.IntN(32)))
			}
			if rels[k] > rels[top] {
				top = k
			}
		}
		var word uint64
		// A thread's state: the write it is at, and (between the two
		// atomics of a write) the old word atomicMax returned.
		at := make([]int, n)
		phase := make([]int, n)
		prev := make([]uint64, n)
		for {
			var live []int
			for k := range n {
				if at[k] < len(writes[k]) {
					live = append(live, k)
				}
			}
			if len(live) == 0 {
				break
			}
			k := live[r.IntN(len(live))]
			v := writes[k][at[k]]
			mine := uint64(uint32(rels[k])+1)<<32 | uint64(v)
			if phase[k] == 0 {
				prev[k] = word
				word = max(word, mine)
				phase[k] = 1
				continue
			}
			if p := prev[k]; uint32(p>>32) == uint32(rels[k])+1 && uint32(p) > v && word == p {
				word = mine
			}
			phase[k] = 0
			at[k]++
		}
		want := writes[top][len(writes[top])-1]
		if uint32(word) != want || word>>32 != uint64(rels[top])+1 {
			t.Fatalf("trial %d: word %#x, want rel %d value %#x (writes %v of rels %v)", trial, word, rels[top], want, writes, rels)
		}
	}
}

// The wide kernels assemble with ptxas for sm_90: every kernel of the
// shipped rule files and the wide cases, and 30 random programs (-short:
// 6), one kernel each.
func TestPTXWideAssembles(t *testing.T) {
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("no ptxas on PATH")
	}
	dir := t.TempDir()
	for name, p := range ptxConfigs(t) {
		if msg := assemble(ptxas, dir, name, p, wideKernels()); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
	cases := wideCases(t)
	for _, src := range []string{
		"state { int k  int top }\nrule r over i in 0..2147483648 when i % 3 != 1 { if i >= 2147483600 { top = max(top, i) } }",
		"state { int k }\nrule r over i in -2147483647 - 1..0 { k += 1 }",
	} {
		cases = append(cases, struct {
			name          string
			p             *Program
			states, steps int
		}{"full", compileSrc(t, src), 0, 0})
	}
	cases = append(cases, struct {
		name          string
		p             *Program
		states, steps int
	}{"life1024", compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"}), 0, 0})
	for _, tc := range cases {
		if msg := assemble(ptxas, dir, tc.name, tc.p, wideKernels()); msg != "" {
			t.Errorf("%s: %s", tc.name, msg)
		}
	}
	n := 30
	if testing.Short() {
		n = 6
	}
	ps, srcs := ptxRandomPrograms(t, n, nil)
	all := wideKernels()
	for k, p := range ps {
		if msg := assemble(ptxas, dir, fmt.Sprint("random", k), p, all[k%len(all):k%len(all)+1]); msg != "" {
			t.Errorf("random %d: %s\n%s", k, msg, srcs[k])
		}
	}
}
