package rulesjob

import (
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
func engineFor(rc ruleChoice, prog *rules.Program, o Options) func(*gpu.Device) rules.Engine {
	if rc.notation == nil || o.Kernel == "generated" || o.Kernel == "interpreter" {
		return rules.NewEngine
	}
	birth, survive, ok := rc.notation.OuterTotalistic()
	b, err := rules.BoardOf(prog)
	if !ok || err != nil || len(prog.Fields) != 1 || len(prog.Rules) != 1 {
		return rules.NewEngine
	}
	rule := lifepack.Rule{Birth: birth, Survive: survive, Torus: rc.notation.Topo.Torus}
	board := lifepack.Board{W: b.W, H: b.H, Off: prog.Fields[b.Field].Off}
	return func(dev *gpu.Device) rules.Engine {
		return lifepack.NewEngine(dev, rule, board, rules.NewEngine(dev))
	}
}
