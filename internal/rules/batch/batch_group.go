package batch

import (
	"math/bits"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Groups of four fused products. A 2x2 matrix times a constant 2x2 matrix
// (the synthetic rule's loop, a rotation, any small linear map) compiles
// to four fused products of lanes and constants, then copies of their
// results back into the operands:
//
//	c00 = a00*b00 + a01*b10; c01 = ...; c10 = ...; c11 = ...
//	a00 = c00; a01 = c01; a10 = c10; a11 = c11
//
// Run as four passes and four copies, each lane's operands are loaded
// four times and every result stored twice. productGroup runs the four
// products in one pass: a lane's operands are loaded before any result is
// stored, so a result may go straight into an operand's register (the copy
// after it, whose source is dead then, goes). Each product is rounded as
// its own instructions round it (batch_fuse.go).

// prodGroup is a planned group: the four products start at pc, pc+3,
// pc+6, pc+9; out[j] is the register product j's value goes to, next the
// pc after the group and the copies it took in, and also[j] >= 0 a second
// register that must hold product j's value (its own d, live after the
// copies, when out[j] is a copy's target).
type prodGroup struct {
	out, also [4]int8
	next      int
	written   uint32 // every register the group's instructions write
	// loop: the instruction at next is a LOOP on register counter back to
	// the group, which reads nothing the group writes but its operands.
	loop    bool
	counter int
}

// planGroups finds the groups of four fused products (fma as planFMA
// marks them) that read nothing another product of the group writes, and
// the copies of their results right after them.
func planGroups(p *bytecode.Program, code []uint32, fma, target []bool) []*prodGroup {
	live := liveOut(p)
	groups := make([]*prodGroup, len(code))
	for pc := 0; pc+12 <= len(code); pc++ {
		g := &prodGroup{}
		var writes, dests uint32
		ok := true
		for j := 0; j < 4 && ok; j++ {
			q := pc + 3*j
			if !fma[q] || (j > 0 && target[q]) || code[q] != p.Code[q] {
				ok = false
				break
			}
			_, t1, x, y := bytecode.Decode(code[q])
			_, t2, z, w := bytecode.Decode(code[q+1])
			_, d, _, _ := bytecode.Decode(code[q+2])
			for _, r := range []int{x, y, z, w} {
				if writes&(1<<(r&31)) != 0 {
					ok = false
				}
			}
			writes |= 1<<(t1&31) | 1<<(t2&31) | 1<<(d&31)
			dests |= 1 << (d & 31)
			g.out[j], g.also[j] = int8(d), -1
		}
		if !ok || bits.OnesCount32(dests) != 4 {
			continue // or two products into one register
		}
		// Copies of distinct results into registers no other copy reads.
		q := pc + 12
		var moved [4]int8
		for j := range moved {
			moved[j] = -1
		}
		var targets uint32
		for q < len(code) && !target[q] {
			op, a, b, _ := bytecode.Decode(code[q])
			if op != bytecode.OpMOV || code[q] != p.Code[q] || a >= bytecode.MaxRegs || dests&(1<<(a&31)) != 0 || targets&(1<<(a&31)) != 0 {
				break
			}
			j := 0
			for j < 4 && int(g.out[j]) != b {
				j++
			}
			if j == 4 || moved[j] >= 0 {
				break
			}
			moved[j] = int8(a)
			targets |= 1 << (a & 31)
			writes |= 1 << (a & 31)
			q++
		}
		lastLive := live[q-1]
		for j := range moved {
			if moved[j] < 0 {
				continue
			}
			if lastLive&(1<<(g.out[j]&31)) != 0 {
				g.also[j] = g.out[j]
			}
			g.out[j] = moved[j]
		}
		g.next, g.written = q, writes
		if op, a, _, _ := bytecode.Decode(code[q]); q+1 < len(code) && op == bytecode.OpLOOP && code[q] == p.Code[q] &&
			!target[q] && int(code[q+1]) == pc && a < bytecode.MaxRegs {
			var consts uint32
			for j := range 4 {
				_, _, _, y := bytecode.Decode(code[pc+3*j])
				_, _, _, w := bytecode.Decode(code[pc+3*j+1])
				consts |= 1<<(y&31) | 1<<(w&31)
			}
			counter := uint32(1) << (a & 31)
			g.loop = (consts|counter)&writes == 0 && consts&counter == 0
			g.counter = a
		}
		groups[pc] = g
	}
	return groups
}

// productGroup runs the group at pc on every lane when each product is a
// lane register times a constant plus a lane register times a constant;
// it returns the pc after the group, or -1.
func (b *Eval) productGroup(pc int, g *prodGroup) int {
	code := b.code
	var xs, zs [4]int
	var ky, kw [4]float32
	var need uint32
	for j := range 4 {
		_, _, x, y := bytecode.Decode(code[pc+3*j])
		_, _, z, w := bytecode.Decode(code[pc+3*j+1])
		yk, ys, ok1 := b.operand(y, -1)
		wk, ws, ok2 := b.operand(w, -1)
		if !ok1 || !ok2 || ys != 0 || ws != 0 {
			return -1
		}
		xs[j], zs[j], ky[j], kw[j] = x&31, z&31, bytecode.F32(yk), bytecode.F32(wk)
		need |= 1<<(x&31) | 1<<(z&31)
	}
	if need&b.aff == need {
		return -1 // all kept as numbers: the products once each (affine)
	}
	// A matrix of lanes and constants (the synthetic rule's first turn:
	// a01 = 1, a10 = 0.5) is written out and run as lanes.
	b.materialize(need)
	n := b.n
	if xs[0] == xs[1] && zs[0] == zs[1] && xs[2] == xs[3] && zs[2] == zs[3] &&
		[4]int{xs[0], zs[0], xs[2], zs[2]} == [4]int{int(g.out[0]), int(g.out[1]), int(g.out[2]), int(g.out[3])} {
		// A 2x2 matrix times constants, in place: four registers.
		A, B, C, D := b.r[xs[0]][:n], b.r[zs[0]][:n], b.r[xs[2]][:n], b.r[zs[2]][:n]
		k := [8]float32{ky[0], kw[0], ky[1], kw[1], ky[2], kw[2], ky[3], kw[3]}
		if c, cs, ok := b.operand(g.counter, -1); g.loop && ok && cs == 0 && int32(c) >= 1 {
			// The loop's every turn at once, each lane's matrix held
			// in registers: the counter is the same in every lane.
			for left := int(int32(c)); left > 0; {
				m := min(left, 1024)
				matrixTurns(A, B, C, D, &k, m)
				left -= m
				b.setAffine(g.counter, uint32(left), 0)
				if b.Stopped() {
					break
				}
			}
			b.finishGroup(g)
			return g.next + 2
		}
		for i := range A {
			a, bb, c, d := bytecode.F32(A[i]), bytecode.F32(B[i]), bytecode.F32(C[i]), bytecode.F32(D[i])
			A[i] = bytecode.U32(float32(a*ky[0]) + float32(bb*kw[0]))
			B[i] = bytecode.U32(float32(a*ky[1]) + float32(bb*kw[1]))
			C[i] = bytecode.U32(float32(c*ky[2]) + float32(d*kw[2]))
			D[i] = bytecode.U32(float32(c*ky[3]) + float32(d*kw[3]))
		}
		b.finishGroup(g)
		return g.next
	}
	X0, Z0, X1, Z1 := b.r[xs[0]][:n], b.r[zs[0]][:n], b.r[xs[1]][:n], b.r[zs[1]][:n]
	X2, Z2, X3, Z3 := b.r[xs[2]][:n], b.r[zs[2]][:n], b.r[xs[3]][:n], b.r[zs[3]][:n]
	D0, D1, D2, D3 := b.r[g.out[0]&31][:n], b.r[g.out[1]&31][:n], b.r[g.out[2]&31][:n], b.r[g.out[3]&31][:n]
	for i := range D0 {
		x0, z0, x1, z1 := bytecode.F32(X0[i]), bytecode.F32(Z0[i]), bytecode.F32(X1[i]), bytecode.F32(Z1[i])
		x2, z2, x3, z3 := bytecode.F32(X2[i]), bytecode.F32(Z2[i]), bytecode.F32(X3[i]), bytecode.F32(Z3[i])
		D0[i] = bytecode.U32(float32(x0*ky[0]) + float32(z0*kw[0]))
		D1[i] = bytecode.U32(float32(x1*ky[1]) + float32(z1*kw[1]))
		D2[i] = bytecode.U32(float32(x2*ky[2]) + float32(z2*kw[2]))
		D3[i] = bytecode.U32(float32(x3*ky[3]) + float32(z3*kw[3]))
	}
	b.finishGroup(g)
	return g.next
}

// finishGroup marks what the group wrote as lanes and copies the results
// whose own register stays live.
func (b *Eval) finishGroup(g *prodGroup) {
	b.toLanes(g.written)
	for j, r := range g.also {
		if r >= 0 {
			copy(b.r[r&31][:b.n], b.r[g.out[j]&31][:b.n])
		}
	}
}

// matrixTurns runs turns of (a, b) = (a*k0 + b*k1, a*k2 + b*k3), (c, d)
// likewise with k4..k7, on every lane, two lanes at a time (four
// independent chains of multiplies and adds).
func matrixTurns(A, B, C, D []uint32, k *[8]float32, turns int) {
	n := len(A)
	B, C, D = B[:n], C[:n], D[:n]
	k0, k1, k2, k3, k4, k5, k6, k7 := k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]
	i := 0
	for ; i+1 < n; i += 2 {
		a0, b0, c0, d0 := bytecode.F32(A[i]), bytecode.F32(B[i]), bytecode.F32(C[i]), bytecode.F32(D[i])
		a1, b1, c1, d1 := bytecode.F32(A[i+1]), bytecode.F32(B[i+1]), bytecode.F32(C[i+1]), bytecode.F32(D[i+1])
		for t := turns; t > 0; t-- {
			// The constants read from k each turn: operands from
			// memory, which leaves the lanes' values in registers.
			a0, b0 = float32(a0*k[0])+float32(b0*k[1]), float32(a0*k[2])+float32(b0*k[3])
			c0, d0 = float32(c0*k[4])+float32(d0*k[5]), float32(c0*k[6])+float32(d0*k[7])
			a1, b1 = float32(a1*k[0])+float32(b1*k[1]), float32(a1*k[2])+float32(b1*k[3])
			c1, d1 = float32(c1*k[4])+float32(d1*k[5]), float32(c1*k[6])+float32(d1*k[7])
		}
		A[i], B[i], C[i], D[i] = bytecode.U32(a0), bytecode.U32(b0), bytecode.U32(c0), bytecode.U32(d0)
		A[i+1], B[i+1], C[i+1], D[i+1] = bytecode.U32(a1), bytecode.U32(b1), bytecode.U32(c1), bytecode.U32(d1)
	}
	if i < n {
		a, b, c, d := bytecode.F32(A[i]), bytecode.F32(B[i]), bytecode.F32(C[i]), bytecode.F32(D[i])
		for t := turns; t > 0; t-- {
			a, b = float32(a*k0)+float32(b*k1), float32(a*k2)+float32(b*k3)
			c, d = float32(c*k4)+float32(d*k5), float32(c*k6)+float32(d*k7)
		}
		A[i], B[i], C[i], D[i] = bytecode.U32(a), bytecode.U32(b), bytecode.U32(c), bytecode.U32(d)
	}
}
