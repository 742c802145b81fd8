package rules

import (
	"math/bits"
	"sync/atomic"
)

// lower turns an expression tree into closures, specialised for the shapes
// that dominate real rules: register and constant operands, stencil loads
// (field[reg + reg], field[reg + K]) and division by a power of two.
func (bb *blockBuilder) lower(n *inode) cexpr {
	switch n.op {
	case nConst:
		k := n.k
		return func(*cframe) uint32 { return k }
	case nReg:
		r := n.reg & 31
		return func(f *cframe) uint32 { return f.r[r] }
	case opLD, opLDS:
		return bb.load(n)
	case opIDIV, opIMOD:
		return bb.div(n)
	}
	if n.y == nil {
		return bb.unary(n)
	}
	x, y, op := n.x, n.y, n.op
	if x.op == nConst && y.op != nConst && commutes(op) {
		x, y = y, x
	}
	rx, ry, ky := x.op == nReg, y.op == nReg, y.op == nConst
	switch {
	case rx && ry:
		return binRR(op, x.reg, y.reg, 0, nil, nil)
	case rx && ky:
		return binRK(op, x.reg, 0, y.k, nil, nil)
	case ky:
		return binTK(op, 0, 0, y.k, bb.lower(x), nil)
	case ry:
		return binTR(op, 0, y.reg, 0, bb.lower(x), nil)
	case rx:
		return binRT(op, x.reg, 0, 0, nil, bb.lower(y))
	}
	return binTT(op, 0, 0, 0, bb.lower(x), bb.lower(y))
}

// commutes reports whether swapping op's operands gives the same bits
// (float addition does not: which NaN payload survives depends on order).
func commutes(op int) bool {
	switch op {
	case opIADD, opIMUL, opIAND, opIOR, opIXOR, opIEQ, opINE, opIMIN, opIMAX:
		return true
	}
	return false
}

func (bb *blockBuilder) load(n *inode) cexpr {
	fd := bb.p.Fields[n.field]
	off, size := fd.Off, uint32(fd.Size)
	snap := n.op == opLDS
	if n.x == nil || n.x.op == nConst && n.x.k < size {
		w := off
		if n.x != nil {
			w += int(n.x.k)
		}
		if snap {
			return func(f *cframe) uint32 { return f.snap[w] }
		}
		return func(f *cframe) uint32 { return f.cur[w] }
	}
	x := n.x
	if x.op == nReg {
		r := x.reg & 31
		if snap {
			return func(f *cframe) uint32 {
				i := f.r[r]
				if i >= size {
					f.fault = true
					return 0
				}
				return f.snap[off+int(i)]
			}
		}
		return func(f *cframe) uint32 {
			i := f.r[r]
			if i >= size {
				f.fault = true
				return 0
			}
			return f.cur[off+int(i)]
		}
	}
	if x.op == opIADD && x.x.op == nReg && (x.y.op == nReg || x.y.op == nConst) {
		ra, rb, k := x.x.reg&31, x.y.reg&31, x.y.k
		if x.y.op == nConst {
			rb = 0
		} else {
			k = 0
		}
		src := func(f *cframe) []uint32 { return f.cur }
		if snap {
			src = nil
		}
		if x.y.op == nReg && src != nil {
			return func(f *cframe) uint32 {
				i := f.r[ra] + f.r[rb]
				if i >= size {
					f.fault = true
					return 0
				}
				return f.cur[off+int(i)]
			}
		}
		if x.y.op == nReg {
			return func(f *cframe) uint32 {
				i := f.r[ra] + f.r[rb]
				if i >= size {
					f.fault = true
					return 0
				}
				return f.snap[off+int(i)]
			}
		}
		if src != nil {
			return func(f *cframe) uint32 {
				i := f.r[ra] + k
				if i >= size {
					f.fault = true
					return 0
				}
				return f.cur[off+int(i)]
			}
		}
		return func(f *cframe) uint32 {
			i := f.r[ra] + k
			if i >= size {
				f.fault = true
				return 0
			}
			return f.snap[off+int(i)]
		}
	}
	ix := bb.lower(x)
	if snap {
		return func(f *cframe) uint32 {
			i := ix(f)
			if i >= size {
				f.fault = true
				return 0
			}
			return f.snap[off+int(i)]
		}
	}
	return func(f *cframe) uint32 {
		i := ix(f)
		if i >= size {
			f.fault = true
			return 0
		}
		return f.cur[off+int(i)]
	}
}

