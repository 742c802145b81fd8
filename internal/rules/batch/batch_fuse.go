package batch

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// Fused float products. The synthetic rule (and any dot product or small
// matrix product) compiles `a*b + c*d` to FMUL t1; FMUL t2; FADD d = t1, t2.
// Run one instruction at a time, that is three passes over the lanes with
// two temporaries stored and read back; fused, it is one pass. Each
// product is rounded to float32 before the sum, as the three instructions
// do (an explicit conversion forbids Go a fused multiply-add).

// liveOut returns, per instruction, the registers some path from it may
// read before writing them (backward dataflow over the jumps).
func liveOut(p *bytecode.Program) []uint32 {
	code := p.Code
	rm, wm := regMasks(p.Code)
	var starts []int
	for pc := 0; pc < len(code); pc++ {
		starts = append(starts, pc)
		if bytecode.HasImm(int(code[pc] & 255)) {
			pc++
		}
	}
	out := make([]uint32, len(code))
	in := make([]uint32, len(code)+2)
	for changed := true; changed; {
		changed = false
		for k := len(starts) - 1; k >= 0; k-- {
			pc := starts[k]
			op := int(code[pc] & 255)
			next := pc + 1
			if bytecode.HasImm(op) {
				next = pc + 2
			}
			next = min(next, len(code))
			var o uint32
			switch op {
			case bytecode.OpJMP:
				o = in[target(code, pc)]
			case bytecode.OpJZ, bytecode.OpLOOP:
				o = in[target(code, pc)] | in[next]
			case bytecode.OpRET, bytecode.OpEND:
			default:
				o = in[next]
			}
			i := rm[pc] | o&^wm[pc]
			if o != out[pc] || i != in[pc] {
				out[pc], in[pc], changed = o, i, true
			}
		}
	}
	return out
}

func target(code []uint32, pc int) int {
	if pc+1 >= len(code) || int(code[pc+1]) > len(code) {
		return len(code)
	}
	return int(code[pc+1])
}

// planFMA marks the FMULs that start a fused product: fma[pc] is true when
// pc, pc+1 and pc+2 are FMUL t1 = x*y, FMUL t2 = z*w, FADD d = t1+t2 (or
// t2+t1) in one basic block, the second product does not read the first,
// and neither temporary is read afterwards (except as d).
func planFMA(p *bytecode.Program, target []bool) []bool {
	code := p.Code
	live := liveOut(p)
	fma := make([]bool, len(code))
	imm := make([]bool, len(code))
	for pc := 0; pc < len(code); pc++ {
		if bytecode.HasImm(int(code[pc]&255)) && pc+1 < len(code) {
			imm[pc+1] = true
			pc++
		}
	}
	for pc := 0; pc+2 < len(code); pc++ {
		op1, t1, _, _ := bytecode.Decode(code[pc])
		op2, t2, z, w := bytecode.Decode(code[pc+1])
		op3, d, s1, s2 := bytecode.Decode(code[pc+2])
		if imm[pc] {
			continue
		}
		if op1 != bytecode.OpFMUL || op2 != bytecode.OpFMUL || op3 != bytecode.OpFADD || target[pc+1] || target[pc+2] {
			continue
		}
		if t1 == t2 || z == t1 || w == t1 || !(s1 == t1 && s2 == t2 || s1 == t2 && s2 == t1) {
			continue
		}
		dead := uint32(1)<<(t1&31) | uint32(1)<<(t2&31)
		dead &^= uint32(1) << (d & 31)
		if live[pc+2]&dead != 0 {
			continue
		}
		fma[pc] = true
	}
	return fma
}

