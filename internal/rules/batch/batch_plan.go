package batch

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// planBatch looks at the bytecode once for what the batch evaluator can
// skip or fuse: constants, the LDIs that only feed them, and stencil loads
// (an IADD computing the index of the load that follows).
func planBatch(p *bytecode.Program) (ky []int64, skip, fuse []bool, acc []int8) {
	code := p.Code
	target := jumpTargets(p)
	ky = constOperands(p, target)
	skip = make([]bool, len(code))
	fuse = make([]bool, len(code))
	acc = make([]int8, len(code))
	for k := range acc {
		acc[k] = -1
	}
	for pc := 0; pc < len(code); pc++ {
		op, a, _, _ := bytecode.Decode(code[pc])
		switch {
		case op == bytecode.OpLDI:
			skip[pc] = onlyFolded(code, ky, target, pc+2, a)
		case op == bytecode.OpIADD && pc+1 < len(code) && !target[pc+1]:
			op2, a2, b2, _ := bytecode.Decode(code[pc+1])
			fuse[pc] = (op2 == bytecode.OpLD || op2 == bytecode.OpLDS) && a2 == a && b2 == a
			if fuse[pc] && pc+2 < len(code) && !target[pc+2] {
				acc[pc] = accumulates(code, target, pc+2, a)
			}
		}
		if bytecode.HasImm(op) {
			pc++
		}
	}
	return ky, skip, fuse, acc
}

// accumulates returns the register that the IADD at pc adds the loaded
// value t into (acc = acc + t or t + acc), when t is written again before
// its basic block ends and nothing reads it first; else -1.
func accumulates(code []uint32, target []bool, pc, t int) int8 {
	op, a, b, c := bytecode.Decode(code[pc])
	if op != bytecode.OpIADD || a == t || !(b == a && c == t || b == t && c == a) {
		return -1
	}
	for q := pc + 1; q < len(code) && !target[q]; q++ {
		reads, writes, _ := bytecode.RegOperands(code[q])
		for _, r := range reads {
			if r == t {
				return -1
			}
		}
		if len(writes) > 0 && writes[0] == t {
			return int8(a)
		}
		switch int(code[q] & 255) {
		case bytecode.OpJMP, bytecode.OpJZ, bytecode.OpLOOP, bytecode.OpRET, bytecode.OpEND:
			return -1
		}
		if bytecode.HasImm(int(code[q] & 255)) {
			q++
		}
	}
	return -1
}

// onlyFolded reports whether register r, set by an LDI just before pc, is
// read from pc on only as a folded constant operand and set again before
// its basic block ends.
func onlyFolded(code []uint32, ky []int64, target []bool, pc, r int) bool {
	for ; pc < len(code) && !target[pc]; pc++ {
		op, _, b, c := bytecode.Decode(code[pc])
		reads, writes, _ := bytecode.RegOperands(code[pc])
		for k, x := range reads {
			if x != r {
				continue
			}
			folded := k == 1 && c == r && b != r && ky[pc] >= 0 && op >= bytecode.OpIADD &&
				!(op >= bytecode.OpINEG && op <= bytecode.OpBOOL) && !(op >= bytecode.OpFNEG && op <= bytecode.OpF2I) &&
				!((op == bytecode.OpIDIV || op == bytecode.OpIMOD) && ky[pc] == 0)
			if !folded {
				return false
			}
		}
		if len(writes) > 0 && writes[0] == r {
			return true
		}
		if op == bytecode.OpJMP || op == bytecode.OpJZ || op == bytecode.OpLOOP || op == bytecode.OpRET || op == bytecode.OpEND {
			return false
		}
		if bytecode.HasImm(op) {
			pc++
		}
	}
	return false
}

// jumpTargets marks the entry points and jump targets: where lanes from
// elsewhere may join.
func jumpTargets(p *bytecode.Program) []bool {
	code := p.Code
	target := make([]bool, len(code)+1)
	for _, r := range p.Rules {
		if r.CondPC >= 0 {
			target[r.CondPC] = true
		}
		target[r.BodyPC] = true
	}
	for pc := 0; pc < len(code); pc++ {
		op := int(code[pc] & 255)
		if bytecode.HasImm(op) {
			if op != bytecode.OpLDI && pc+1 < len(code) && int(code[pc+1]) <= len(code) {
				target[code[pc+1]] = true
			}
			pc++
		}
	}
	return target
}

// constOperands finds, per instruction, a second operand that an LDI in the
// same basic block set: every lane at the instruction ran that LDI, so the
// lane loop can take the constant (and divide by a power of two with a
// shift).
func constOperands(p *bytecode.Program, target []bool) []int64 {
	code := p.Code
	ky := make([]int64, len(code))
	var known [bytecode.MaxRegs]int64
	for pc := 0; pc < len(code); pc++ {
		ky[pc] = -1
		if target[pc] {
			for r := range known {
				known[r] = -1
			}
		}
		op, a, _, c := bytecode.Decode(code[pc])
		if op >= bytecode.OpIADD && op < bytecode.OpCount && !(op >= bytecode.OpINEG && op <= bytecode.OpBOOL) && !(op >= bytecode.OpFNEG && op <= bytecode.OpF2I) {
			ky[pc] = known[c&31]
		}
		_, writes, _ := bytecode.RegOperands(code[pc])
		for _, w := range writes {
			known[w&31] = -1
		}
		if op == bytecode.OpLDI && pc+1 < len(code) {
			known[a&31] = int64(code[pc+1])
		}
		if bytecode.HasImm(op) {
			pc++
			if pc < len(ky) {
				ky[pc] = -1
			}
		}
	}
	return ky
}
