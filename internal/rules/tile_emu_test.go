package rules

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
	"github.com/procgen-dev/procgen/internal/rules/ptx/ptxtest"
)

// The tiled path without a GPU: the generated tiled kernels run in the PTX
// emulator, and the snapshot, flush and verdict launches between them are
// Go models of cuda/rules.cu's rules_tile_pass and rules_tile_end, in the
// order cuda_tile.go's launchTiles queues them. The GPU tests
// (cuda_tile_test.go) check the hardware and the interpreter's tiled
// kernel agree.

// emuTile holds the buffers of a tiled run in the emulator, in the order
// of the generated kernels' pointer parameters (rules/ptx tile.go).
type emuTile struct {
	p                                   *Program
	k                                   ptx.Kernel
	n, wp                               int
	mem                                 *ptxtest.Memory
	cur, snap, pend, stable, failed, ek int // buffer numbers
	epc, tcount                         int
	// Host side of rules_tile_end: err_rule, the step's firings so far,
	// last_fired and fired per step and rule.
	errRule []int
	sfired  []uint64
	fired   [][]int64
}

func newEmuTile(p *Program, st *States, l Layout, wide bool) *emuTile {
	n, wp := st.N, ptx.PadWords(p.Words)
	e := &emuTile{p: p, k: ptx.Kernel{Sched: ptx.Tile, Layout: l, Wide: wide}, n: n, wp: wp, mem: &ptxtest.Memory{},
		errRule: make([]int, n), sfired: make([]uint64, n)}
	words := []int{n * wp, n * wp, 2 * n * wp, n, n, 2 * n}
	e.cur, e.snap, e.pend, e.stable, e.failed, e.ek = 0, 1, 2, 3, 4, 5
	e.epc, e.tcount = -1, 6
	if wide {
		words = append(words, 2*n)
		e.epc, e.tcount = 6, 7
	}
	words = append(words, 2*n)
	for _, w := range words {
		e.mem.Bufs = append(e.mem.Bufs, make([]uint32, w))
	}
	copy(e.mem.Bufs[e.cur], toLayout(st, l))
	for i := range e.mem.Bufs[e.ek] {
		e.mem.Bufs[e.ek][i] = ^uint32(0)
		if wide {
			e.mem.Bufs[e.epc][i] = ^uint32(0)
		}
	}
	return e
}

func (e *emuTile) u64(buf, s int) uint64 {
	return uint64(e.mem.Bufs[buf][2*s]) | uint64(e.mem.Bufs[buf][2*s+1])<<32
}

func (e *emuTile) live(s int) bool {
	return e.mem.Bufs[e.stable][s] == 0 && e.mem.Bufs[e.failed][s] == 0
}

// pass is rules_tile_pass: rule R's snapshot (flush false) or flush of
// every live state.
func (e *emuTile) pass(R bytecode.Rule, flush bool) {
	mask := R.SnapMask
	if flush {
		mask = R.PendMask
	}
	cur, snap, pend := e.mem.Bufs[e.cur], e.mem.Bufs[e.snap], e.mem.Bufs[e.pend]
	for s := range e.n {
		if !e.live(s) {
			continue
		}
		for fi, f := range e.p.Fields {
			if mask&(1<<fi) == 0 {
				continue
			}
			for k := range f.Size {
				ad := layoutIndex(e.k.Layout, s, f.Off+k, e.n, e.wp)
				if !flush {
					snap[ad] = cur[ad]
				} else if v := uint64(pend[2*ad]) | uint64(pend[2*ad+1])<<32; v != 0 {
					cur[ad], pend[2*ad], pend[2*ad+1] = uint32(v), 0, 0
				}
			}
		}
	}
}

