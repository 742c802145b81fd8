package rules

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

// regMasks returns, per instruction, the registers it reads and writes.
func regMasks(p *Program) (reads, writes []uint32) {
	reads, writes = make([]uint32, len(p.Code)), make([]uint32, len(p.Code))
	for pc := 0; pc < len(p.Code); pc++ {
		r, w, _ := regOperands(p.Code[pc])
		reads[pc], writes[pc] = regMask(r), regMask(w)
		if hasImm(int(p.Code[pc] & 255)) {
			pc++
		}
	}
	return reads, writes
}

// setAffine makes register r hold base + stride*lane.
func (b *batchEval) setAffine(r int, base, stride uint32) {
	b.kb[r], b.ks[r] = base, stride
	b.aff |= 1 << r
}

// operand returns register r's base and stride when it is kept as two
// numbers (or, for c operands folded to a constant, the constant k >= 0).
func (b *batchEval) operand(r int, k int64) (base, stride uint32, ok bool) {
	if k >= 0 {
		return uint32(k), 0, true
	}
	if r == noReg || b.aff&(1<<(r&31)) == 0 {
		return 0, 0, false
	}
	return b.kb[r&31], b.ks[r&31], true
}

// materialize writes the registers of mask out as lanes.
func (b *batchEval) materialize(mask uint32) {
	for m := mask & b.aff; m != 0; m &= m - 1 {
		r := 0
		for ; m&(1<<r) == 0; r++ {
		}
		v, s := b.kb[r], b.ks[r]
		d := b.r[r][:b.n]
		for i := range d {
			d[i] = v
			v += s
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

// affine runs the instruction at pc the short way when all the batch's
// lanes run it and its operands allow; it returns the next pc, or -1 when
// the instruction must run lane by lane.
func (b *batchEval) affine(pc, op, a, ib, c int) int {
	code := b.p.Code
	switch op {
	case opLDI:
		b.setAffine(a&31, code[pc+1], 0)
		return pc + 2
	case opMOV:
		if x, s, ok := b.operand(ib, -1); ok {
			b.setAffine(a&31, x, s)
			return pc + 1
		}
	case opJZ:
		if x, s, ok := b.operand(a, -1); ok && s == 0 {
			if x == 0 {
				return int(code[pc+1])
			}
			return pc + 2
		}
	case opLOOP:
		if x, s, ok := b.operand(a, -1); ok && s == 0 {
			b.kb[a&31] = x - 1
			if int32(x-1) > 0 {
				return int(code[pc+1])
			}
			return pc + 2
		}
	case opLD, opLDS:
		return b.affineLoad(pc, op, a, ib, c)
	case opIADD, opISUB, opIMUL:
		x, xs, ok1 := b.operand(ib, -1)
		y, ys, ok2 := b.operand(c, b.ky[pc])
		if !ok1 || !ok2 {
			return -1
		}
		switch {
		case op == opIADD:
			b.setAffine(a&31, x+y, xs+ys)
		case op == opISUB:
			b.setAffine(a&31, x-y, xs-ys)
		case ys == 0:
			b.setAffine(a&31, x*y, xs*y)
		case xs == 0:
			b.setAffine(a&31, x*y, ys*x)
		default:
			return -1
		}
		return pc + 1
	case opIDIV, opIMOD:
		x, xs, ok1 := b.operand(ib, -1)
		k, ks, ok2 := b.operand(c, b.ky[pc])
		if !ok1 || !ok2 || ks != 0 || k == 0 {
			return -1
		}
		lo, hi, ok := span(x, xs, b.n)
		if !ok {
			return -1
		}
		if op == opIDIV {
			// Truncated division is monotonic: one quotient at both ends
			// is one quotient in every lane.
			q := idiv(int32(lo), int32(k))
			if q != idiv(int32(hi), int32(k)) {
				return -1
			}
			b.setAffine(a&31, uint32(q), 0)
			return pc + 1
		}
		// Euclidean remainder: affine while floor(v / |k|) stays put.
		m := int64(int32(k))
		if m < 0 {
			m = -m
		}
		if floorDiv(lo, m) != floorDiv(hi, m) {
			return -1
		}
		b.setAffine(a&31, uint32(imod(int32(lo), int32(k))), xs)
		return pc + 1
	default:
		if op < opIADD || op >= opCount {
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
		if (op >= opINEG && op <= opBOOL) || (op >= opFNEG && op <= opF2I) {
			if !batchUnary(op, D, X, one, 1) {
				return -1
			}
		} else {
			y, ys, ok2 := b.operand(c, b.ky[pc])
			if !ok2 || ys != 0 || op == opIDIV || op == opIMOD {
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

// window returns the words of field fi that a load through an index of
// base and stride reads in the batch's lanes: one word (stride 0) or n
// consecutive ones (stride 1), false for anything else or out of range.
func (b *batchEval) window(op, fi int, base, stride uint32) ([]uint32, bool) {
	f := &b.p.Fields[fi]
	src := b.cur
	if op == opLDS {
		src = b.snap
	}
	fld := src[f.Off : f.Off+f.Size]
	if stride > 1 {
		return nil, false
	}
	lo, hi, ok := span(base, stride, b.n)
	if !ok || lo < 0 || hi >= int64(len(fld)) {
		return nil, false
	}
	return fld[lo : hi+1], true
}

func (b *batchEval) affineLoad(pc, op, a, ib, fi int) int {
	var base, stride uint32
	if ib != noReg {
		var ok bool
		if base, stride, ok = b.operand(ib, -1); !ok {
			return -1
		}
	}
	w, ok := b.window(op, fi, base, stride)
	if !ok {
		return -1
	}
	if stride == 0 {
		b.setAffine(a&31, w[0], 0)
		return pc + 1
	}
	copy(b.r[a&31][:b.n], w)
	b.aff &^= 1 << (a & 31)
	return pc + 1
}

// affineFused is a fused stencil load (IADD, load and perhaps the IADD
// accumulating it) whose index is affine: one copy or one add of
// consecutive words, no bounds test per lane.
func (b *batchEval) affineFused(pc int) int {
	code := b.p.Code
	_, a, ib, c := decode(code[pc])
	op2, _, _, fi := decode(code[pc+1])
	x, xs, ok1 := b.operand(ib, -1)
	y, ys, ok2 := b.operand(c, b.ky[pc])
	if !ok1 || !ok2 {
		return -1
	}
	w, ok := b.window(op2, fi, x+y, xs+ys)
	if !ok {
		return -1
	}
	r := b.acc[pc]
	if r < 0 {
		if xs+ys == 0 {
			b.setAffine(a&31, w[0], 0)
		} else {
			copy(b.r[a&31][:b.n], w)
			b.aff &^= 1 << (a & 31)
		}
		return pc + 2
	}
	// acc += field[...]; the loaded register is dead.
	b.aff &^= 1 << (a & 31)
	if k, ks, ok := b.operand(int(r), -1); ok && xs+ys == 0 {
		b.setAffine(int(r), k+w[0], ks)
		return pc + 3
	}
	b.materialize(1 << r)
	A := b.r[r][:b.n]
	if xs+ys == 0 {
		v := w[0]
		for i := range A {
			A[i] += v
		}
		return pc + 3
	}
	w = w[:len(A)]
	for i, v := range w {
		A[i] += v
	}
	return pc + 3
}

// constOperand returns the constant the second operand of the binary
// instruction at pc holds in every lane (k when folded already) and the
// register it is read from (-1 when it need not be read), or k = -1. A
// commutative IADD whose first operand is the constant swaps them (ib).
func (b *batchEval) constOperand(pc, op int, ib *int, c int, k int64) (int64, int) {
	if k >= 0 {
		if c == *ib {
			return k, -1
		}
		return k, c
	}
	if op < opIADD || op >= opCount || (op >= opINEG && op <= opBOOL) || (op >= opFNEG && op <= opF2I) {
		return -1, -1
	}
	if y, ys, ok := b.operand(c, -1); ok && ys == 0 && c != *ib {
		if (op == opIDIV || op == opIMOD) && int32(y) == 0 {
			return -1, -1 // the lanes fault: the slow way names them
		}
		return int64(y), c
	}
	if op != opIADD || *ib == c {
		return -1, -1
	}
	if x, xs, ok := b.operand(*ib, -1); ok && xs == 0 {
		r := *ib
		*ib = c
		return int64(x), r
	}
	return -1, -1
}
