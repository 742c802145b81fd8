package ptx

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// compactRegs are the values the compact kernel's rules share: its shape,
// the state's registers and predicates, and the step loop's.
type compactRegs struct {
	warps, bs                     int
	ptr                           map[string]string
	step0                         string
	tid, lane, warp, s, ctaBase   string
	live, p                       string // p: a scratch predicate
	first, lane0, lane31, warp0   string
	leMask, errKey, t, stateFired string
}

// compact is Algorithms 3 and 4 (rules_compact in cuda/rules.cu): warp w of
// block b owns state W*b + w; the block walks each rule's range 32 indices
// at a time, every lane checks one precondition, a block-wide prefix sum
// packs the enabled (index, state) pairs into shared memory, and the pairs'
// consequences run whenever there is one for every thread (or the range
// ends). Barriers and shared-memory traffic are those of the interpreter
// kernel, so both fire, fault and flush identically. The parts are emitted
// in order by compactRule, compactCondition, compactPack and compactRun,
// which allocate registers and labels in the order of the one function
// they were cut from (the generated PTX is the same).
func (g *generator) compact(warps int, ptr map[string]string, step0, nsteps string) error {
	c := &compactRegs{warps: warps, bs: 32 * warps, ptr: ptr, step0: step0}
	c.tid, c.lane, c.warp, c.s, c.ctaBase = g.r(), g.r(), g.r(), g.r(), g.r()
	g.op("mov.u32 %s, %%tid.x", c.tid)
	g.op("and.b32 %s, %s, 31", c.lane, c.tid)
	g.op("shr.u32 %s, %s, 5", c.warp, c.tid)
	g.op("mov.u32 %s, %%ctaid.x", c.ctaBase)
	g.op("mul.lo.s32 %s, %s, %d", c.ctaBase, c.ctaBase, warps)
	g.op("add.s32 %s, %s, %s", c.s, c.ctaBase, c.warp)
	// live: s < nstates && stable_at[s] == 0 && failed[s] == 0.
	var exit string
	c.live, c.p, exit = g.pr(), g.pr(), g.label("exit")
	liveDone := g.label("live")
	g.op("setp.lt.u32 %s, %s, %s", c.live, c.s, g.nstates)
	g.op("@!%s bra %s", c.live, liveDone)
	for _, name := range []string{"stable_at", "failed"} {
		v := g.r()
		g.op("ld.global.u32 %s, [%s]", v, g.u32at(ptr[name], c.s))
		g.op("setp.eq.s32 %s, %s, 0", c.p, v)
		g.op("and.pred %s, %s, %s", c.live, c.live, c.p)
	}
	g.at(liveDone)
	c.first, c.lane0, c.lane31, c.warp0 = g.pr(), g.pr(), g.pr(), g.pr()
	g.op("setp.eq.u32 %s, %s, 0", c.first, c.tid)
	g.op("setp.eq.u32 %s, %s, 0", c.lane0, c.lane)
	g.op("setp.eq.u32 %s, %s, 31", c.lane31, c.lane)
	g.op("setp.eq.u32 %s, %s, 0", c.warp0, c.warp)
	sh := ""
	c.leMask, sh = g.r(), g.r()
	g.op("sub.s32 %s, 31, %s", sh, c.lane)
	g.op("shr.u32 %s, 0xffffffff, %s", c.leMask, sh)
	var step string
	c.errKey, c.t, step = g.stepLoop(c.s, step0, nsteps, c.p, exit, ptr["err_key"])
	if !g.wide {
		c.stateFired = g.r()
	}
	anyLive := g.pr()
	g.op("bar.red.or.pred %s, 0, %s", anyLive, c.live)
	g.op("@!%s bra %s", anyLive, exit)
	if g.wide {
		c.stateFired = g.counter()
	} else {
		g.op("mov.u32 %s, 0", c.stateFired)
	}
	for ri, R := range g.p.Rules {
		if err := g.compactRule(c, ri, R); err != nil {
			return fmt.Errorf("rule %s: %w", R.Name, err)
		}
	}
	after := g.label("stepend")
	g.op("@!%s bra %s", c.live, after)
	g.stepVerdict(ptr, c.s, c.lane0, c.stateFired, c.p, c.t, after)
	g.op("setp.ne.u32 %s, 0, 0", c.live)
	g.at(after)
	g.op("bra %s", step)
	g.at(exit)
	g.op("ret")
	return nil
}