// end is rules_tile_end for rule ri of step.
func (e *emuTile) end(ri, step int, nofix bool) {
	last := ri == len(e.p.Rules)-1
	for s := range e.n {
		if !e.live(s) {
			continue
		}
		if e.u64(e.ek, s) != ^uint64(0) {
			e.mem.Bufs[e.failed][s], e.errRule[s] = uint32(step), ri
			continue
		}
		n := e.u64(e.tcount, s)
		e.mem.Bufs[e.tcount][2*s], e.mem.Bufs[e.tcount][2*s+1] = 0, 0
		e.fired[step-1][ri] += int64(n)
		f := e.sfired[s] + n
		e.sfired[s] = f
		if last {
			e.sfired[s] = 0
			if f == 0 && !nofix {
				e.mem.Bufs[e.stable][s] = uint32(step)
			}
		}
	}
}

// emuTileRun runs p on st tiled in the emulator, grid blocks across each
// rule's range at most (fewer than its tiles: the threads stride), and
// returns what CUDA.Run reports.
func emuTileRun(p *Program, st *States, l Layout, wide bool, grid int, o Options) (stable []int32, fired [][]int64, runErr, err error) {
	e := newEmuTile(p, st, l, wide)
	src, err := ptx.Generate(p, ptx.TileKernels(p, l, wide)...)
	if err != nil {
		return nil, nil, nil, err
	}
	kerns := make([]*ptxtest.Kernel, len(p.Rules))
	for ri := range kerns {
		e.k.Rule = ri
		if kerns[ri], err = ptxtest.Parse(src, e.k.Name()); err != nil {
			return nil, nil, nil, err
		}
	}
	e.fired = make([][]int64, o.Steps)
	for t := range e.fired {
		e.fired[t] = make([]int64, len(p.Rules))
	}
	for step := 1; step <= o.Steps; step++ {
		for ri, R := range p.Rules {
			e.pass(R, false)
			args := make([]uint64, 0, 12)
			for b := range e.mem.Bufs {
				args = append(args, ptxtest.BufferAddr(b))
			}
			args = append(args, uint64(e.n), uint64(step))
			if p.Draws {
				args = append(args, o.Seed, uint64(o.FirstState), uint64(o.FirstStep))
			}
			tiles := (int(int64(R.Hi)-int64(R.Lo)) + ptx.SimpleBlock - 1) / ptx.SimpleBlock
			if err := kerns[ri].RunGrid(e.mem, max(1, min(tiles, grid)), e.n, ptx.SimpleBlock, args); err != nil {
				return nil, nil, nil, err
			}
			e.pass(R, true)
			e.end(ri, step, p.DrawsInCond)
		}
	}
	fromLayout(st, l, e.mem.Bufs[e.cur])
	stable = make([]int32, e.n)
	errs := make([]stateError, e.n)
	for s := range e.n {
		stable[s] = int32(e.mem.Bufs[e.stable][s])
		if f := int32(e.mem.Bufs[e.failed][s]); f != 0 {
			var at uint64
			if wide {
				at = e.u64(e.epc, s)
			}
			rel, fl, err := decodeFault(wide, e.u64(e.ek, s), at)
			if err != nil {
				return nil, nil, nil, err
			}
			errs[s] = stateError{ok: true, step: int(f), rule: e.errRule[s], index: rel + p.Rules[e.errRule[s]].Lo, f: fl}
		}
	}
	return stable, e.fired, firstError(p, errs), nil
}