// fusedProduct runs the fused product at pc on every lane: d = x*y + z*w.
// It returns false when an operand is neither lanes nor the same in every
// lane (it then runs as three instructions).
func (b *Eval) fusedProduct(pc int) bool {
	code := b.p.Code
	_, t1, x, y := bytecode.Decode(code[pc])
	_, t2, z, w := bytecode.Decode(code[pc+1])
	_, d, _, _ := bytecode.Decode(code[pc+2])
	var ks [4]uint32
	var uni [4]bool
	for k, r := range [4]int{x, y, z, w} {
		if v, s, ok := b.operand(r, -1); ok && s == 0 {
			ks[k], uni[k] = v, true
		} else {
			b.materialize(1 << (r & 31))
		}
	}
	// Products of a lane register and a constant: constant second.
	if uni[0] && !uni[1] {
		x, y, ks[0], ks[1], uni[0], uni[1] = y, x, ks[1], ks[0], false, true
	}
	if uni[2] && !uni[3] {
		z, w, ks[2], ks[3], uni[2], uni[3] = w, z, ks[3], ks[2], false, true
	}
	n := b.n
	D := b.r[d&31][:n]
	X, Z := b.r[x&31][:n], b.r[z&31][:n]
	switch {
	case uni[0] || uni[2]:
		return false
	case uni[1] && uni[3]:
		ky, kw := bytecode.F32(ks[1]), bytecode.F32(ks[3])
		for i, xv := range X {
			D[i] = bytecode.U32(float32(bytecode.F32(xv)*ky) + float32(bytecode.F32(Z[i])*kw))
		}
	case uni[1]:
		ky, W := bytecode.F32(ks[1]), b.r[w&31][:n]
		for i, xv := range X {
			D[i] = bytecode.U32(float32(bytecode.F32(xv)*ky) + float32(bytecode.F32(Z[i])*bytecode.F32(W[i])))
		}
	case uni[3]:
		Y, kw := b.r[y&31][:n], bytecode.F32(ks[3])
		for i, xv := range X {
			D[i] = bytecode.U32(float32(bytecode.F32(xv)*bytecode.F32(Y[i])) + float32(bytecode.F32(Z[i])*kw))
		}
	default:
		Y, W := b.r[y&31][:n], b.r[w&31][:n]
		for i, xv := range X {
			D[i] = bytecode.U32(float32(bytecode.F32(xv)*bytecode.F32(Y[i])) + float32(bytecode.F32(Z[i])*bytecode.F32(W[i])))
		}
	}
	b.toLanes(1<<(d&31) | 1<<(t1&31) | 1<<(t2&31))
	return true
}

// boolRegs returns, per instruction, the registers that hold 0 or 1 on
// every path to it (a comparison's or a BOOL's result, a constant 0 or 1,
// copies of them): BOOL of such a register is a copy. The compiler's && and
// || produce chains of them.
func boolRegs(p *bytecode.Program) []uint32 {
	code := p.Code
	in := make([]uint32, len(code)+2)
	seen := make([]bool, len(code)+2)
	var work []int
	flow := func(pc int, m uint32) {
		if pc >= len(code) {
			return
		}
		if !seen[pc] {
			seen[pc], in[pc] = true, m
			work = append(work, pc)
		} else if in[pc]&m != in[pc] {
			in[pc] &= m
			work = append(work, pc)
		}
	}
	for _, r := range p.Rules {
		for _, e := range []int{r.CondPC, r.BodyPC} {
			if e >= 0 && e < len(code) {
				seen[e], in[e] = true, 0
				work = append(work, e)
			}
		}
	}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		op, a, b, _ := bytecode.Decode(code[pc])
		_, writes, _ := bytecode.RegOperands(code[pc])
		out := in[pc] &^ bytecode.RegMask(writes)
		isBool := op >= bytecode.OpIEQ && op <= bytecode.OpILE || op >= bytecode.OpFEQ && op <= bytecode.OpFLE || op == bytecode.OpBOOL || op == bytecode.OpILNOT ||
			op == bytecode.OpLDI && pc+1 < len(code) && code[pc+1] <= 1 ||
			op == bytecode.OpMOV && in[pc]&(1<<(b&31)) != 0
		if isBool && a < bytecode.MaxRegs {
			out |= 1 << a
		}
		next := pc + 1
		if bytecode.HasImm(op) {
			next = pc + 2
		}
		switch op {
		case bytecode.OpJMP:
			flow(target(code, pc), out)
		case bytecode.OpJZ, bytecode.OpLOOP:
			flow(target(code, pc), out)
			flow(next, out)
		case bytecode.OpRET, bytecode.OpEND:
		default:
			flow(next, out)
		}
	}
	return in[:len(code)]
}
