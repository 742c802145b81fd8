package ptx

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// The draws of rules/bytecode (rand.go) in generated PTX: rng.Hash64 in 64-bit integer
// arithmetic, keyed as rules_draw in cuda/rules.cu. Kernels of a program
// with draws take two more parameters, seed (u64) and first_state (u32);
// the step's key is hashed at the top of the step loop, the rule's at the
// rule's start, the state's and the index's at each draw.

// s64 spells a 64-bit constant as the signed immediate PTX takes.
func s64(u uint64) int64 { return int64(u) }

// hash64 emits rng.Hash64(seed, counter) (b64 registers or immediates)
// into a fresh b64 register.
func (g *generator) hash64(seed, counter string) string {
	z, t := g.rd(), g.rd()
	g.op("add.s64 %s, %s, 1", t, counter)
	g.op("mad.lo.s64 %s, %s, %d, %s", z, t, s64(0x9E3779B97F4A7C15), seed)
	g.op("shr.u64 %s, %s, 30", t, z)
	g.op("xor.b64 %s, %s, %s", z, z, t)
	g.op("mul.lo.s64 %s, %s, %d", z, z, s64(0xBF58476D1CE4E5B9))
	g.op("shr.u64 %s, %s, 27", t, z)
	g.op("xor.b64 %s, %s, %s", z, z, t)
	g.op("mul.lo.s64 %s, %s, %d", z, z, s64(0x94D049BB133111EB))
	g.op("shr.u64 %s, %s, 31", t, z)
	g.op("xor.b64 %s, %s, %s", z, z, t)
	return z
}

// drawParams loads the draws' parameters (programs with draws only).
func (g *generator) drawParams(kernel string) {
	if !g.p.Draws {
		return
	}
	g.seed, g.first, g.firstStep = g.rd(), g.r(), g.r()
	g.op("ld.param.u64 %s, [%s_seed]", g.seed, kernel)
	g.op("ld.param.u32 %s, [%s_first_state]", g.first, kernel)
	g.op("ld.param.u32 %s, [%s_first_step]", g.firstStep, kernel)
}

// stepDraws hashes step t (a b32 register) into the step's key.
func (g *generator) stepDraws(t string) {
	if !g.p.Draws {
		return
	}
	t64, tt := g.rd(), g.r()
	g.op("add.s32 %s, %s, %s", tt, g.firstStep, t)
	g.op("cvt.u64.u32 %s, %s", t64, tt)
	g.tkey = g.hash64(g.seed, t64)
}

// ruleDraws hashes rule ri into the rule's key.
func (g *generator) ruleDraws(ri int) {
	if !g.p.Draws {
		return
	}
	r := g.rd()
	g.op("mov.b64 %s, %d", r, ri)
	g.rkey = g.hash64(g.tkey, r)
}

// draw emits OpRAND or OpRANDF: state s, index q0, site c, k in q(b) (or 0).
func (g *generator) draw(op, a, b, c int, s string) {
	st, st64 := g.r(), g.rd()
	g.op("add.s32 %s, %s, %s", st, g.first, s)
	g.op("cvt.u64.u32 %s, %s", st64, st)
	sk := g.hash64(g.rkey, st64)
	i64 := g.rd()
	g.op("cvt.u64.u32 %s, %s", i64, q(0))
	ik := g.hash64(sk, i64)
	ctr := g.rd()
	if b == bytecode.NoReg {
		g.op("mov.b64 %s, %d", ctr, int64(c)<<32)
	} else {
		g.op("cvt.u64.u32 %s, %s", ctr, q(b))
		g.op("or.b64 %s, %s, %d", ctr, ctr, int64(c)<<32)
	}
	bits := g.hash64(ik, ctr)
	if op == bytecode.OpRAND {
		g.op("shr.u64 %s, %s, 32", bits, bits)
		g.op("cvt.u32.u64 %s, %s", q(a), bits)
		return
	}
	// rng.Float32: the top 24 bits times 2^-24, both exact in float32.
	g.op("shr.u64 %s, %s, 40", bits, bits)
	top, scale := g.r(), g.r()
	g.op("cvt.u32.u64 %s, %s", top, bits)
	g.op("cvt.rn.f32.u32 %s, %s", top, top)
	g.op("mov.b32 %s, %d", scale, 0x33800000)
	g.op("mul.rn.f32 %s, %s, %s", q(a), top, scale)
}

// urange emits OpURANGE: q(a) = q(c) == 0 ? q(b) : hi32(q(b) * q(c)).
func (g *generator) URange(a, b, c int) {
	hi, z := g.r(), g.pr()
	g.op("mul.hi.u32 %s, %s, %s", hi, q(b), q(c))
	g.op("setp.eq.u32 %s, %s, 0", z, q(c))
	g.op("selp.b32 %s, %s, %s, %s", q(a), q(b), hi, z)
}