// compactRule is one rule of a step: its draws and snapshot, its range
// walked 32 indices at a time, then the flush and the state's verdict.
func (g *generator) compactRule(c *compactRegs, ri int, R bytecode.Rule) error {
	g.comment("rule %d %s over [%d, %d)", ri, R.Name, R.Lo, R.Hi)
	g.ruleDraws(ri)
	if R.SnapMask != 0 {
		skip := g.label("nosnap")
		g.op("@!%s bra %s", c.live, skip)
		g.fieldsPass(R.SnapMask, false, c.s, c.lane, 32)
		g.at(skip)
	}
	var blockFired string
	base := ""
	if g.wide { // base and rel count from 0 in uint32; the index is lo + rel
		blockFired, base = g.counter(), g.r()
		g.op("@%s st.shared.u32 [s_waiting], 0", c.first)
		g.op("mov.u32 %s, 0", base)
	} else {
		blockFired, base = g.r(), g.r()
		g.op("mov.u32 %s, 0", blockFired)
		g.op("@%s st.shared.u32 [s_waiting], 0", c.first)
		g.op("mov.u32 %s, %d", base, R.Lo)
	}
	chunk, chunkEnd := g.label("chunk"), g.label("chunkend")
	g.at(chunk)
	if g.wide {
		g.op("setp.ge.u32 %s, %s, %s", c.p, base, rangeCount(R))
	} else {
		g.op("setp.ge.s32 %s, %s, %d", c.p, base, R.Hi)
	}
	g.op("@%s bra %s", c.p, chunkEnd)
	g.op("bar.sync 0")
	rel, en, err := g.compactCondition(c, R, base)
	if err != nil {
		return err
	}
	total, waiting := g.compactPack(c, rel, en)
	avail, err := g.compactRun(c, R, base, waiting, total)
	if err != nil {
		return err
	}
	g.op("@%s st.shared.u32 [s_waiting], %s", c.first, avail)
	g.addCount(blockFired, total)
	g.op("add.s32 %s, %s, 32", base, base)
	g.op("bra %s", chunk)
	g.at(chunkEnd)
	g.op("bar.sync 0")
	// Flush, then the state's verdict on the rule.
	verdict := g.label("verdict")
	g.op("@!%s bra %s", c.live, verdict)
	if R.PendMask != 0 {
		g.fieldsPass(R.PendMask, true, c.s, c.lane, 32)
	}
	ek, bad := g.rd(), g.pr()
	g.op("ld.volatile.global.u64 %s, [%s]", ek, c.errKey)
	g.op("setp.ne.s64 %s, %s, -1", bad, ek)
	g.op("@!%s bra %s", bad, verdict)
	ruleReg := g.r()
	g.op("mov.u32 %s, %d", ruleReg, ri)
	g.op("@%s st.global.u32 [%s], %s", c.lane0, g.u32at(c.ptr["failed"], c.s), c.t)
	g.op("@%s st.global.u32 [%s], %s", c.lane0, g.u32at(c.ptr["err_rule"], c.s), ruleReg)
	g.op("setp.ne.u32 %s, 0, 0", c.live) // live = false
	g.at(verdict)
	g.countFired(c.ptr["fired"], c.first, blockFired, c.t, c.step0, ri)
	g.op("bar.warp.sync -1")
	return nil
}

// compactCondition evaluates the precondition of (index base + lane, the
// warp's state) on every lane: en is 1 where it holds; rel is the index
// less the rule's lo.
func (g *generator) compactCondition(c *compactRegs, R bytecode.Rule, base string) (rel, en string, err error) {
	i, key := "", ""
	i, rel, en, key = g.r(), g.r(), g.r(), g.rd()
	if g.wide {
		g.op("add.s32 %s, %s, %s", rel, base, c.lane)
		g.op("add.s32 %s, %s, %d", i, rel, R.Lo)
	} else {
		g.op("add.s32 %s, %s, %s", i, base, c.lane)
		g.op("sub.s32 %s, %s, %d", rel, i, R.Lo)
	}
	g.op("mov.u32 %s, 0", en)
	enabled, decided, fault := g.label("en"), g.label("decided"), g.label("cfault")
	g.op("@!%s bra %s", c.live, decided)
	if g.wide {
		g.op("setp.ge.u32 %s, %s, %s", c.p, rel, rangeCount(R))
	} else {
		g.op("setp.ge.s32 %s, %s, %d", c.p, i, R.Hi)
	}
	g.op("@%s bra %s", c.p, decided)
	if R.CondPC >= 0 {
		site := evalSite{s: c.s, i: i, rel: rel, key: key, fault: fault, enabled: enabled, disabled: decided}
		if g.wide {
			site.at = g.rd()
		}
		if err := g.eval(R.CondPC, site); err != nil {
			return "", "", err
		}
		g.at(fault)
		g.recordFault(c.errKey, c.ptr["err_pc"], c.s, key, site.at)
		g.op("bra %s", decided)
	}
	g.at(enabled)
	g.op("mov.u32 %s, 1", en)
	g.at(decided)
	return rel, en, nil
}

