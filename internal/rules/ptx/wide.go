package ptx

import (
	"fmt"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// The wide encodings (encoding.go) in the generated kernels: what differs
// from the narrow ones, which stay as they were for programs that fit them.

// pendingWide is a pending write of value (b32) by the thread at rel to
// the 64-bit word at a: atomicMax of (rel+1)<<32 | value; when the word held
// this thread's own earlier write with a larger value, a compare-and-swap
// puts the later write in (it fails, rightly, once a higher rel wrote).
func (g *generator) pendingWide(value, rel, a string) {
	hi, k, prev, t := g.r(), g.rd(), g.rd(), g.rd()
	ph, pl, own, gt := g.r(), g.r(), g.pr(), g.pr()
	g.op("add.s32 %s, %s, 1", hi, rel)
	g.op("mov.b64 %s, {%s, %s}", k, value, hi)
	g.op("atom.global.max.u64 %s, [%s], %s", prev, a, k)
	g.op("cvt.u32.u64 %s, %s", pl, prev)
	g.op("shr.u64 %s, %s, 32", t, prev)
	g.op("cvt.u32.u64 %s, %s", ph, t)
	g.op("setp.eq.u32 %s, %s, %s", own, ph, hi)
	g.op("setp.gt.u32 %s, %s, %s", gt, pl, value)
	g.op("and.pred %s, %s, %s", own, own, gt)
	old := g.rd()
	g.op("@%s atom.global.cas.b64 %s, [%s], %s, %s", own, old, a, prev, k)
}

// faultStubsWide writes the fault paths: key = rel<<32 | uint32(value),
// at = rel<<32 | pc (rules_fault_set in cuda/rules.cu).
func (g *generator) faultStubsWide(stubs []faultStub, site evalSite) {
	for _, f := range stubs {
		g.at(f.label)
		v := f.value
		if !strings.HasPrefix(v, "%") {
			v = g.r()
			g.op("mov.b32 %s, %s", v, f.value)
		}
		pc := g.r()
		g.op("mov.u32 %s, %d", pc, f.pc)
		g.op("mov.b64 %s, {%s, %s}", site.key, v, site.rel)
		g.op("mov.b64 %s, {%s, %s}", site.at, pc, site.rel)
		g.op("bra %s", site.fault)
	}
}

// recordFault keeps state s's lowest fault: atomicMin of key into
// err_key[s] (at the address errKey) and, wide, of at into err_pc[s].
func (g *generator) recordFault(errKey, errPCs, s, key, at string) {
	g.op("red.global.min.u64 [%s], %s", errKey, key)
	if g.wide {
		a := g.rd()
		g.op("mad.wide.u32 %s, %s, 8, %s", a, s, errPCs)
		g.op("red.global.min.u64 [%s], %s", a, at)
	}
}

// rangeCount is rule r's number of indices as a PTX u32 immediate (up to
// 2^31: the wide loops count rel in uint32, the index being lo + rel).
func rangeCount(r bytecode.Rule) string { return fmt.Sprint(uint32(r.Hi - r.Lo)) }

// addCount adds the b32 count n to the firing counter acc: b32 (narrow) or
// b64 (wide).
func (g *generator) addCount(acc, n string) {
	if !strings.HasPrefix(acc, "%rd") {
		g.op("add.s32 %s, %s, %s", acc, acc, n)
		return
	}
	n64 := g.rd()
	g.op("cvt.u64.u32 %s, %s", n64, n)
	g.op("add.s64 %s, %s, %s", acc, acc, n64)
}

// counter returns a zeroed firing counter: b32, or b64 in the wide kernels.
func (g *generator) counter() string {
	if g.wide {
		c := g.rd()
		g.op("mov.u64 %s, 0", c)
		return c
	}
	c := g.r()
	g.op("mov.u32 %s, 0", c)
	return c
}

// countFired64 is countFired of a b64 count.
func (g *generator) countFired64(fired, who, n, t, step0 string, ri int) {
	p, slot := g.pr(), g.r()
	g.op("setp.ne.s64 %s, %s, 0", p, n)
	g.op("and.pred %s, %s, %s", p, p, who)
	g.op("sub.s32 %s, %s, %s", slot, t, step0)
	g.op("sub.s32 %s, %s, 1", slot, slot)
	g.op("mad.lo.s32 %s, %s, %d, %d", slot, slot, len(g.p.Rules), ri)
	a := g.rd()
	g.op("mad.wide.u32 %s, %s, 8, %s", a, slot, fired)
	g.op("@%s red.global.add.u64 [%s], %s", p, a, n)
}

// pairShift is log2 of a compacted pair's bytes: 4 (narrow) or 8 (wide).
func (g *generator) pairShift() int {
	if g.wide {
		return 3
	}
	return 2
}

// pairWide stores (where en holds) the pair rel<<5 | warp, 64 bits, at
// s_pairs[waiting + offset - 1].
func (g *generator) pairWide(en, waiting, offset, rel, warp string) {
	slot, pair, w := g.r(), g.rd(), g.rd()
	g.op("add.s32 %s, %s, %s", slot, waiting, offset)
	g.op("sub.s32 %s, %s, 1", slot, slot)
	g.op("shl.b32 %s, %s, 3", slot, slot)
	g.op("cvt.u64.u32 %s, %s", pair, rel)
	g.op("shl.b64 %s, %s, 5", pair, pair)
	g.op("cvt.u64.u32 %s, %s", w, warp)
	g.op("or.b64 %s, %s, %s", pair, pair, w)
	g.op("@%s st.shared.u64 [%s], %s", en, g.sharedAt("s_pairs", slot), pair)
}

// unpairWide loads the 64-bit pair at byte offset at of s_pairs and
// returns its rel and its state (ctaBase + warp), b32 registers.
func (g *generator) unpairWide(at, ctaBase string) (rel, s string) {
	pv, t := g.rd(), g.rd()
	rel, s = g.r(), g.r()
	g.op("ld.shared.u64 %s, [%s]", pv, g.sharedAt("s_pairs", at))
	g.op("shr.u64 %s, %s, 5", t, pv)
	g.op("cvt.u32.u64 %s, %s", rel, t)
	g.op("cvt.u32.u64 %s, %s", s, pv)
	g.op("and.b32 %s, %s, 31", s, s)
	g.op("add.s32 %s, %s, %s", s, s, ctaBase)
	return rel, s
}
