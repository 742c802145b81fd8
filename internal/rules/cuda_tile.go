//go:build cuda

package rules

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// The tiled path (cuda/rules.cu's rules_tile_*, rules/ptx tile.go): a state
// larger than a block's share is cut into tiles of ptx.SimpleBlock indices
// spread over every SM, one launch per rule phase, the launch boundaries
// serving as the grid-wide barriers and global memory as the halo.

// tileExecArgs are cuda/rules.cu's RULES_TILE_PARAMS.
type tileExecArgs struct {
	code, fields, rules, cur, snap, pend gpu.Ptr
	stableAt, failed                     gpu.Ptr
	errKey, errPC, tcount                gpu.Ptr
	nstates, words, ri, ncode            int32
	nfields, step                        int32
	seed                                 uint64
	firstState, firstStep                int32
}

// tilePassArgs are RULES_TILE_PASS_PARAMS.
type tilePassArgs struct {
	fields, rules, cur, snap, pend gpu.Ptr
	stableAt, failed               gpu.Ptr
	nstates, words, ri             int32
}

// tileEndArgs are rules_tile_end's.
type tileEndArgs struct {
	stableAt, failed, errRule              gpu.Ptr
	errKey, tcount, sfired, fired, lastFrd gpu.Ptr
	nstates, ri, last, step, nofix, wide   int32
}

// The generated tiled kernels' parameters (rules/ptx tile.go tileParams).
type (
	genTileNarrow struct {
		cur, snap, pend, stableAt, failed, errKey, tcount gpu.Ptr
	}
	genTileWide struct {
		cur, snap, pend, stableAt, failed, errKey, errPC, tcount gpu.Ptr
	}
	genTileStep struct{ nstates, step int32 }
	genTileArgs struct {
		ptrs genTileNarrow
		step genTileStep
	}
	genTileRandArgs struct {
		ptrs  genTileNarrow
		step  genTileStep
		draws genDraws
	}
	genTileWideArgs struct {
		ptrs genTileWide
		step genTileStep
	}
	genTileWideRandArgs struct {
		ptrs  genTileWide
		step  genTileStep
		draws genDraws
	}
)

// tileKernelDecls are the tiled kernels cuda/rules.cu defines and its
// --record reduction (cuda_record.go), with the parameters of each.
func tileKernelDecls() []gpu.KernelDecl {
	var ds []gpu.KernelDecl
	for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
		ds = append(ds,
			gpu.Kernel[tileExecArgs]{Family: "rules", Name: "rules_tile_exec_" + string(l)},
			gpu.Kernel[tileExecArgs]{Family: "rules", Name: "rules_tile_exec_wide_" + string(l)},
			gpu.Kernel[tilePassArgs]{Family: "rules", Name: "rules_tile_snap_" + string(l)},
			gpu.Kernel[tilePassArgs]{Family: "rules", Name: "rules_tile_flush_" + string(l)},
			recordKernel(l))
	}
	return append(ds, gpu.Kernel[tileEndArgs]{Family: "rules", Name: "rules_tile_end"})
}

// tileForce, when not zero, forces the tiled path on (1) or off (-1)
// whatever the sizes; tests run small boards tiled with it.
var tileForce = 0

// useTiles is UseTiles unless a test forces the choice.
func useTiles(p *Program, n, sms int) bool {
	if tileForce != 0 {
		return tileForce > 0 && n <= MaxTiledStates
	}
	return UseTiles(p, n, sms)
}

// tileKernels are a tiled run's kernels and scratch.
type tileKernels struct {
	exec        gpu.Func[tileExecArgs]
	snap, flush gpu.Func[tilePassArgs]
	end         gpu.Func[tileEndArgs]
	// tcount: a rule's firings per state; sfired: the step's so far.
	tcount, sfired *gpu.Buffer[uint64]
	// execGrid[ri]: blocks across rule ri's range; passGrid: across the
	// largest field.
	execGrid []int
	passGrid int
}

