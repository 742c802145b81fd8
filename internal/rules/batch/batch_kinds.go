package batch

import (
	"math/bits"
	"sort"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Register kinds. A batch's indices are consecutive, and much of what a
// rule computes from its index is the same in every lane (a board's row,
// its offsets) or steps by the same amount from lane to lane (the column,
// the cell's own index). Such a register is kept as two numbers, its value
// in lane 0 and its stride, instead of 256: arithmetic on it costs one
// operation, not one per lane, and a load through a stride-1 index is one
// copy. A register is written out as lanes only when an instruction needs
// its lanes (materialize). Only instructions that all the batch's lanes
// run together take the short way: a register that some lanes write and
// others do not is lanes.

// regMasks returns, per instruction, the registers it reads and writes
// (the if-converted ANDB and ORB read the register they write).
func regMasks(code []uint32) (reads, writes []uint32) {
	reads, writes = make([]uint32, len(code)), make([]uint32, len(code))
	for pc := 0; pc < len(code); pc++ {
		op, a, b, _ := bytecode.Decode(code[pc])
		if op == OpANDB || op == OpORB {
			reads[pc], writes[pc] = 1<<(a&31)|1<<(b&31), 1<<(a&31)
			continue
		}
		r, w, _ := bytecode.RegOperands(code[pc])
		reads[pc], writes[pc] = bytecode.RegMask(r), bytecode.RegMask(w)
		if bytecode.HasImm(op) {
			pc++
		}
	}
	return reads, writes
}

// aval is a register kept as numbers: lanes [0, j) hold b + s*lane and
// lanes [j, n) hold b2 + s*(lane-j); j == 0: one piece. Two pieces are
// what a column (k % W) or a row (k / W) becomes where a batch crosses the
// board's edge, and what the wrapped neighbours ((x - 1) % W) are.
type aval struct {
	b, s, b2 uint32
	j        int
}

// at is the value in lane i.
func (v aval) at(i int) uint32 {
	if v.j > 0 && i >= v.j {
		return v.b2 + v.s*uint32(i-v.j)
	}
	return v.b + v.s*uint32(i)
}

// setAffine makes register r hold base + stride*lane.
func (b *Eval) setAffine(r int, base, stride uint32) {
	b.set(r, aval{b: base, s: stride})
}

func (b *Eval) set(r int, v aval) {
	b.av[r&31] = v
	b.aff |= 1 << (r & 31)
	b.bit &^= 1 << (r & 31)
}

// value returns register r (or, for c operands folded to a constant, the
// constant k >= 0) when it is kept as numbers.
func (b *Eval) value(r int, k int64) (aval, bool) {
	if k >= 0 {
		return aval{b: uint32(k)}, true
	}
	if r == bytecode.NoReg || b.aff&(1<<(r&31)) == 0 {
		return aval{}, false
	}
	return b.av[r&31], true
}

// operand returns register r's base and stride when it is kept as one
// piece (or the folded constant k >= 0).
func (b *Eval) operand(r int, k int64) (base, stride uint32, ok bool) {
	v, ok := b.value(r, k)
	if !ok || v.j != 0 {
		return 0, 0, false
	}
	return v.b, v.s, true
}

// materialize writes the registers of mask out as lanes.
func (b *Eval) materialize(mask uint32) {
	for m := mask & b.bit; m != 0; m &= m - 1 {
		r := bits.TrailingZeros32(m)
		expandBits(b.r[r][:b.n], &b.bv[r])
	}
	b.bit &^= mask
	for m := mask & b.aff; m != 0; m &= m - 1 {
		r := 0
		for ; m&(1<<r) == 0; r++ {
		}
		v := b.av[r]
		d := b.r[r][:b.n]
		j := len(d)
		if v.j > 0 && v.j < j {
			j = v.j
		}
		x := v.b
		for i := range d[:j] {
			d[i] = x
			x += v.s
		}
		x = v.b2
		for i := j; i < len(d); i++ {
			d[i] = x
			x += v.s
		}
	}
	b.aff &^= mask
}

// span returns the int32 values of a stride register in lanes 0 and n-1,
// false when they wrap around int32 between them.
func span(base, stride uint32, n int) (lo, hi int64, ok bool) {
	v0 := int64(int32(base))
	vn := v0 + int64(int32(stride))*int64(n-1)
	if vn < -1<<31 || vn >= 1<<31 {
		return 0, 0, false
	}
	return v0, vn, true
}

// floorDiv is v / k rounded down, k > 0.
func floorDiv(v, k int64) int64 {
	q := v / k
	if v%k != 0 && v < 0 {
		q--
	}
	return q
}

// arith combines two registers kept as numbers lane by lane with a
// function affine in each (a sum or a difference): the pieces must split
// at the same lane.
func arith(x, y aval, f func(u, v uint32) uint32) (aval, bool) {
	if x.j != 0 && y.j != 0 && x.j != y.j {
		return aval{}, false
	}
	r := aval{b: f(x.b, y.b), s: f(x.s, y.s), j: max(x.j, y.j)}
	if r.j > 0 {
		r.b2 = f(x.at(r.j), y.at(r.j))
	}
	return r, true
}

func add(u, v uint32) uint32 { return u + v }
func sub(u, v uint32) uint32 { return u - v }

// divide is x / k (IDIV) or x mod k (IMOD) for one-piece x and a constant
// k != 0: one or two pieces, false for more.
func (b *Eval) divide(op int, x, xs, k uint32) (aval, bool) {
	lo, hi, ok := span(x, xs, b.n)
	if !ok {
		return aval{}, false
	}
	m := int64(int32(k))
	if m < 0 {
		m = -m
	}
	// Both are monotonic in the value, so in the lane: a piece is a run
	// of lanes with one quotient.
	piece := func(v int64) int64 {
		if op == bytecode.OpIDIV {
			return int64(bytecode.IDiv(int32(v), int32(k)))
		}
		return floorDiv(v, m)
	}
	val := func(v int64) uint32 {
		if op == bytecode.OpIDIV {
			return uint32(bytecode.IDiv(int32(v), int32(k)))
		}
		return uint32(bytecode.IMod(int32(v), int32(k)))
	}
	stride := xs
	if op == bytecode.OpIDIV {
		stride = 0
	}
	p0, pn := piece(lo), piece(hi)
	if p0 == pn {
		return aval{b: val(lo), s: stride}, true
	}
	s := int64(int32(xs))
	lane := func(i int) int64 { return lo + s*int64(i) }
	j := sort.Search(b.n, func(i int) bool { return piece(lane(i)) != p0 })
	if j <= 0 || j >= b.n || piece(lane(j)) != pn {
		return aval{}, false
	}
	return aval{b: val(lo), s: stride, b2: val(lane(j)), j: j}, true
}

// affine runs the instruction at pc the short way when all the batch's
// lanes run it and its operands allow; it returns the next pc, or -1 when
// the instruction must run lane by lane.
func (b *Eval) affine(pc, op, a, ib, c int) int {
	code := b.p.Code
	switch op {
	case bytecode.OpLDI:
		b.setAffine(a&31, code[pc+1], 0)
		return pc + 2
	case bytecode.OpMOV:
		if v, ok := b.value(ib, -1); ok {
			b.set(a, v)
			return pc + 1
		}
	case bytecode.OpJZ:
		if x, s, ok := b.operand(a, -1); ok && s == 0 {
			if x == 0 {
				return int(code[pc+1])
			}
			return pc + 2
		}
	case bytecode.OpLOOP:
		if x, s, ok := b.operand(a, -1); ok && s == 0 {
			b.av[a&31].b = x - 1
			if int32(x-1) > 0 {
				return int(code[pc+1])
			}
			return pc + 2
		}
	case bytecode.OpLD, bytecode.OpLDS:
		return b.affineLoad(pc, op, a, ib, c)
	case bytecode.OpIADD, bytecode.OpISUB, bytecode.OpIMUL:
		x, ok1 := b.value(ib, -1)
		y, ok2 := b.value(c, b.ky[pc])
		if !ok1 || !ok2 {
			return -1
		}
		var r aval
		ok := true
		switch {
		case op == bytecode.OpIADD:
			r, ok = arith(x, y, add)
		case op == bytecode.OpISUB:
			r, ok = arith(x, y, sub)
		case y.s == 0 && y.j == 0:
			r = aval{b: x.b * y.b, s: x.s * y.b, b2: x.b2 * y.b, j: x.j}
		case x.s == 0 && x.j == 0:
			r = aval{b: y.b * x.b, s: y.s * x.b, b2: y.b2 * x.b, j: y.j}
		default:
			ok = false
		}
		if !ok {
			return -1
		}
		b.set(a, r)
		return pc + 1
	case bytecode.OpIDIV, bytecode.OpIMOD:
		x, xs, ok1 := b.operand(ib, -1)
		k, ks, ok2 := b.operand(c, b.ky[pc])
		if !ok1 || !ok2 || ks != 0 || k == 0 {
			return -1
		}
		r, ok := b.divide(op, x, xs, k)
		if !ok {
			return -1
		}
		b.set(a, r)
		return pc + 1
	default:
		if op < bytecode.OpIADD || op >= bytecode.OpCount {
			return -1
		}
		// Any other operation on values the same in every lane: once.
		x, xs, ok1 := b.operand(ib, -1)
		if !ok1 || xs != 0 {
			return -1
		}
		X, D := &b.scr[0], &b.scr[2]
		X[0] = x
		one := b.one[:]
		if (op >= bytecode.OpINEG && op <= bytecode.OpBOOL) || (op >= bytecode.OpFNEG && op <= bytecode.OpF2I) {
			if !batchUnary(op, D, X, one, 1) {
				return -1
			}
		} else {
			y, ys, ok2 := b.operand(c, b.ky[pc])
			if !ok2 || ys != 0 || op == bytecode.OpIDIV || op == bytecode.OpIMOD {
				return -1
			}
			Y := &b.scr[1]
			Y[0] = y
			if !batchBinary(op, D, X, Y, one, 1) {
				return -1
			}
		}
		b.setAffine(a&31, D[0], 0)
		return pc + 1
	}
	return -1
}

// window returns, per piece of an index kept as numbers, the words of
// field fi that a load reads in its lanes: one word (stride 0) or one per
// lane (stride 1); false for other strides or out of range.
func (b *Eval) window(op, fi int, v aval) (w1, w2 []uint32, ok bool) {
	f := &b.p.Fields[fi]
	src := b.cur
	if op == bytecode.OpLDS {
		src = b.snap
	}
	fld := src[f.Off : f.Off+f.Size]
	if v.s > 1 {
		return nil, nil, false
	}
	piece := func(base uint32, n int) ([]uint32, bool) {
		lo, hi, ok := span(base, v.s, n)
		if !ok || lo < 0 || hi >= int64(len(fld)) {
			return nil, false
		}
		return fld[lo : hi+1], true
	}
	if v.j == 0 {
		w1, ok = piece(v.b, b.n)
		return w1, nil, ok
	}
	if w1, ok = piece(v.b, v.j); !ok {
		return nil, nil, false
	}
	w2, ok = piece(v.b2, b.n-v.j)
	return w1, w2, ok
}

// loaded sets register a to what a load through index v read (w1, w2).
func (b *Eval) loaded(a int, v aval, w1, w2 []uint32) {
	if v.s == 0 {
		r := aval{b: w1[0], j: v.j}
		if v.j > 0 {
			r.b2 = w2[0]
		}
		b.set(a, r)
		return
	}
	d := b.r[a&31][:b.n]
	copy(d, w1)
	copy(d[len(w1):], w2)
	b.toLanes(1 << (a & 31))
}

func (b *Eval) affineLoad(pc, op, a, ib, fi int) int {
	var v aval
	if ib != bytecode.NoReg {
		var ok bool
		if v, ok = b.value(ib, -1); !ok {
			return -1
		}
	}
	w1, w2, ok := b.window(op, fi, v)
	if !ok {
		return -1
	}
	b.loaded(a, v, w1, w2)
	return pc + 1
}

// affineFused is a fused stencil load (IADD, load and perhaps the IADD
// accumulating it) whose index is kept as numbers: copies or adds of
// consecutive words, no bounds test per lane.
func (b *Eval) affineFused(pc int) int {
	code := b.p.Code
	_, a, ib, c := bytecode.Decode(code[pc])
	op2, _, _, fi := bytecode.Decode(code[pc+1])
	x, ok1 := b.value(ib, -1)
	y, ok2 := b.value(c, b.ky[pc])
	if !ok1 || !ok2 {
		return -1
	}
	v, ok := arith(x, y, add)
	if !ok {
		return -1
	}
	w1, w2, ok := b.window(op2, fi, v)
	if !ok {
		return -1
	}
	r := int(b.acc[pc])
	if r < 0 {
		b.loaded(a, v, w1, w2)
		return pc + 2
	}
	// acc += field[...]; the loaded register is dead.
	b.toLanes(1 << (a & 31))
	if v.s == 0 {
		t := aval{b: w1[0], j: v.j}
		if v.j > 0 {
			t.b2 = w2[0]
		}
		if A, ok := b.value(r, -1); ok {
			if sum, ok := arith(A, t, add); ok {
				b.set(r, sum)
				return pc + 3
			}
		}
		b.materialize(1 << r)
		A := b.r[r][:b.n]
		for i := range A {
			A[i] += t.at(i)
		}
		return pc + 3
	}
	b.materialize(1 << r)
	return b.stencilSum(pc, r, v.j, w1, w2)
}

// constOperand returns the constant the second operand of the binary
// instruction at pc holds in every lane (k when folded already) and the
// register it is read from (-1 when it need not be read), or k = -1. A
// commutative IADD whose first operand is the constant swaps them (ib).
func (b *Eval) constOperand(pc, op int, ib *int, c int, k int64) (int64, int) {
	if k >= 0 {
		if c == *ib || (op == bytecode.OpIDIV || op == bytecode.OpIMOD) && int32(k) == 0 {
			return k, -1 // read as lanes too (a division by 0 faults lane by lane)
		}
		return k, c
	}
	if op < bytecode.OpIADD || op >= bytecode.OpCount || (op >= bytecode.OpINEG && op <= bytecode.OpBOOL) || (op >= bytecode.OpFNEG && op <= bytecode.OpF2I) {
		return -1, -1
	}
	if y, ys, ok := b.operand(c, -1); ok && ys == 0 && c != *ib {
		if (op == bytecode.OpIDIV || op == bytecode.OpIMOD) && int32(y) == 0 {
			return -1, -1 // the lanes fault: the slow way names them
		}
		return int64(y), c
	}
	if op != bytecode.OpIADD || *ib == c {
		return -1, -1
	}
	if x, xs, ok := b.operand(*ib, -1); ok && xs == 0 {
		r := *ib
		*ib = c
		return int64(x), r
	}
	return -1, -1
}