// compactPack appends the chunk's enabled (index, state) pairs to the
// block's waiting ones in shared memory: a ballot, the warp's inclusive
// offsets and the block's scan. total is the chunk's count, waiting the
// count before it.
func (g *generator) compactPack(c *compactRegs, rel, en string) (total, waiting string) {
	enp, ballot, cnt, offset := g.pr(), g.r(), g.r(), g.r()
	g.op("setp.ne.u32 %s, %s, 0", enp, en)
	g.op("vote.sync.ballot.b32 %s, %s, -1", ballot, enp)
	g.op("popc.b32 %s, %s", cnt, ballot)
	g.addCount(c.stateFired, cnt)
	g.op("and.b32 %s, %s, %s", cnt, ballot, c.leMask)
	g.op("popc.b32 %s, %s", offset, cnt)
	warpAt := g.r()
	g.op("shl.b32 %s, %s, 2", warpAt, c.warp)
	g.op("@%s st.shared.u32 [%s], %s", c.lane31, g.sharedAt("s_warp", warpAt), offset)
	g.op("bar.sync 0")
	noScan := g.label("noscan")
	g.op("@!%s bra %s", c.warp0, noScan)
	v, laneAt := g.r(), g.r()
	g.op("shl.b32 %s, %s, 2", laneAt, c.lane)
	g.op("mov.u32 %s, 0", v)
	g.op("setp.lt.u32 %s, %s, %d", c.p, c.lane, c.warps)
	g.op("@%s ld.shared.u32 %s, [%s]", c.p, v, g.sharedAt("s_warp", laneAt))
	for o := 1; o < 32; o <<= 1 {
		y, in := g.r(), g.pr()
		g.op("shfl.sync.up.b32 %s|%s, %s, %d, 0, -1", y, in, v, o)
		g.op("@%s add.s32 %s, %s, %s", in, v, v, y)
	}
	g.op("st.shared.u32 [%s], %s", g.sharedAt("s_warp", laneAt), v)
	g.at(noScan)
	g.op("bar.sync 0")
	prev := ""
	prev, total, waiting = g.r(), g.r(), g.r()
	g.op("@!%s ld.shared.u32 %s, [%s]", c.warp0, prev, g.sharedAt("s_warp", warpAt, -4))
	g.op("@!%s add.s32 %s, %s, %s", c.warp0, offset, offset, prev)
	g.op("ld.shared.u32 %s, [s_warp+124]", total)
	g.op("ld.shared.u32 %s, [s_waiting]", waiting)
	if g.wide {
		g.pairWide(enp, waiting, offset, rel, c.warp)
	} else {
		slot, pair := g.r(), g.r()
		g.op("add.s32 %s, %s, %s", slot, waiting, offset)
		g.op("sub.s32 %s, %s, 1", slot, slot)
		g.op("shl.b32 %s, %s, 2", slot, slot)
		g.op("shl.b32 %s, %s, 5", pair, rel)
		g.op("or.b32 %s, %s, %s", pair, pair, c.warp)
		g.op("@%s st.shared.u32 [%s], %s", enp, g.sharedAt("s_pairs", slot), pair)
	}
	g.op("bar.sync 0")
	return total, waiting
}