// tileGrid is the blocks a range of n indices gets: a tile each, up to 32
// blocks an SM (then the threads stride), at least one.
func tileGrid(n int64, sms int) int {
	tiles := (n + ptx.SimpleBlock - 1) / ptx.SimpleBlock
	return int(max(1, min(tiles, int64(32*max(sms, 1)))))
}

// newTiles loads the tiled kernels for layout and the generated kernels of
// every rule (unless interp), and allocates the scratch.
func (r *cudaRun) newTiles(layout Layout, interp, require bool) (err error) {
	dev, p := r.dev, r.p
	t := &tileKernels{}
	r.tile = t
	l := string(layout)
	enc := "_"
	if r.wide {
		enc = "_wide_"
	}
	if t.exec, err = (gpu.Kernel[tileExecArgs]{Family: "rules", Name: "rules_tile_exec" + enc + l}).Load(dev); err != nil {
		return err
	}
	if t.snap, err = (gpu.Kernel[tilePassArgs]{Family: "rules", Name: "rules_tile_snap_" + l}).Load(dev); err != nil {
		return err
	}
	if t.flush, err = (gpu.Kernel[tilePassArgs]{Family: "rules", Name: "rules_tile_flush_" + l}).Load(dev); err != nil {
		return err
	}
	if t.end, err = (gpu.Kernel[tileEndArgs]{Family: "rules", Name: "rules_tile_end"}).Load(dev); err != nil {
		return err
	}
	r.genErr = fmt.Errorf("the interpreter was asked for")
	if !interp {
		r.genFamily, r.genErr = loadTileGenerated(dev, p, layout, r.wide)
		r.generated = r.genErr == nil
		if !r.generated && require {
			return fmt.Errorf("the kernels generated for the rule set do not load (--kernel interpreter runs the bytecode interpreter): %w", r.genErr)
		}
	}
	// The pass and verdict kernels read the tables whichever evaluates.
	if err = r.uploadTables(); err != nil {
		return err
	}
	if !r.generated {
		if err = r.setShared(t.exec); err != nil {
			return err
		}
	}
	sms := dev.Info().SMs
	var field int64 = 1
	for _, f := range p.Fields {
		field = max(field, int64(f.Size))
	}
	t.passGrid = tileGrid(field, sms)
	for _, rule := range p.Rules {
		t.execGrid = append(t.execGrid, tileGrid(int64(rule.Hi)-int64(rule.Lo), sms))
	}
	if t.tcount, err = gpu.Alloc[uint64](dev, r.n); err != nil {
		return err
	}
	if err = t.tcount.Zero(); err != nil {
		return err
	}
	if t.sfired, err = gpu.Alloc[uint64](dev, r.n); err != nil {
		return err
	}
	return t.sfired.Zero()
}

// loadTileGenerated loads the tiled kernels generated for every rule of p,
// one module, and returns its family.
func loadTileGenerated(dev *gpu.Device, p *Program, layout Layout, wide bool) (string, error) {
	ks := ptx.TileKernels(p, layout, wide)
	module, err := ptx.Generate(p, ks...)
	if err != nil {
		return "", err
	}
	family, err := dev.LoadPTXModule("rules", []byte(module))
	if err != nil {
		return "", err
	}
	for _, k := range ks {
		if _, err = genKernel[genTileArgs](k).LoadFrom(dev, family); err != nil {
			return "", err
		}
	}
	return family, nil
}

func (t *tileKernels) free() {
	for _, b := range []*gpu.Buffer[uint64]{t.tcount, t.sfired} {
		if b != nil {
			b.Free()
		}
	}
}

