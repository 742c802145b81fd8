package batch

import (
	"math/bits"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Lane loops of the batch evaluator that touch the state or divide:
// loads, stores, fused stencil loads and division by constants.

// divK divides by a constant k != 0: no zero test, and a shift or a mask
// for a positive power of two.
func (b *Eval) divK(op int, D, X *[lanes]uint32, k int32, act []uint8) bool {
	if k > 0 && k&(k-1) == 0 {
		s, m := uint(bits.TrailingZeros32(uint32(k))), k-1
		if len(act) == b.n {
			d := D[:b.n]
			if op == bytecode.OpIMOD {
				for i, x := range X[:b.n] {
					d[i] = x & uint32(m)
				}
				return true
			}
			for i, x := range X[:b.n] {
				v := int32(x)
				d[i] = uint32((v + v>>31&m) >> s)
			}
			return true
		}
		if op == bytecode.OpIMOD {
			for _, l := range act {
				D[l] = X[l] & uint32(m)
			}
			return true
		}
		for _, l := range act {
			v := int32(X[l])
			D[l] = uint32((v + v>>31&m) >> s)
		}
		return true
	}
	if op == bytecode.OpIMOD {
		for _, l := range act {
			D[l] = uint32(bytecode.IMod(int32(X[l]), k))
		}
		return true
	}
	for _, l := range act {
		D[l] = uint32(bytecode.IDiv(int32(X[l]), k))
	}
	return true
}

// loadOperands is the field a fused load reads (the snapshot for LDS) and
// its second index operand: Y, or the constant k in every lane when k >= 0.
func (b *Eval) loadOperands(op int, Y *[lanes]uint32, k int64, fi int) ([]uint32, *[lanes]uint32) {
	f := &b.p.Fields[fi]
	src := b.cur
	if op == bytecode.OpLDS {
		src = b.snap
	}
	if k >= 0 {
		Y = &b.kreg
		for i := range Y {
			Y[i] = uint32(k)
		}
	}
	return src[f.Off : f.Off+f.Size], Y
}

// loadSum is an IADD and the load it indexes: D = field[X + Y] (Y the
// constant k when k >= 0).
func (b *Eval) loadSum(op int, D, X, Y *[lanes]uint32, k int64, fi int, act []uint8) {
	fld, Y := b.loadOperands(op, Y, k, fi)
	size := uint32(len(fld))
	if len(act) == b.n {
		d, ys := D[:b.n], Y[:b.n]
		for i, x := range X[:b.n] {
			if w := x + ys[i]; w < size {
				d[i] = fld[w]
			} else {
				b.faultLane(uint8(i))
				d[i] = 0
			}
		}
		return
	}
	for _, l := range act {
		if w := X[l] + Y[l]; w < size {
			D[l] = fld[w]
		} else {
			b.faultLane(l)
			D[l] = 0
		}
	}
}

// loadAdd is loadSum whose value the next IADD adds into A: A += field[X + Y].
func (b *Eval) loadAdd(op int, A, X, Y *[lanes]uint32, k int64, fi int, act []uint8) {
	fld, Y := b.loadOperands(op, Y, k, fi)
	size := uint32(len(fld))
	if len(act) == b.n {
		a, ys := A[:b.n], Y[:b.n]
		for i, x := range X[:b.n] {
			if w := x + ys[i]; w < size {
				a[i] += fld[w]
			} else {
				b.faultLane(uint8(i))
			}
		}
		return
	}
	for _, l := range act {
		if w := X[l] + Y[l]; w < size {
			A[l] += fld[w]
		} else {
			b.faultLane(l)
		}
	}
}

func (b *Eval) load(op int, D *[lanes]uint32, ib, fi int, act []uint8) {
	f := &b.p.Fields[fi]
	src := b.cur
	if op == bytecode.OpLDS {
		src = b.snap
	}
	fld := src[f.Off : f.Off+f.Size]
	if ib == bytecode.NoReg {
		v := fld[0]
		for _, l := range act {
			D[l] = v
		}
		return
	}
	X := &b.r[ib&31]
	size := uint32(len(fld))
	if len(act) == b.n {
		for i := 0; i < b.n; i++ {
			l := uint8(i)
			if x := X[l]; x < size {
				D[l] = fld[x]
			} else {
				b.faultLane(l)
				D[l] = 0
			}
		}
		return
	}
	for _, l := range act {
		if x := X[l]; x < size {
			D[l] = fld[x]
		} else {
			b.faultLane(l)
			D[l] = 0
		}
	}
}

// store writes register V (the instruction's a operand) of each lane.
func (b *Eval) store(op int, V *[lanes]uint32, ib, fi int, act []uint8) {
	f := &b.p.Fields[fi]
	fld := b.cur[f.Off : f.Off+f.Size]
	size := uint32(len(fld))
	X := &b.r[ib&31]
	for _, l := range act {
		x := uint32(0)
		if ib != bytecode.NoReg {
			x = X[l]
		}
		if x >= size {
			b.faultLane(l)
			continue
		}
		switch op {
		case bytecode.OpST:
			fld[x] = V[l]
		case bytecode.OpSTP:
			if len(b.pend[l]) >= bytecode.MaxPendings {
				b.faultLane(l)
				continue
			}
			b.pend[l] = append(b.pend[l], bytecode.PendingWrite{Word: f.Off + int(x), Val: V[l]})
			b.dirty = true
		case bytecode.OpADDI:
			if b.split {
				atomic.AddUint32(&fld[x], V[l])
			} else {
				fld[x] += V[l]
			}
		default:
			b.fadd[l] = append(b.fadd[l], bytecode.PendingWrite{Word: f.Off + int(x), Val: V[l]})
			b.dirty = true
		}
	}
}
