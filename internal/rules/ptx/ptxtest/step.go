package ptxtest

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

func ef(v uint64) float32 { return math.Float32frombits(uint32(v)) }
func eu(f float32) uint64 { return uint64(math.Float32bits(f)) }

// step executes one instruction of t (or marks it waiting at a collective).
func (b *block) step(t *thread) {
	if t.pc >= len(b.k.insts) {
		panic("ran off the kernel")
	}
	in := b.k.insts[t.pc]
	if in.pred != "" && (t.regs[in.pred] != 0) == in.neg {
		t.pc++
		return
	}
	op, a := in.op, in.args
	if strings.HasPrefix(op, "bar.") || strings.HasPrefix(op, "shfl.") || strings.HasPrefix(op, "vote.") {
		t.waiting = true
		return
	}
	v := func(k int) uint64 { return b.val(t, a[k]) }
	s32 := func(k int) int32 { return int32(uint32(v(k))) }
	set := func(x uint64) { t.regs[a[0]] = x }
	set32 := func(x uint32) { t.regs[a[0]] = uint64(x) }
	t.pc++
	switch op {
	case "bra":
		t.pc = b.k.labels[a[0]]
	case "ret":
		t.done = true
	case "mov.u32", "mov.b32":
		set32(uint32(v(1)))
	case "mov.u64":
		set(v(1))
	case "mov.b64":
		if !strings.HasPrefix(a[1], "{") {
			set(v(1))
			break
		}
		parts := splitArgs(strings.Trim(a[1], "{}"))
		set(uint64(uint32(b.val(t, parts[0]))) | uint64(uint32(b.val(t, parts[1])))<<32)
	case "mul.lo.s64":
		set(v(1) * v(2))
	case "shr.u64":
		set(v(1) >> min(v(2), 64))
	case "xor.b64":
		set(v(1) ^ v(2))
	case "or.b64":
		set(v(1) | v(2))
	case "mul.hi.u32":
		set32(uint32(uint64(uint32(v(1))) * uint64(uint32(v(2))) >> 32))
	case "cvt.rn.f32.u32":
		set(eu(float32(uint32(v(1)))))
	case "ld.param.u64", "ld.param.u32":
		set(b.params[strings.Trim(a[1], "[]")])
	case "cvta.to.global.u64":
		set(v(1))
	case "cvt.u64.u32":
		set(uint64(uint32(v(1))))
	case "cvt.u32.u64":
		set32(uint32(v(1)))
	case "mul.wide.u32":
		set(uint64(uint32(v(1))) * uint64(uint32(v(2))))
	case "mad.wide.u32":
		set(uint64(uint32(v(1)))*uint64(uint32(v(2))) + v(3))
	case "mad.lo.s64":
		set(v(1)*v(2) + v(3))
	case "add.s64":
		set(v(1) + v(2))
	case "shl.b64":
		set(v(1) << v(2))
	case "mad.lo.s32":
		set32(uint32(v(1))*uint32(v(2)) + uint32(v(3)))
	case "add.s32":
		set32(uint32(v(1)) + uint32(v(2)))
	case "sub.s32":
		set32(uint32(v(1)) - uint32(v(2)))
	case "mul.lo.s32":
		set32(uint32(v(1)) * uint32(v(2)))
	case "div.s32":
		if s32(2) == 0 || (s32(2) == -1 && s32(1) == math.MinInt32) {
			set32(0xdeadbeef) // undefined in PTX; the generator selects another value
		} else {
			set32(uint32(s32(1) / s32(2)))
		}
	case "rem.s32":
		set32(uint32(s32(1) % s32(2)))
	case "and.b32":
		set32(uint32(v(1)) & uint32(v(2)))
	case "or.b32":
		set32(uint32(v(1)) | uint32(v(2)))
	case "xor.b32":
		set32(uint32(v(1)) ^ uint32(v(2)))
	case "not.b32":
		set32(^uint32(v(1)))
	case "neg.s32":
		set32(-uint32(v(1)))
	case "shl.b32":
		set32(uint32(v(1)) << min(uint32(v(2)), 32))
	case "shr.u32":
		set32(uint32(v(1)) >> min(uint32(v(2)), 32))
	case "shr.s32":
		set32(uint32(s32(1) >> min(uint32(v(2)), 31)))
	case "min.s32":
		set32(uint32(min(s32(1), s32(2))))
	case "max.s32":
		set32(uint32(max(s32(1), s32(2))))
	case "popc.b32":
		set32(uint32(bits.OnesCount32(uint32(v(1)))))
	case "and.pred":
		set(v(1) & v(2))
	case "or.pred":
		set(v(1) | v(2))
	case "selp.u32", "selp.b32":
		if v(3) != 0 {
			set32(uint32(v(1)))
		} else {
			set32(uint32(v(2)))
		}
	case "add.rn.f32":
		set(eu(ef(v(1)) + ef(v(2))))
	case "sub.rn.f32":
		set(eu(ef(v(1)) - ef(v(2))))
	case "mul.rn.f32":
		set(eu(ef(v(1)) * ef(v(2))))
	case "div.rn.f32":
		set(eu(ef(v(1)) / ef(v(2))))
	case "sqrt.rn.f32":
		set(eu(float32(math.Sqrt(float64(ef(v(1)))))))
	case "cvt.rn.f32.s32":
		set(eu(float32(s32(1))))
	case "cvt.rzi.s32.f32":
		set32(uint32(bytecode.F2I(ef(v(1)))))
	case "ld.global.u32", "ld.global.u64", "ld.volatile.global.u64":
		set(b.mem.load(b.addr(t, a[1]), emuSize(op)))
	case "st.global.u32", "st.global.u64":
		b.mem.store(b.addr(t, a[0]), emuSize(op), v(1))
	case "red.global.add.u32":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 4, uint64(uint32(b.mem.load(ad, 4))+uint32(v(1))))
	case "red.global.add.f32":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 4, eu(ef(b.mem.load(ad, 4))+ef(v(1))))
	case "red.global.add.u64":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 8, b.mem.load(ad, 8)+v(1))
	case "red.global.max.u64":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 8, max(b.mem.load(ad, 8), v(1)))
	case "red.global.min.u64":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 8, min(b.mem.load(ad, 8), v(1)))
	case "ld.shared.u32":
		set32(*b.sharedWord(b.addr(t, a[1])))
	case "st.shared.u32":
		*b.sharedWord(b.addr(t, a[0])) = uint32(v(1))
	case "ld.shared.u64":
		ad := b.addr(t, a[1])
		if ad%8 != 0 {
			panic(fmt.Sprintf("emu: misaligned shared u64 at %d", ad))
		}
		set(uint64(*b.sharedWord(ad)) | uint64(*b.sharedWord(ad + 4))<<32)
	case "st.shared.u64":
		ad := b.addr(t, a[0])
		if ad%8 != 0 {
			panic(fmt.Sprintf("emu: misaligned shared u64 at %d", ad))
		}
		*b.sharedWord(ad), *b.sharedWord(ad + 4) = uint32(v(1)), uint32(v(1)>>32)
	case "atom.global.max.u64": // d, [a], b: d = old
		ad := b.addr(t, a[1])
		old := b.mem.load(ad, 8)
		b.mem.store(ad, 8, max(old, v(2)))
		set(old)
	case "atom.global.cas.b64": // d, [a], cmp, new
		ad := b.addr(t, a[1])
		old := b.mem.load(ad, 8)
		if old == v(2) {
			b.mem.store(ad, 8, v(3))
		}
		set(old)
	case "red.shared.add.u32":
		*b.sharedWord(b.addr(t, a[0])) += uint32(v(1))
	default:
		if strings.HasPrefix(op, "setp.") {
			set(b2u64(emuCompare(op, v(1), v(2))))
			return
		}
		panic("emu: unknown instruction " + op)
	}
}