// launchTiles queues steps step0+1 .. step0+n, every rule of each step as
// its snapshot, evaluation, flush and verdict launches.
func (r *cudaRun) launchTiles(step0, n int) error {
	p, t := r.p, r.tile
	nofix := int32(0)
	if p.DrawsInCond {
		nofix = 1
	}
	wide := int32(0)
	if r.wide {
		wide = 1
	}
	block := gpu.Dim(ptx.SimpleBlock)
	ends := gpu.Dim((r.n + ptx.SimpleBlock - 1) / ptx.SimpleBlock)
	for step := step0 + 1; step <= step0+n; step++ {
		for ri, rule := range p.Rules {
			pass := tilePassArgs{r.fields.Ptr(), r.rules.Ptr(), r.cur.Ptr(), r.snap.Ptr(), r.pend.Ptr(),
				r.stableAt.Ptr(), r.failed.Ptr(), int32(r.n), int32(r.wp), int32(ri)}
			grid := gpu.Dim3{X: uint32(t.passGrid), Y: uint32(r.n), Z: 1}
			if rule.SnapMask != 0 {
				if err := t.snap.Launch(grid, block, 0, pass); err != nil {
					return err
				}
			}
			if err := r.launchTileExec(step, ri); err != nil {
				return err
			}
			if rule.PendMask != 0 {
				if err := t.flush.Launch(grid, block, 0, pass); err != nil {
					return err
				}
			}
			last := int32(0)
			if ri == len(p.Rules)-1 {
				last = 1
			}
			if err := t.end.Launch(ends, block, 0, tileEndArgs{r.stableAt.Ptr(), r.failed.Ptr(), r.errRule.Ptr(),
				r.errKey.Ptr(), t.tcount.Ptr(), t.sfired.Ptr(), r.fired.PtrAt((step - 1) * len(p.Rules)), r.lastFired.Ptr(),
				int32(r.n), int32(ri), last, int32(step), nofix, wide}); err != nil {
				return err
			}
		}
	}
	return nil
}

// launchTileExec launches rule ri's evaluation of step: the generated
// kernel of the rule, or the interpreter's.
func (r *cudaRun) launchTileExec(step, ri int) error {
	t := r.tile
	grid := gpu.Dim3{X: uint32(t.execGrid[ri]), Y: uint32(r.n), Z: 1}
	block := gpu.Dim(ptx.SimpleBlock)
	if !r.generated {
		return t.exec.Launch(grid, block, r.shared, tileExecArgs{
			r.code.Ptr(), r.fields.Ptr(), r.rules.Ptr(), r.cur.Ptr(), r.snap.Ptr(), r.pend.Ptr(),
			r.stableAt.Ptr(), r.failed.Ptr(), r.errKey.Ptr(), r.errPC.Ptr(), t.tcount.Ptr(),
			int32(r.n), int32(r.wp), int32(ri), int32(len(r.p.Code)), int32(len(r.p.Fields)), int32(step),
			r.seed, int32(r.first), int32(r.firstStep)})
	}
	k := ptx.Kernel{Sched: ptx.Tile, Layout: r.layout, Wide: r.wide, Rule: ri}
	narrow := genTileNarrow{r.cur.Ptr(), r.snap.Ptr(), r.pend.Ptr(), r.stableAt.Ptr(), r.failed.Ptr(), r.errKey.Ptr(), t.tcount.Ptr()}
	wide := genTileWide{r.cur.Ptr(), r.snap.Ptr(), r.pend.Ptr(), r.stableAt.Ptr(), r.failed.Ptr(), r.errKey.Ptr(), r.errPC.Ptr(), t.tcount.Ptr()}
	st := genTileStep{int32(r.n), int32(step)}
	draws := genDraws{r.seed, int32(r.first), int32(r.firstStep)}
	switch {
	case r.wide && r.p.Draws:
		return launchTileGenerated(r, k, grid, genTileWideRandArgs{wide, st, draws})
	case r.wide:
		return launchTileGenerated(r, k, grid, genTileWideArgs{wide, st})
	case r.p.Draws:
		return launchTileGenerated(r, k, grid, genTileRandArgs{narrow, st, draws})
	}
	return launchTileGenerated(r, k, grid, genTileArgs{narrow, st})
}

func launchTileGenerated[P any](r *cudaRun, k ptx.Kernel, grid gpu.Dim3, p P) error {
	f, err := genKernel[P](k).LoadFrom(r.dev, r.genFamily)
	if err != nil {
		return err
	}
	return f.Launch(grid, gpu.Dim(ptx.SimpleBlock), 0, p)
}