// emuTileAgrees compares a tiled run in the emulator with the CPU
// interpreter: the error, the states bit for bit, fixed points and firings.
func emuTileAgrees(p *Program, l Layout, wide bool, grid, states int, seed uint64, o Options) string {
	want, got := Generate(p, states, seed), Generate(p, states, seed)
	res, wantErr := CPU{Path: PathInterpret}.Run(context.Background(), p, want, o)
	stable, fired, gotErr, err := emuTileRun(p, got, l, wide, grid, o)
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

// tileEmuCases: the shipped rule files, boards of several tiles (Life on a
// torus and on a plane, the forest fire's draws, the sandpile's plane and
// its atomic counter), scattered writes over two fields, and a fault.
func tileEmuCases(t *testing.T) []emuCase {
	return append(shippedEmuCases(t), []emuCase{
		{"life-torus-30x20", compileConfig(t, "life.rules", map[string]string{"W": "30", "H": "20"}), 2, 4},
		{"life-plane-23x27", compileSrc(t, planeLifeSrc(23, 27)), 2, 4},
		{"forestfire-24x24", compileConfig(t, "forestfire.rules", map[string]string{"W": "24", "H": "24", "P": "0.2", "F": "0.05"}), 2, 3},
		{"sandpile-25x21", compileConfig(t, "sandpile.rules", map[string]string{"W": "25", "H": "21"}), 2, 6},
		{"pending", compileSrc(t, pendingSrc(700)), 2, 4},
		{"fault", compileSrc(t, "state { int a[600] }\nrule bad over i in 0..600 when i >= 2 {\n  a[i + 1] = 1\n}"), 2, 2},
	}...)
}

// planeLifeSrc is Life on a W x H plane: the board sits in a frame of dead
// cells that no rule writes, so the edges see nothing beyond them.
func planeLifeSrc(w, h int) string {
	return fmt.Sprintf(`const W = %d
const H = %d
const P = W + 2
state {
  int c[P * (H + 2)] ~ uniform(0, 1)
}
rule clear over k in 0..P * (H + 2)
  let x = k %% P
  let y = k / P
  when c[k] == 1 && (x == 0 || x == P - 1 || y == 0 || y == H + 1)
{
  c[k] = 0
}
rule life over k in 0..W * H
  let at = (k / W + 1) * P + k %% W + 1
  let n = c[at - P - 1] + c[at - P] + c[at - P + 1] + c[at - 1] + c[at + 1] + c[at + P - 1] + c[at + P] + c[at + P + 1]
  when (c[at] == 1 && (n < 2 || n > 3)) || (c[at] == 0 && n == 3)
{
  c[at] = 1 - c[at]
}
`, w, h)
}

// pendingSrc scatters "highest index wins" writes from n indices into two
// fields, reads them back from snapshots and counts with +=.
func pendingSrc(n int) string {
	return fmt.Sprintf(`const N = %d
state { int a[7]  int s  int b[N] ~ uniform(-3, 50)  int cnt }
rule scatter over i in 0..N when b[i] %% 3 != 0 {
  a[b[i] %% 7] = i * 10 + b[i]
  s = b[i]
  cnt += 1
}
rule fold over i in 0..N let j = i %% 7 when a[j] > 0 {
  if a[j] > 100 { a[j] = a[j] / 2 } else { a[j] = -a[j] }
  b[(i * 5) %% N] = max(a[j], b[i])
}
`, n)
}

// TestPTXTileEmulatedMatchesCPU: the tiled path in the emulator, narrow
// and wide, every layout, with a grid of one block (every thread striding
// over the whole range) and of two (tiles split between blocks), against
// the CPU interpreter.
func TestPTXTileEmulatedMatchesCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("the emulator runs a few million instructions")
	}
	for _, tc := range tileEmuCases(t) {
		for k, l := range []Layout{LayoutA, LayoutB, LayoutC} {
			for _, wide := range []bool{false, true} {
				if !wide && ptx.NeedsWide(tc.p) {
					continue
				}
				o := Options{Steps: tc.steps, Seed: 5, FirstState: 2, FirstStep: 1}
				if msg := emuTileAgrees(tc.p, l, wide, 1+k%2, tc.states, 3, o); msg != "" {
					t.Errorf("%s/%s wide=%v: %s", tc.name, l, wide, msg)
				}
			}
		}
	}
}

