package rulesjob

import (
	"context"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/rules/lifepack"
)

// engineFor is how a run makes its engine on a GPU: for a two-state B/S
// rule given by notation (--rule, an RLE's rule line) the bit-packed
// kernel of rules/lifepack in front of the rules engine's CUDA backend,
// unless --kernel names the engine's own kernels; else the backend itself.
// Both compute the same boards and firings (lifepack's tests hold them to
// the CPU); the packed kernel moves 1/32 of the bytes.
func engineFor(rc ruleChoice, prog *rules.Program, o Options) gpuEngine {
	if rc.notation == nil || o.Kernel == "generated" || o.Kernel == "interpreter" {
		return gpuEngine{make: rules.NewEngine}
	}
	birth, survive, ok := rc.notation.OuterTotalistic()
	b, err := rules.BoardOf(prog)
	if !ok || err != nil || len(prog.Fields) != 1 || len(prog.Rules) != 1 {
		return gpuEngine{make: rules.NewEngine}
	}
	rule := lifepack.Rule{Birth: birth, Survive: survive, Torus: rc.notation.Topo.Torus}
	board := lifepack.Board{W: b.W, H: b.H, Off: prog.Fields[b.Field].Off}
	return gpuEngine{packed: &board, make: func(dev *gpu.Device) rules.Engine {
		return lifepack.NewEngine(dev, rule, board, rules.NewEngine(dev))
	}}
}

// gpuEngine is how a run makes its engine on a GPU; packed is the board
// when that is the bit-packed kernel, which auto weighs by its cell-steps
// and blocks instead of timing a CPU step (a probe step of a 16384x16384
// board took half of auto's run).
type gpuEngine struct {
	make   func(*gpu.Device) rules.Engine
	packed *lifepack.Board
}

// work is auto's estimate of the run: its cost model, work and items.
// The packed kernel steps aside for states it cannot hold (a cell other
// than 0 or 1), which leaves the engine's kernels a little slower than
// the model assumes but the same choice for big boards.
func (g gpuEngine) work(ctx context.Context, prog *rules.Program, st *rules.States, steps int) (job string, work, items float64) {
	if g.packed != nil {
		cells := float64(g.packed.W) * float64(g.packed.H) * float64(st.N)
		return "rules-packed", cells * float64(max(steps, 1)), float64(g.packed.Blocks(st.N))
	}
	return "rules", device.RulesWork(ctx, prog, st, steps), rules.GPUItems(prog, st.N)
}
