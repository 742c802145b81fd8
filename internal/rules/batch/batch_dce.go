package batch

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Dead code. Every `let` of a rule is compiled into both its precondition
// and its consequence, so a consequence recomputes what only the
// precondition reads (Life's consequence `c[k] = 1 - c[k]` recomputes the
// neighbour count: eight loads and their index arithmetic, on lanes whose
// indices are scattered). An instruction whose result nothing reads may go
// only if it cannot fault: a load whose index provably lies in its field, a
// division by a constant other than 0. What the indices can be follows from
// the rule's range: intervals of int32 values carried forward from r0's
// through constants, sums, differences, products and divisions by
// constants. The batch evaluator runs its private copy of the code with
// such instructions made NOPs; the bytecode stays as compiled.

// interval is the int32 values a register may hold, lo <= hi.
type interval struct{ lo, hi int64 }

var anyInt32 = interval{math.MinInt32, math.MaxInt32}

func (v interval) fits() interval {
	if v.lo < math.MinInt32 || v.hi > math.MaxInt32 {
		return anyInt32
	}
	return v
}

// rangeOf is the interval of op's result from its operands' x and y.
func rangeOf(op int, x, y interval) interval {
	switch op {
	case bytecode.OpIADD:
		return interval{x.lo + y.lo, x.hi + y.hi}.fits()
	case bytecode.OpISUB:
		return interval{x.lo - y.hi, x.hi - y.lo}.fits()
	case bytecode.OpIMUL:
		ps := [4]int64{x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi}
		r := interval{ps[0], ps[0]}
		for _, p := range ps[1:] {
			r.lo, r.hi = min(r.lo, p), max(r.hi, p)
		}
		return r.fits()
	case bytecode.OpIDIV:
		if y.lo != y.hi || y.lo == 0 || y.lo == -1 {
			return anyInt32
		}
		if k := y.lo; k > 0 { // truncation is monotonic in x
			return interval{x.lo / k, x.hi / k}
		}
		return interval{x.hi / y.lo, x.lo / y.lo}
	case bytecode.OpIMOD:
		if y.lo != y.hi || y.lo == 0 {
			return anyInt32
		}
		k := max(y.lo, -y.lo)
		if x.lo >= 0 && x.hi < k {
			return x
		}
		return interval{0, k - 1}
	}
	return anyInt32
}

// segment returns the instruction starts from entry to its RET or END,
// false when a jump or a join lies on the way.
func segment(code []uint32, target []bool, entry int) ([]int, bool) {
	var pcs []int
	for pc := entry; pc < len(code); pc++ {
		if pc != entry && target[pc] {
			return nil, false
		}
		op := int(code[pc] & 255)
		pcs = append(pcs, pc)
		switch op {
		case bytecode.OpRET, bytecode.OpEND:
			return pcs, true
		case bytecode.OpJMP, bytecode.OpJZ, bytecode.OpLOOP:
			return nil, false
		}
		if bytecode.HasImm(op) {
			pc++
		}
	}
	return nil, false
}

// dropDeadCode makes NOPs of the instructions in code (the batch
// evaluator's copy of p's) that nothing reads and that cannot fault, in
// the rules' straight-line preconditions and consequences. A fused unit
// (fuse and acc, fma: planned on p's code) goes whole or not at all.
func dropDeadCode(p *bytecode.Program, code []uint32, fuse []bool, acc []int8, fma []bool) []uint32 {
	out := append([]uint32(nil), code...)
	target := jumpTargets(&bytecode.Program{Code: code, Rules: p.Rules})
	rm, wm := regMasks(code)
	for _, rule := range p.Rules {
		for _, entry := range []int{rule.CondPC, rule.BodyPC} {
			if entry < 0 {
				continue
			}
			pcs, ok := segment(code, target, entry)
			if !ok {
				continue
			}
			// Forward: what each register may hold, so which
			// instructions cannot fault.
			var rng [bytecode.MaxRegs]interval
			for r := range rng {
				rng[r] = anyInt32
			}
			rng[0] = interval{int64(rule.Lo), int64(rule.Hi) - 1}
			safe := make(map[int]bool, len(pcs))
			for _, pc := range pcs {
				op, a, b, c := bytecode.Decode(code[pc])
				switch {
				case op == bytecode.OpLDI:
					v := int64(int32(code[pc+1]))
					rng[a&31], safe[pc] = interval{v, v}, true
					continue
				case op == bytecode.OpMOV:
					rng[a&31], safe[pc] = rng[b&31], true
					continue
				case op == bytecode.OpLD || op == bytecode.OpLDS:
					size := int64(p.Fields[c].Size)
					safe[pc] = b == bytecode.NoReg && size >= 1 || b != bytecode.NoReg && rng[b&31].lo >= 0 && rng[b&31].hi < size
				case op == bytecode.OpIDIV || op == bytecode.OpIMOD:
					safe[pc] = rng[c&31].lo > 0 || rng[c&31].hi < 0
				case op >= bytecode.OpIADD && op < bytecode.OpCount, op == OpANDB, op == OpORB:
					safe[pc] = true
				}
				if wm[pc] != 0 {
					v := anyInt32
					if op >= bytecode.OpIADD && op < bytecode.OpCount {
						v = rangeOf(op, rng[b&31], rng[c&31])
					}
					rng[a&31] = v
				}
			}
			// Backward: what is read later.
			var live uint32
			if op, a, _, _ := bytecode.Decode(code[pcs[len(pcs)-1]]); op == bytecode.OpRET {
				live = 1 << (a & 31)
			}
			dead := make(map[int]bool)
			for k := len(pcs) - 1; k >= 0; k-- {
				pc := pcs[k]
				if safe[pc] && wm[pc] != 0 && wm[pc]&live == 0 {
					dead[pc] = true
					continue
				}
				live = live&^wm[pc] | rm[pc]
			}
			if !wholeUnits(dead, fuse, acc, fma) {
				continue
			}
			for pc := range dead {
				out[pc] = bytecode.Encode(bytecode.OpNop, 0, 0, 0)
				if bytecode.HasImm(int(code[pc] & 255)) {
					out[pc+1] = bytecode.Encode(bytecode.OpNop, 0, 0, 0)
				}
			}
		}
	}
	return out
}

// wholeUnits reports whether every fused unit is dead whole or live whole.
func wholeUnits(dead map[int]bool, fuse []bool, acc []int8, fma []bool) bool {
	for pc := range fuse {
		var unit []int
		switch {
		case fuse[pc] && acc[pc] >= 0:
			unit = []int{pc, pc + 1, pc + 2}
		case fuse[pc]:
			unit = []int{pc, pc + 1}
		case fma[pc]:
			unit = []int{pc, pc + 1, pc + 2}
		default:
			continue
		}
		for _, q := range unit {
			if dead[q] != dead[pc] {
				return false
			}
		}
	}
	return true
}
