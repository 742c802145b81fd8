package rules

import (
	"math"
	"sync/atomic"
)

// evaluator runs bytecode for one state at a time. The CUDA twin is
// rules_exec in cuda/rules.cu: every opcode must behave identically there.
type evaluator struct {
	p    *Program
	cur  []uint32 // the state
	snap []uint32 // the snapshot (only the rule's SnapMask fields are valid)
	pend []pendingWrite
	npen int // pending writes of the current evaluation
	regs [MaxRegs]uint32
	// stop is set when the run is cancelled; long loops and step loops
	// check it, so Ctrl-C ends even one enormous state at once.
	stop  *atomic.Bool
	spins uint32
	draw  drawContext
}

type pendingWrite struct {
	word int
	val  uint32
}

func f32(u uint32) float32 { return math.Float32frombits(u) }
func u32(f float32) uint32 { return math.Float32bits(f) }

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// run executes from pc with index i until opRET (returning whether the
// precondition holds) or opEND.
func (e *evaluator) run(pc int, i int32) (bool, *fault) {
	code := e.p.Code
	r := &e.regs
	r[0] = uint32(i)
	e.npen = 0
	for {
		w := code[pc]
		op, a, b, c := int(w&255), int(w>>8&255), int(w>>16&255), int(w>>24)
		switch op {
		case opLDI:
			r[a] = code[pc+1]
			pc += 2
			continue
		case opMOV:
			r[a] = r[b]
		case opLD, opLDS, opST, opSTP, opADDI, opADDF:
			f := &e.p.Fields[c]
			idx := int32(0)
			if b != noReg {
				idx = int32(r[b])
			}
			if idx < 0 || int(idx) >= f.Size {
				return false, &fault{pc, idx}
			}
			word := f.Off + int(idx)
			switch op {
			case opLD:
				r[a] = e.cur[word]
			case opLDS:
				r[a] = e.snap[word]
			case opST:
				e.cur[word] = r[a]
			case opSTP:
				e.npen++
				if e.npen > MaxPendings {
					return false, &fault{pc, int32(e.npen)}
				}
				e.pend = append(e.pend, pendingWrite{word, r[a]})
			case opADDI:
				e.cur[word] += r[a]
			case opADDF:
				e.cur[word] = u32(f32(e.cur[word]) + f32(r[a]))
			}
		case opJMP:
			pc = int(code[pc+1])
			continue
		case opJZ:
			if r[a] == 0 {
				pc = int(code[pc+1])
			} else {
				pc += 2
			}
			continue
		case opLOOP:
			if e.spins++; e.spins&(1<<16-1) == 0 && e.stop != nil && e.stop.Load() {
				return false, nil // the run is being abandoned: the state no longer matters
			}
			r[a]--
			if int32(r[a]) > 0 {
				pc = int(code[pc+1])
			} else {
				pc += 2
			}
			continue
		case opRET:
			return r[a] != 0, nil
		case opEND:
			return true, nil
		case opIADD:
			r[a] = r[b] + r[c]
		case opISUB:
			r[a] = r[b] - r[c]
		case opIMUL:
			r[a] = r[b] * r[c]
		case opIDIV, opIMOD:
			y := int32(r[c])
			if y == 0 {
				return false, &fault{pc, 0}
			}
			if op == opIDIV {
				r[a] = uint32(idiv(int32(r[b]), y))
			} else {
				r[a] = uint32(imod(int32(r[b]), y))
			}
		case opIAND:
			r[a] = r[b] & r[c]
		case opIOR:
			r[a] = r[b] | r[c]
		case opIXOR:
			r[a] = r[b] ^ r[c]
		case opISHL:
			r[a] = r[b] << (r[c] & 31)
		case opISHR:
			r[a] = uint32(int32(r[b]) >> (r[c] & 31))
		case opIEQ:
			r[a] = b2u(r[b] == r[c])
		case opINE:
			r[a] = b2u(r[b] != r[c])
		case opILT:
			r[a] = b2u(int32(r[b]) < int32(r[c]))
		case opILE:
			r[a] = b2u(int32(r[b]) <= int32(r[c]))
		case opIMIN:
			r[a] = uint32(min(int32(r[b]), int32(r[c])))
		case opIMAX:
			r[a] = uint32(max(int32(r[b]), int32(r[c])))
		case opINEG:
			r[a] = -r[b]
		case opINOT:
			r[a] = ^r[b]
		case opILNOT:
			r[a] = b2u(r[b] == 0)
		case opIABS:
			r[a] = uint32(iabs(int32(r[b])))
		case opBOOL:
			r[a] = b2u(r[b] != 0)
		case opFADD:
			r[a] = u32(f32(r[b]) + f32(r[c]))
		case opFSUB:
			r[a] = u32(f32(r[b]) - f32(r[c]))
		case opFMUL:
			r[a] = u32(f32(r[b]) * f32(r[c]))
		case opFDIV:
			r[a] = u32(f32(r[b]) / f32(r[c]))
		case opFEQ:
			r[a] = b2u(f32(r[b]) == f32(r[c]))
		case opFNE:
			r[a] = b2u(f32(r[b]) != f32(r[c]))
		case opFLT:
			r[a] = b2u(f32(r[b]) < f32(r[c]))
		case opFLE:
			r[a] = b2u(f32(r[b]) <= f32(r[c]))
		case opFMIN:
			if f32(r[b]) < f32(r[c]) {
				r[a] = r[b]
			} else {
				r[a] = r[c]
			}
		case opFMAX:
			if f32(r[b]) > f32(r[c]) {
				r[a] = r[b]
			} else {
				r[a] = r[c]
			}
		case opFNEG:
			r[a] = r[b] ^ 0x80000000
		case opFABS:
			r[a] = r[b] &^ 0x80000000
		case opFSQRT:
			r[a] = u32(float32(math.Sqrt(float64(f32(r[b])))))
		case opI2F:
			r[a] = u32(float32(int32(r[b])))
		case opF2I:
			r[a] = uint32(f2i(f32(r[b])))
		case opRAND, opRANDF:
			k := uint32(0)
			if b != noReg {
				k = r[b]
			}
			r[a] = drawValue(op, drawBits(e.draw.key, int32(r[0]), c, k))
		case opURANGE:
			r[a] = urange(r[b], r[c])
		default:
			return false, &fault{pc, int32(op)}
		}
		pc++
	}
}

// applyRule applies rule ri once to the evaluator's state and returns how
// many indices fired, or the fault of the lowest failing index.
func (e *evaluator) applyRule(ri int) (int64, int, *fault) {
	rule := &e.p.Rules[ri]
	if e.p.Draws {
		e.draw.forRule(ri)
	}
	if rule.SnapMask != 0 {
		for fi, f := range e.p.Fields {
			if rule.SnapMask&(1<<fi) != 0 {
				copy(e.snap[f.Off:f.Off+f.Size], e.cur[f.Off:f.Off+f.Size])
			}
		}
	}
	e.pend = e.pend[:0]
	var fired int64
	for i := rule.Lo; i < rule.Hi; i++ {
		if i&(1<<16-1) == 0 && e.stopped() {
			return fired, 0, nil // a range may hold 2^31 indices: Ctrl-C ends it too
		}
		if rule.CondPC >= 0 {
			en, f := e.run(rule.CondPC, int32(i))
			if f != nil {
				return fired, i, f
			}
			if !en {
				continue
			}
		}
		fired++
		if _, f := e.run(rule.BodyPC, int32(i)); f != nil {
			return fired, i, f
		}
	}
	for _, w := range e.pend {
		e.cur[w.word] = w.val
	}
	return fired, 0, nil
}
