package batch

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// If-conversion of && and ||. The compiler lowers `a && b` to
//
//	BOOL d = a; JZ d, L; <b>; BOOL d = rb; L:
//
// and `a || b` to
//
//	BOOL d = a; JZ d, L1; JMP L2; L1: <b>; BOOL d = rb; L2:
//
// In a batch, the JZ splits the lanes at random (a precondition over a
// random board) and every instruction after it runs on a list of lanes.
// Where <b> cannot fault and writes nothing read after it but d, every
// lane may run it: the jumps go, and the last BOOL becomes ANDB (d = d != 0
// ? bool(rb) : d) or ORB (d = d == 0 ? bool(rb) : d), which leave d as the
// lanes that skipped <b> had it (IAND or IOR where d and rb are 0 or 1).
// Conversion runs innermost first, so a
// chain (Life's `(c == 1 && (n < 2 || n > 3)) || (c == 0 && n == 3)`)
// becomes straight-line code. The batch evaluator runs this private copy
// of the code; the bytecode and every instruction's pc stay as compiled.

const (
	OpANDB = bytecode.OpTotal + iota // d = d != 0 ? bool(r[b]) : d
	OpORB                            // d = d == 0 ? bool(r[b]) : d
)

// ifConvert returns the code with every convertible && and || made
// straight-line.
func ifConvert(p *bytecode.Program) []uint32 {
	code := append([]uint32(nil), p.Code...)
	live := liveOut(p)
	var starts []int
	for pc := 0; pc < len(code); pc++ {
		starts = append(starts, pc)
		if bytecode.HasImm(int(code[pc] & 255)) {
			pc++
		}
	}
	safeLoad := safeIndexLoads(p)
	bools := boolRegs(p)
	for k := len(starts) - 1; k >= 0; k-- {
		pc := starts[k]
		op, d, _, _ := bytecode.Decode(code[pc])
		if op != bytecode.OpJZ || pc+1 >= len(code) {
			continue
		}
		l := int(code[pc+1])
		from, end, nops, conv := pc+2, l, 2, OpANDB
		if pc+3 < len(code) && code[pc+2]&255 == bytecode.OpJMP && l == pc+4 {
			from, end, nops, conv = pc+4, int(code[pc+3]), 4, OpORB
		}
		if end <= from || end > len(code) {
			continue
		}
		last := end - 1
		lop, la, lb, _ := bytecode.Decode(code[last])
		if lop != bytecode.OpBOOL || la != d || (last > from && isImm(code, starts, last)) {
			continue
		}
		try := append([]uint32(nil), code...)
		for q := pc; q < pc+nops; q++ {
			try[q] = bytecode.Encode(bytecode.OpNop, 0, 0, 0)
		}
		target := jumpTargets(&bytecode.Program{Code: try, Rules: p.Rules})
		ok := true
		var written uint32
		for q := from; q < end && ok; q++ {
			if target[q] {
				ok = false
				break
			}
			w := try[q]
			o := int(w & 255)
			if !safeInConversion(w, safeLoad, q) {
				ok = false
				break
			}
			_, writes, _ := bytecode.RegOperands(w)
			if o == OpANDB || o == OpORB {
				writes = []int{int(w >> 8 & 255)}
			}
			if q != last {
				for _, r := range writes {
					if r == d {
						ok = false
					}
				}
			}
			written |= bytecode.RegMask(writes)
			if bytecode.HasImm(o) {
				q++
			}
		}
		if !ok || live[last]&written&^(1<<(d&31)) != 0 {
			continue
		}
		if bools[pc]&(1<<(d&31)) != 0 && bools[last]&(1<<(lb&31)) != 0 {
			// Both 0 or 1: d && rb is d & rb, d || rb is d | rb.
			conv = bytecode.OpIAND
			if nops == 4 {
				conv = bytecode.OpIOR
			}
		}
		if conv == OpANDB || conv == OpORB {
			try[last] = bytecode.Encode(conv, d, lb, 0)
		} else {
			try[last] = bytecode.Encode(conv, d, d, lb)
		}
		code = try
	}
	return code
}

func isImm(code []uint32, starts []int, pc int) bool {
	// pc is an immediate word when the instruction starting before it
	// takes one.
	for _, s := range starts {
		if s == pc {
			return false
		}
		if s > pc {
			break
		}
	}
	return true
}

// safeInConversion reports whether instruction w at pc can run on lanes
// that would have skipped it: no fault, no write to the state, no jump.
func safeInConversion(w uint32, safeLoad []bool, pc int) bool {
	op, _, b, _ := bytecode.Decode(w)
	switch {
	case op == bytecode.OpNop, op == bytecode.OpLDI, op == bytecode.OpMOV, op == OpANDB, op == OpORB:
		return true
	case op == bytecode.OpLD || op == bytecode.OpLDS:
		return b == bytecode.NoReg || safeLoad[pc]
	case op == bytecode.OpIDIV, op == bytecode.OpIMOD:
		return false
	case op >= bytecode.OpIADD && op < bytecode.OpCount:
		return true
	}
	return false
}

// safeIndexLoads marks the loads indexed by the rule's index r0 (never
// written by the rule) whose whole range lies inside the field: they
// cannot fault.
func safeIndexLoads(p *bytecode.Program) []bool {
	safe := make([]bool, len(p.Code))
	_, wm := regMasks(p.Code)
	for ri, r := range p.Rules {
		start, end := ruleCode(p, ri)
		for pc := start; pc < end; pc++ {
			if wm[pc]&1 != 0 {
				start = end // r0 is written: no load is known safe
			}
		}
		for pc := start; pc < end; pc++ {
			op, _, b, c := bytecode.Decode(p.Code[pc])
			if (op == bytecode.OpLD || op == bytecode.OpLDS) && b == 0 && c < len(p.Fields) &&
				r.Lo >= 0 && r.Hi <= p.Fields[c].Size {
				safe[pc] = true
			}
			if bytecode.HasImm(op) {
				pc++
			}
		}
	}
	return safe
}

// ruleCode returns the code words of rule ri: from its precondition (or
// consequence) to the next rule's.
func ruleCode(p *bytecode.Program, ri int) (int, int) {
	first := func(r bytecode.Rule) int {
		if r.CondPC >= 0 {
			return r.CondPC
		}
		return r.BodyPC
	}
	start, end := first(p.Rules[ri]), len(p.Code)
	for _, r := range p.Rules {
		if s := first(r); s > start && s < end {
			end = s
		}
	}
	return start, end
}

// andOr runs an ANDB or ORB on the lanes of act.
func andOr(op int, D, X *[lanes]uint32, act []uint8, n int) {
	var want uint32 // ANDB changes lanes where d != 0, ORB where d == 0
	if op == OpORB {
		want = 1
	}
	if len(act) == n {
		d, xs := D[:n], X[:n]
		for i, x := range xs {
			m := -(bytecode.B2U(d[i] == 0) ^ want ^ 1) // all ones where d changes
			d[i] = d[i]&^m | bytecode.B2U(x != 0)&m
		}
		return
	}
	for _, l := range act {
		m := -(bytecode.B2U(D[l] == 0) ^ want ^ 1)
		D[l] = D[l]&^m | bytecode.B2U(X[l] != 0)&m
	}
}