// compactRun runs the waiting consequences a full block at a time (and
// the rest after the range's last chunk), moving the pairs left over to
// the front; avail is how many still wait.
func (g *generator) compactRun(c *compactRegs, R bytecode.Rule, base, waiting, total string) (avail string, err error) {
	last, next := "", ""
	avail, last, next = g.r(), g.pr(), g.r()
	g.op("add.s32 %s, %s, %s", avail, waiting, total)
	g.op("add.s32 %s, %s, 32", next, base)
	if g.wide {
		g.op("setp.ge.u32 %s, %s, %s", last, next, rangeCount(R))
	} else {
		g.op("setp.ge.s32 %s, %s, %d", last, next, R.Hi)
	}
	run, runEnd := g.label("run"), g.label("runend")
	g.at(run)
	full, some := g.pr(), g.pr()
	g.op("setp.ge.s32 %s, %s, %d", full, avail, c.bs)
	g.op("setp.gt.s32 %s, %s, 0", some, avail)
	g.op("and.pred %s, %s, %s", some, some, last)
	g.op("or.pred %s, %s, %s", full, full, some)
	g.op("@!%s bra %s", full, runEnd)
	n, mine := g.r(), g.pr()
	g.op("min.s32 %s, %s, %d", n, avail, c.bs)
	g.op("setp.lt.s32 %s, %s, %s", mine, c.tid, n)
	done, bfault := g.label("bdone"), g.label("bfault")
	tidAt := g.r()
	g.op("shl.b32 %s, %s, %d", tidAt, c.tid, g.pairShift())
	g.op("@!%s bra %s", mine, done)
	var prel, cs, pi, bkey string
	if g.wide {
		prel, cs = g.unpairWide(tidAt, c.ctaBase)
		pi, bkey = g.r(), g.rd()
	} else {
		var pv string
		pv, prel, cs, pi, bkey = g.r(), g.r(), g.r(), g.r(), g.rd()
		g.op("ld.shared.u32 %s, [%s]", pv, g.sharedAt("s_pairs", tidAt))
		g.op("shr.u32 %s, %s, 5", prel, pv)
		g.op("and.b32 %s, %s, 31", cs, pv)
		g.op("add.s32 %s, %s, %s", cs, cs, c.ctaBase)
	}
	g.op("add.s32 %s, %s, %d", pi, prel, R.Lo)
	site := evalSite{s: cs, i: pi, rel: prel, key: bkey, fault: bfault, enabled: done}
	if g.wide {
		site.at = g.rd()
	}
	if err := g.eval(R.BodyPC, site); err != nil {
		return "", err
	}
	g.at(bfault)
	ka := g.rd()
	g.op("mad.wide.u32 %s, %s, 8, %s", ka, cs, c.ptr["err_key"])
	g.recordFault(ka, c.ptr["err_pc"], cs, bkey, site.at)
	g.at(done)
	g.op("bar.sync 0")
	rest, keep := g.r(), g.pr()
	var moved string
	if g.wide {
		moved = g.rd()
		g.op("sub.s32 %s, %s, %s", rest, avail, n)
		g.op("mov.u64 %s, 0", moved)
	} else {
		moved = g.r()
		g.op("sub.s32 %s, %s, %s", rest, avail, n)
		g.op("mov.u32 %s, 0", moved)
	}
	g.op("setp.lt.s32 %s, %s, %s", keep, c.tid, rest)
	from := g.r()
	g.op("add.s32 %s, %s, %s", from, n, c.tid)
	g.op("shl.b32 %s, %s, %d", from, from, g.pairShift())
	ps := map[bool]string{false: "u32", true: "u64"}[g.wide]
	g.op("@%s ld.shared.%s %s, [%s]", keep, ps, moved, g.sharedAt("s_pairs", from))
	g.op("bar.sync 0")
	g.op("@%s st.shared.%s [%s], %s", keep, ps, g.sharedAt("s_pairs", tidAt), moved)
	g.op("mov.u32 %s, %s", avail, rest)
	g.op("bar.sync 0")
	g.op("bra %s", run)
	g.at(runEnd)
	return avail, nil
}

// sharedAt returns a register holding the shared-memory address of the
// byte offset off (a b32 register) plus delta into the array name.
func (g *generator) sharedAt(name, off string, delta ...int) string {
	a := g.r()
	g.op("mov.u32 %s, %s", a, name)
	g.op("add.s32 %s, %s, %s", a, a, off)
	for _, d := range delta {
		g.op("add.s32 %s, %s, %d", a, a, d)
	}
	return a
}
