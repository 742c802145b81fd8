package batch

import (
	"math/bits"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Registers kept as bits. A comparison's result is 0 or 1 in every lane,
// and a precondition is mostly comparisons joined by && and || (Life's
// `(c == 1 && (n < 2 || n > 3)) || (c == 0 && n == 3)`: five comparisons,
// four logical operations, four BOOLs). Kept as one bit a lane, 64 lanes a
// word, a comparison with a constant is one pass that stores nothing but
// four words, and every logical operation, BOOL or copy of such registers
// costs four word operations instead of a pass over 256 lanes. Like the
// registers kept as numbers (batch_kinds.go), a register kept as bits is
// written out as lanes (materialize) when an instruction needs its lanes;
// only instructions that all the batch's lanes run take the short way.

const bitWords = lanes / 64

// toLanes marks the registers of mask as held in their lanes (written by a
// lane loop, or about to be).
func (b *Eval) toLanes(mask uint32) {
	b.aff &^= mask
	b.bit &^= mask
}

// setBits marks register r as kept as bits (in b.bv[r]).
func (b *Eval) setBits(r int) {
	b.bit |= 1 << (r & 31)
	b.aff &^= 1 << (r & 31)
}

// isBits reports whether register r is kept as bits.
func (b *Eval) isBits(r int) bool { return r != bytecode.NoReg && b.bit&(1<<(r&31)) != 0 }

// lowBits is a word with the lowest k bits set (k in [0, 64]).
func lowBits(k int) uint64 {
	if k >= 64 {
		return ^uint64(0)
	}
	return uint64(1)<<uint(k) - 1
}

// expandBits writes the bits of v out as lanes 0 and 1 into d.
func expandBits(d []uint32, v *[bitWords]uint64) {
	for i := range d {
		d[i] = uint32(v[uint(i)>>6&(bitWords-1)]>>(uint(i)&63)) & 1
	}
}

// rangeBits sets dst's bit per lane of xs to whether int32(x) lies in
// [lo, lo+w] (wrapping), inverted when neg.
func rangeBits(dst *[bitWords]uint64, xs []uint32, lo, w uint32, neg bool) {
	var inv uint64
	if neg {
		inv = ^uint64(0)
	}
	w0 := 0
	for ; w0+64 <= len(xs); w0 += 64 {
		// Highest lane first, eight a step: constant shifts only,
		// the eight bits joined as a tree (a chain of ORs is slower).
		ws := (*[64]uint32)(xs[w0 : w0+64])
		var m uint64
		for i := 56; i >= 0; i -= 8 {
			v := (*[8]uint32)(ws[i : i+8])
			hi := uint64(bytecode.B2U(v[7]-lo <= w))<<3 | uint64(bytecode.B2U(v[6]-lo <= w))<<2 |
				(uint64(bytecode.B2U(v[5]-lo <= w))<<1 | uint64(bytecode.B2U(v[4]-lo <= w)))
			lo4 := uint64(bytecode.B2U(v[3]-lo <= w))<<3 | uint64(bytecode.B2U(v[2]-lo <= w))<<2 |
				(uint64(bytecode.B2U(v[1]-lo <= w))<<1 | uint64(bytecode.B2U(v[0]-lo <= w)))
			m = m<<8 | (hi<<4 | lo4)
		}
		dst[uint(w0)>>6&(bitWords-1)] = m ^ inv
	}
	if w0 < len(xs) {
		ws := xs[w0:]
		var m uint64
		for i := len(ws) - 1; i >= 0; i-- {
			m = m<<1 | uint64(bytecode.B2U(ws[i]-lo <= w))
		}
		dst[uint(w0)>>6&(bitWords-1)] = (m ^ inv) & lowBits(len(ws))
	}
}

// cmpRange turns x op k (a signed comparison with the constant k; with
// flip, k op x) into a wrapping interval [lo, lo+w] that x lies in, or out
// of when neg.
func cmpRange(op int, k uint32, flip bool) (lo, w uint32, neg, ok bool) {
	const minI, maxI = 1 << 31, 1<<31 - 1
	if flip && op == bytecode.OpILT { // k < x
		op = OpIGT
	} else if flip && op == bytecode.OpILE { // k <= x
		op = OpIGE
	}
	switch op {
	case bytecode.OpIEQ:
		return k, 0, false, true
	case bytecode.OpINE:
		return k, 0, true, true
	case bytecode.OpILT:
		return k, maxI - k, true, true
	case bytecode.OpILE:
		return minI, k - minI, false, true
	case OpIGT:
		return minI, k - minI, true, true
	case OpIGE:
		return k, maxI - k, false, true
	}
	return 0, 0, false, false
}

// Comparisons with the operands swapped (k < x is x > k), private to
// cmpRange.
const (
	OpIGT = -1 - iota
	OpIGE
)

// bitOp runs the instruction at pc on every lane the short way when it
// yields 0 or 1 from a register kept as bits or a comparison with a
// constant; it returns the next pc, or -1.
func (b *Eval) bitOp(pc, op, a, ib, c int) int {
	n := b.n
	nw := (n + 63) / 64
	D := &b.bv[a&31]
	switch op {
	case bytecode.OpMOV, bytecode.OpBOOL, bytecode.OpILNOT:
		if b.isBits(ib) {
			X := &b.bv[ib&31]
			if op == bytecode.OpILNOT {
				for w := range nw {
					D[w] = ^X[w] & lowBits(n-64*w)
				}
			} else if D != X {
				copy(D[:nw], X[:nw])
			}
			b.setBits(a)
			return pc + 1
		}
		if op == bytecode.OpMOV {
			return -1
		}
		b.materialize(1 << (ib & 31))
		rangeBits(D, b.r[ib&31][:n], 0, 0, op == bytecode.OpBOOL)
		b.setBits(a)
		return pc + 1
	case bytecode.OpIAND, bytecode.OpIOR, bytecode.OpIXOR, bytecode.OpIMIN, bytecode.OpIMAX, bytecode.OpIEQ, bytecode.OpINE, OpANDB, OpORB:
		y := c
		if op == OpANDB || op == OpORB { // d = d op bool(r[b])
			ib, y = a, ib
		}
		if b.isBits(ib) && b.isBits(y) {
			X, Y := &b.bv[ib&31], &b.bv[y&31]
			for w := range nw {
				x, y := X[w], Y[w]
				var v uint64
				switch op {
				case bytecode.OpIAND, bytecode.OpIMIN, OpANDB:
					v = x & y
				case bytecode.OpIOR, bytecode.OpIMAX, OpORB:
					v = x | y
				case bytecode.OpIXOR, bytecode.OpINE:
					v = x ^ y
				default:
					v = ^(x ^ y) & lowBits(n-64*w)
				}
				D[w] = v
			}
			b.setBits(a)
			return pc + 1
		}
		if op != bytecode.OpIEQ && op != bytecode.OpINE {
			return -1
		}
		fallthrough
	case bytecode.OpILT, bytecode.OpILE:
		// A constant second operand, or a constant first one.
		x, flip := ib, false
		k, ks, ok := b.operand(c, b.ky[pc])
		if !ok || ks != 0 || c == ib {
			if k, ks, ok = b.operand(ib, -1); !ok || ks != 0 || c == bytecode.NoReg {
				return -1
			}
			x, flip = c, true
		}
		lo, w, neg, ok := cmpRange(op, k, flip)
		if !ok {
			return -1
		}
		b.materialize(1 << (x & 31))
		rangeBits(D, b.r[x&31][:n], lo, w, neg)
		b.setBits(a)
		return pc + 1
	}
	return -1
}

// retBits ends a precondition whose value is kept as bits: applyRange
// queues the lanes of its set bits.
func (b *Eval) retBits(a int) {
	b.enBits, b.enKept = b.bv[a&31], true
}

// queueBits queues base + lane for the lanes below stop whose bit in
// b.enBits is set, in lane order, running the consequence whenever the
// queue fills (body); false when body reports a fault or a stop.
func (b *Eval) queueBits(queue *[]int32, base, stop int, body func() bool) bool {
	q := *queue
	for w := range bitWords {
		m := b.enBits[w]
		if lo := 64 * w; stop-lo < 64 {
			if stop <= lo {
				break
			}
			m &= lowBits(stop - lo)
		}
		for ; m != 0; m &= m - 1 {
			q = append(q, int32(base+64*w+bits.TrailingZeros64(m)))
			if len(q) == lanes {
				*queue = q
				if !body() {
					return false
				}
				q = (*queue)[:0]
			}
		}
	}
	*queue = q
	return true
}