func emuCompare(op string, x, y uint64) bool {
	f := strings.Split(op, ".")
	cmp, typ := f[1], f[2]
	var c int // -1, 0, 1; 2: unordered
	switch typ {
	case "u32":
		c = cmp3(uint32(x) < uint32(y), uint32(x) == uint32(y))
	case "s32":
		c = cmp3(int32(uint32(x)) < int32(uint32(y)), uint32(x) == uint32(y))
	case "u64":
		c = cmp3(x < y, x == y)
	case "s64":
		c = cmp3(int64(x) < int64(y), x == y)
	case "f32":
		a, b := ef(x), ef(y)
		if a != a || b != b {
			c = 2
		} else {
			c = cmp3(a < b, a == b)
		}
	default:
		panic("emu: compare type " + typ)
	}
	switch cmp {
	case "eq":
		return c == 0
	case "ne":
		return c == -1 || c == 1
	case "neu":
		return c != 0
	case "lt":
		return c == -1
	case "le":
		return c == -1 || c == 0
	case "gt":
		return c == 1
	case "ge":
		return c == 1 || c == 0
	}
	panic("emu: compare " + cmp)
}

func cmp3(lt, eq bool) int {
	switch {
	case lt:
		return -1
	case eq:
		return 0
	}
	return 1
}

func emuSize(op string) int {
	if strings.HasSuffix(op, "64") {
		return 8
	}
	return 4
}