func (bb *blockBuilder) div(n *inode) cexpr {
	mod := n.op == opIMOD
	if k := int32(n.y.k); n.y.op == nConst && k != 0 {
		if k > 0 && k&(k-1) == 0 {
			s, m := uint(bits.TrailingZeros32(uint32(k))), uint32(k-1)
			if n.x.op == nReg {
				r := n.x.reg & 31
				if mod {
					return func(f *cframe) uint32 { return f.r[r] & m }
				}
				return func(f *cframe) uint32 { v := int32(f.r[r]); return uint32((v + v>>31&int32(m)) >> s) }
			}
			x := bb.lower(n.x)
			if mod {
				return func(f *cframe) uint32 { return x(f) & m }
			}
			return func(f *cframe) uint32 { v := int32(x(f)); return uint32((v + v>>31&int32(m)) >> s) }
		}
		x := bb.lower(n.x)
		if mod {
			return func(f *cframe) uint32 { return uint32(imod(int32(x(f)), k)) }
		}
		return func(f *cframe) uint32 { return uint32(idiv(int32(x(f)), k)) }
	}
	x, y := bb.lower(n.x), bb.lower(n.y)
	if mod {
		return func(f *cframe) uint32 {
			a, b := int32(x(f)), int32(y(f))
			if b == 0 {
				f.fault = true
				return 0
			}
			return uint32(imod(a, b))
		}
	}
	return func(f *cframe) uint32 {
		a, b := int32(x(f)), int32(y(f))
		if b == 0 {
			f.fault = true
			return 0
		}
		return uint32(idiv(a, b))
	}
}

func (bb *blockBuilder) unary(n *inode) cexpr {
	x := bb.lower(n.x)
	switch n.op {
	case opINEG:
		return func(f *cframe) uint32 { return -x(f) }
	case opINOT:
		return func(f *cframe) uint32 { return ^x(f) }
	case opILNOT:
		return func(f *cframe) uint32 { return b2u(x(f) == 0) }
	case opIABS:
		return func(f *cframe) uint32 { return uint32(iabs(int32(x(f)))) }
	case opBOOL:
		return func(f *cframe) uint32 { return b2u(x(f) != 0) }
	case opFNEG:
		return func(f *cframe) uint32 { return x(f) ^ 0x80000000 }
	case opFABS:
		return func(f *cframe) uint32 { return x(f) &^ 0x80000000 }
	case opFSQRT:
		return func(f *cframe) uint32 { return fsqrt32(x(f)) }
	case opI2F:
		return func(f *cframe) uint32 { return u32(float32(int32(x(f)))) }
	case opF2I:
		return func(f *cframe) uint32 { return uint32(f2i(f32(x(f)))) }
	}
	return func(f *cframe) uint32 { f.fault = true; return 0 }
}

// store writes val to field fi at idx (nil: a scalar).
func (bb *blockBuilder) store(op, fi int, idx, val *inode) cstmt {
	fd := bb.p.Fields[fi]
	off, size := fd.Off, uint32(fd.Size)
	v := bb.lower(val)
	// The index, or ^0 when out of range.
	var word func(f *cframe) int
	switch {
	case idx == nil:
		word = func(*cframe) int { return off }
	case idx.op == nReg:
		r := idx.reg & 31
		word = func(f *cframe) int {
			if i := f.r[r]; i < size {
				return off + int(i)
			}
			return -1
		}
	default:
		ix := bb.lower(idx)
		word = func(f *cframe) int {
			if i := ix(f); i < size {
				return off + int(i)
			}
			return -1
		}
	}
	switch op {
	case opST:
		if idx != nil && idx.op == nReg {
			r := idx.reg & 31
			return func(f *cframe) {
				i := f.r[r]
				if i >= size {
					f.fault = true
					return
				}
				f.cur[off+int(i)] = v(f)
			}
		}
		return func(f *cframe) {
			w := word(f)
			if w < 0 {
				f.fault = true
				return
			}
			f.cur[w] = v(f)
		}
	case opSTP:
		return func(f *cframe) {
			w := word(f)
			if w < 0 {
				f.fault = true
				return
			}
			if f.npen++; f.npen > MaxPendings {
				f.fault = true
				return
			}
			f.pend = append(f.pend, pendingWrite{w, v(f)})
		}
	case opADDI:
		return func(f *cframe) {
			w := word(f)
			if w < 0 {
				f.fault = true
				return
			}
			if f.split {
				atomic.AddUint32(&f.cur[w], v(f))
				return
			}
			f.cur[w] += v(f)
		}
	}
	return func(f *cframe) {
		w := word(f)
		if w < 0 {
			f.fault = true
			return
		}
		if f.split {
			f.fadds = append(f.fadds, pendingWrite{w, v(f)})
			return
		}
		f.cur[w] = u32(f32(f.cur[w]) + f32(v(f)))
	}
}
