package ptx

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Tile is the tiled schedule: one state (or a few) larger than a block's
// share spread over the whole GPU. A generated tiled kernel evaluates one
// rule of one step (Kernel.Rule) for thread rel = ctaid.x*SimpleBlock + tid
// of the range of state ctaid.y, striding by the grid's width, and adds the
// state's firings to tcount[s]; the snapshot, the flush and the rule's
// verdict are cuda/rules.cu's rules_tile_* kernels, which need no code of
// the rule. Launches are the grid-wide barriers between rules, and the
// neighbours' cells (the halo) are read from global memory as the previous
// launch left them.
const Tile Schedule = "tile"

// tileParams are a tiled kernel's pointer parameters, err_pc after err_key
// in a wide kernel.
func (k Kernel) tileParams() []string {
	if k.Wide {
		return []string{"cur", "snap", "pend", "stable_at", "failed", "err_key", "err_pc", "tcount"}
	}
	return []string{"cur", "snap", "pend", "stable_at", "failed", "err_key", "tcount"}
}

// TileKernels are the tiled kernels of every rule of p, one module's worth.
func TileKernels(p *bytecode.Program, layout Layout, wide bool) []Kernel {
	ks := make([]Kernel, len(p.Rules))
	for ri := range ks {
		ks[ri] = Kernel{Sched: Tile, Layout: layout, Wide: wide, Rule: ri}
	}
	return ks
}

// generateTile writes the tiled kernel of rule k.Rule: its parameters are
// tileParams, then nstates and step (the run's, 1-based), then the draws'
// three for a program with draws.
func generateTile(p *bytecode.Program, k Kernel) (string, error) {
	if k.Rule < 0 || k.Rule >= len(p.Rules) {
		return "", fmt.Errorf("codegen: tiled kernel of rule %d of %d", k.Rule, len(p.Rules))
	}
	g := &generator{p: p, layout: k.Layout, wp: PadWords(p.Words), wide: k.Wide}
	ptr, scalars := g.prologue(k.Name(), k.tileParams(), "step")
	if err := g.tile(k.Rule, ptr, scalars[0]); err != nil {
		return "", err
	}
	return g.entry(k.Name(), k.tileParams(), []string{"step"}, SimpleBlock, "\t.shared .align 4 .u32 s_fired;\n"), nil
}

// tile is rules_tile_exec in cuda/rules.cu, the rule's precondition and
// consequence inlined as in simple.
func (g *generator) tile(ri int, ptr map[string]string, step string) error {
	R := g.p.Rules[ri]
	s, p, exit := g.r(), g.pr(), g.label("exit")
	g.op("mov.u32 %s, %%ctaid.y", s)
	g.op("setp.ge.u32 %s, %s, %s", p, s, g.nstates)
	g.op("@%s bra %s", p, exit)
	for _, name := range []string{"stable_at", "failed"} {
		v := g.r()
		g.op("ld.global.u32 %s, [%s]", v, g.u32at(ptr[name], s))
		g.op("setp.ne.s32 %s, %s, 0", p, v)
		g.op("@%s bra %s", p, exit)
	}
	// s_fired = 0 before any thread adds to it: the exits above are the
	// whole block's (one state), so every thread meets both barriers.
	tid, zero := g.r(), g.pr()
	g.op("mov.u32 %s, %%tid.x", tid)
	g.op("setp.eq.u32 %s, %s, 0", zero, tid)
	g.op("@%s st.shared.u32 [s_fired], 0", zero)
	g.op("bar.sync 0")
	g.stepDraws(step)
	g.comment("rule %d %s over [%d, %d)", ri, R.Name, R.Lo, R.Hi)
	g.ruleDraws(ri)
	errKey := g.rd()
	g.op("mad.wide.u32 %s, %s, 8, %s", errKey, s, ptr["err_key"])
	// rel in uint32 up to 2^31 and the index lo + rel wrapping, as in the
	// wide loops; rel + stride stays below 2^32.
	rel, stride, i, mine, key := g.r(), g.r(), g.r(), g.r(), g.rd()
	g.op("mov.u32 %s, %%ctaid.x", rel)
	g.op("mad.lo.s32 %s, %s, %d, %s", rel, rel, SimpleBlock, tid)
	g.op("mov.u32 %s, %%nctaid.x", stride)
	g.op("mul.lo.s32 %s, %s, %d", stride, stride, SimpleBlock)
	g.op("mov.u32 %s, 0", mine)
	loop, end, enabled, next, fault := g.label("idx"), g.label("idxend"), g.label("en"), g.label("next"), g.label("fault")
	g.at(loop)
	g.op("setp.ge.u32 %s, %s, %s", p, rel, rangeCount(R))
	g.op("@%s bra %s", p, end)
	g.op("add.s32 %s, %s, %d", i, rel, R.Lo)
	if err := g.ruleIndex(R, evalSite{s: s, i: i, rel: rel, key: key, fault: fault}, enabled, next, mine, errKey, ptr["err_pc"]); err != nil {
		return err
	}
	g.at(next)
	g.op("add.s32 %s, %s, %s", rel, rel, stride)
	g.op("bra %s", loop)
	g.at(end)
	for _, o := range []int{16, 8, 4, 2, 1} {
		v := g.r()
		g.op("shfl.sync.bfly.b32 %s, %s, %d, 31, -1", v, mine, o)
		g.op("add.s32 %s, %s, %s", mine, mine, v)
	}
	// One global atomic a block (s_fired, zeroed before the loop): a
	// warp's each would put millions a step on one counter.
	lane, any := g.r(), g.pr()
	g.op("and.b32 %s, %s, 31", lane, tid)
	g.op("setp.eq.u32 %s, %s, 0", any, lane)
	nz := g.pr()
	g.op("setp.ne.s32 %s, %s, 0", nz, mine)
	g.op("and.pred %s, %s, %s", any, any, nz)
	g.op("@%s red.shared.add.u32 [s_fired], %s", any, mine)
	g.op("bar.sync 0")
	first, total := g.pr(), g.r()
	g.op("ld.shared.u32 %s, [s_fired]", total)
	g.op("setp.ne.s32 %s, %s, 0", nz, total)
	g.op("and.pred %s, %s, %s", first, zero, nz)
	n64, a := g.rd(), g.rd()
	g.op("cvt.u64.u32 %s, %s", n64, total)
	g.op("mad.wide.u32 %s, %s, 8, %s", a, s, ptr["tcount"])
	g.op("@%s red.global.add.u64 [%s], %s", first, a, n64)
	g.at(exit)
	g.op("ret")
	return nil
}