// TestPTXTileEmulatedRandom: random programs (with and without draws) run
// tiled in the emulator against the CPU, one layout each.
func TestPTXTileEmulatedRandom(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 10
	}
	ps, srcs := ptxRandomPrograms(t, n, func(p *Program) bool { return !hasOpcode(p, bytecode.OpADDF) })
	draws, dsrcs := drawRandomPrograms(t, n/3)
	ps, srcs = append(ps, draws...), append(srcs, dsrcs...)
	for k, p := range ps {
		l := []Layout{LayoutA, LayoutB, LayoutC}[k%3]
		o := Options{Steps: 1 + k%4, Seed: uint64(k), FirstState: k % 5, FirstStep: k % 3}
		if msg := emuTileAgrees(p, l, k%2 == 1 || ptx.NeedsWide(p), 1+k%2, 1+k%3, uint64(k), o); msg != "" {
			t.Fatalf("program %d, %s:\n%s\n%s", k, l, srcs[k], msg)
		}
	}
}

// TestPTXTileAssembles: the tiled kernels are valid PTX for ptxas, narrow
// and wide, with and without draws.
func TestPTXTileAssembles(t *testing.T) {
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("no ptxas on PATH")
	}
	dir := t.TempDir()
	progs := map[string]*Program{}
	for _, tc := range tileEmuCases(t) {
		progs[tc.name] = tc.p
	}
	progs["life1024"] = compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"})
	progs["full"] = compileSrc(t, "state { int k  int top }\nrule r over i in 0..2147483648 when i % 3 != 1 { if i >= 2147483600 { top = max(top, i) } }")
	for name, p := range progs {
		for _, wide := range []bool{false, true} {
			if !wide && ptx.NeedsWide(p) {
				continue
			}
			src, err := ptx.Generate(p, ptx.TileKernels(p, LayoutC, wide)...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := ptxtest.Assemble(ptxas, dir, name, src); err != nil {
				t.Errorf("%s wide=%v: %v", name, wide, err)
			}
		}
	}
}

// TestUseTiles: a few big states go tiled, many small ones or states too
// small for many tiles stay a block (or a warp) a state.
func TestUseTiles(t *testing.T) {
	big := compileConfig(t, "life.rules", map[string]string{"W": "4096", "H": "4096"})
	small := compileConfig(t, "life.rules", map[string]string{"W": "64", "H": "64"})
	for _, c := range []struct {
		p       *Program
		n, sms  int
		want    bool
		comment string
	}{
		{big, 1, 132, true, "one 4096x4096 board"},
		{big, 8, 132, true, "eight"},
		{big, 263, 132, true, "fewer than two an SM"},
		{big, 264, 132, false, "two an SM fill the GPU"},
		{small, 1, 132, false, "64x64: 16 tiles"},
		{big, MaxTiledStates + 1, 1 << 20, false, "past the grid's y"},
	} {
		if got := UseTiles(c.p, c.n, c.sms); got != c.want {
			t.Errorf("%s: UseTiles(%d states, %d SMs) = %v", c.comment, c.n, c.sms, got)
		}
	}
}

// TestGPUSupportsBigFields: states up to MaxWordsGPU words are the GPU's
// (8192x8192 Life was refused at 2^24), a field of 2^31 cells is not.
func TestGPUSupportsBigFields(t *testing.T) {
	if err := GPUSupports(compileConfig(t, "life.rules", map[string]string{"W": "8192", "H": "8192"})); err != nil {
		t.Errorf("8192x8192: %v", err)
	}
	if err := GPUSupports(compileSrc(t, "state { int a[32768 * 65535] }\nrule r over i in 0..1 { a[i] = 1 }")); err != nil {
		t.Errorf("a field of 32768*65535 cells: %v", err)
	}
	err := GPUSupports(compileSrc(t, "state { int a[2147483647]  int b[1] }\nrule r over i in 0..1 { a[i] = 1 }"))
	if !errors.Is(err, ErrNotOnGPU) {
		t.Errorf("2^31 words: %v, want ErrNotOnGPU", err)
	}
}
