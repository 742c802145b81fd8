package rules

import "math/bits"

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
}

// planGroups finds the groups of four fused products (fma as planFMA
// marks them) that read nothing another product of the group writes, and
// the copies of their results right after them.
func planGroups(p *Program, code []uint32, fma, target []bool) []*prodGroup {
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
			_, t1, x, y := decode(code[q])
			_, t2, z, w := decode(code[q+1])
			_, d, _, _ := decode(code[q+2])
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
			op, a, b, _ := decode(code[q])
			if op != opMOV || code[q] != p.Code[q] || a >= MaxRegs || dests&(1<<(a&31)) != 0 || targets&(1<<(a&31)) != 0 {
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
		groups[pc] = g
	}
	return groups
}

// productGroup runs the group at pc on every lane when each product is a
// lane register times a constant plus a lane register times a constant;
// it returns the pc after the group, or -1.
func (b *batchEval) productGroup(pc int, g *prodGroup) int {
	code := b.code
	var xs, zs [4]int
	var ky, kw [4]float32
	var need uint32
	for j := range 4 {
		_, _, x, y := decode(code[pc+3*j])
		_, _, z, w := decode(code[pc+3*j+1])
		yk, ys, ok1 := b.operand(y, -1)
		wk, ws, ok2 := b.operand(w, -1)
		if !ok1 || !ok2 || ys != 0 || ws != 0 {
			return -1
		}
		if _, xs, ok := b.operand(x, -1); ok && xs == 0 {
			return -1
		}
		if _, zs, ok := b.operand(z, -1); ok && zs == 0 {
			return -1
		}
		xs[j], zs[j], ky[j], kw[j] = x&31, z&31, f32(yk), f32(wk)
		need |= 1<<(x&31) | 1<<(z&31)
	}
	b.materialize(need)
	n := b.n
	if xs[0] == xs[1] && zs[0] == zs[1] && xs[2] == xs[3] && zs[2] == zs[3] &&
		[4]int{xs[0], zs[0], xs[2], zs[2]} == [4]int{int(g.out[0]), int(g.out[1]), int(g.out[2]), int(g.out[3])} {
		// A 2x2 matrix times constants, in place: four registers.
		A, B, C, D := b.r[xs[0]][:n], b.r[zs[0]][:n], b.r[xs[2]][:n], b.r[zs[2]][:n]
		for i := range A {
			a, bb, c, d := f32(A[i]), f32(B[i]), f32(C[i]), f32(D[i])
			A[i] = u32(float32(a*ky[0]) + float32(bb*kw[0]))
			B[i] = u32(float32(a*ky[1]) + float32(bb*kw[1]))
			C[i] = u32(float32(c*ky[2]) + float32(d*kw[2]))
			D[i] = u32(float32(c*ky[3]) + float32(d*kw[3]))
		}
		b.finishGroup(g)
		return g.next
	}
	X0, Z0, X1, Z1 := b.r[xs[0]][:n], b.r[zs[0]][:n], b.r[xs[1]][:n], b.r[zs[1]][:n]
	X2, Z2, X3, Z3 := b.r[xs[2]][:n], b.r[zs[2]][:n], b.r[xs[3]][:n], b.r[zs[3]][:n]
	D0, D1, D2, D3 := b.r[g.out[0]&31][:n], b.r[g.out[1]&31][:n], b.r[g.out[2]&31][:n], b.r[g.out[3]&31][:n]
	for i := range D0 {
		x0, z0, x1, z1 := f32(X0[i]), f32(Z0[i]), f32(X1[i]), f32(Z1[i])
		x2, z2, x3, z3 := f32(X2[i]), f32(Z2[i]), f32(X3[i]), f32(Z3[i])
		D0[i] = u32(float32(x0*ky[0]) + float32(z0*kw[0]))
		D1[i] = u32(float32(x1*ky[1]) + float32(z1*kw[1]))
		D2[i] = u32(float32(x2*ky[2]) + float32(z2*kw[2]))
		D3[i] = u32(float32(x3*ky[3]) + float32(z3*kw[3]))
	}
	b.finishGroup(g)
	return g.next
}

// finishGroup marks what the group wrote as lanes and copies the results
// whose own register stays live.
func (b *batchEval) finishGroup(g *prodGroup) {
	b.toLanes(g.written)
	for j, r := range g.also {
		if r >= 0 {
			copy(b.r[r&31][:b.n], b.r[g.out[j]&31][:b.n])
		}
	}
}
