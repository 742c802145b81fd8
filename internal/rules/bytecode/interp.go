package bytecode

import (
	"math"
	"sync/atomic"
)

// evaluator runs bytecode for one state at a time. The CUDA twin is
// rules_exec in cuda/rules.cu: every opcode must behave identically there.
type VM struct {
	p    *Program
	cur  []uint32 // the state
	snap []uint32 // the snapshot (only the rule's SnapMask fields are valid)
	pend []PendingWrite
	npen int // pending writes of the current evaluation
	regs [MaxRegs]uint32
	// stop is set when the run is cancelled; long loops and step loops
	// check it, so Ctrl-C ends even one enormous state at once.
	stop  *atomic.Bool
	spins uint32
	draw  drawContext
}

type PendingWrite struct {
	Word int
	Val  uint32
}

func F32(u uint32) float32 { return math.Float32frombits(u) }
func U32(f float32) uint32 { return math.Float32bits(f) }

func B2U(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// run executes from pc with index i until OpRET (returning whether the
// precondition holds) or OpEND.
func (e *VM) run(pc int, i int32) (bool, *Fault) {
	code := e.p.Code
	r := &e.regs
	r[0] = uint32(i)
	e.npen = 0
	for {
		w := code[pc]
		op, a, b, c := int(w&255), int(w>>8&255), int(w>>16&255), int(w>>24)
		switch op {
		case OpLDI:
			r[a] = code[pc+1]
			pc += 2
			continue
		case OpMOV:
			r[a] = r[b]
		case OpLD, OpLDS, OpST, OpSTP, OpADDI, OpADDF:
			f := &e.p.Fields[c]
			idx := int32(0)
			if b != NoReg {
				idx = int32(r[b])
			}
			if idx < 0 || int(idx) >= f.Size {
				return false, &Fault{pc, idx}
			}
			word := f.Off + int(idx)
			switch op {
			case OpLD:
				r[a] = e.cur[word]
			case OpLDS:
				r[a] = e.snap[word]
			case OpST:
				e.cur[word] = r[a]
			case OpSTP:
				e.npen++
				if e.npen > MaxPendings {
					return false, &Fault{pc, int32(e.npen)}
				}
				e.pend = append(e.pend, PendingWrite{word, r[a]})
			case OpADDI:
				e.cur[word] += r[a]
			case OpADDF:
				e.cur[word] = U32(F32(e.cur[word]) + F32(r[a]))
			}
		case OpJMP:
			pc = int(code[pc+1])
			continue
		case OpJZ:
			if r[a] == 0 {
				pc = int(code[pc+1])
			} else {
				pc += 2
			}
			continue
		case OpLOOP:
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
		case OpRET:
			return r[a] != 0, nil
		case OpEND:
			return true, nil
		case OpIADD:
			r[a] = r[b] + r[c]
		case OpISUB:
			r[a] = r[b] - r[c]
		case OpIMUL:
			r[a] = r[b] * r[c]
		case OpIDIV, OpIMOD:
			y := int32(r[c])
			if y == 0 {
				return false, &Fault{pc, 0}
			}
			if op == OpIDIV {
				r[a] = uint32(IDiv(int32(r[b]), y))
			} else {
				r[a] = uint32(IMod(int32(r[b]), y))
			}
		case OpIAND:
			r[a] = r[b] & r[c]
		case OpIOR:
			r[a] = r[b] | r[c]
		case OpIXOR:
			r[a] = r[b] ^ r[c]
		case OpISHL:
			r[a] = r[b] << (r[c] & 31)
		case OpISHR:
			r[a] = uint32(int32(r[b]) >> (r[c] & 31))
		case OpIEQ:
			r[a] = B2U(r[b] == r[c])
		case OpINE:
			r[a] = B2U(r[b] != r[c])
		case OpILT:
			r[a] = B2U(int32(r[b]) < int32(r[c]))
		case OpILE:
			r[a] = B2U(int32(r[b]) <= int32(r[c]))
		case OpIMIN:
			r[a] = uint32(min(int32(r[b]), int32(r[c])))
		case OpIMAX:
			r[a] = uint32(max(int32(r[b]), int32(r[c])))
		case OpINEG:
			r[a] = -r[b]
		case OpINOT:
			r[a] = ^r[b]
		case OpILNOT:
			r[a] = B2U(r[b] == 0)
		case OpIABS:
			r[a] = uint32(IAbs(int32(r[b])))
		case OpBOOL:
			r[a] = B2U(r[b] != 0)
		case OpFADD:
			r[a] = U32(F32(r[b]) + F32(r[c]))
		case OpFSUB:
			r[a] = U32(F32(r[b]) - F32(r[c]))
		case OpFMUL:
			r[a] = U32(F32(r[b]) * F32(r[c]))
		case OpFDIV:
			r[a] = U32(F32(r[b]) / F32(r[c]))
		case OpFEQ:
			r[a] = B2U(F32(r[b]) == F32(r[c]))
		case OpFNE:
			r[a] = B2U(F32(r[b]) != F32(r[c]))
		case OpFLT:
			r[a] = B2U(F32(r[b]) < F32(r[c]))
		case OpFLE:
			r[a] = B2U(F32(r[b]) <= F32(r[c]))
		case OpFMIN:
			if F32(r[b]) < F32(r[c]) {
				r[a] = r[b]
			} else {
				r[a] = r[c]
			}
		case OpFMAX:
			if F32(r[b]) > F32(r[c]) {
				r[a] = r[b]
			} else {
				r[a] = r[c]
			}
		case OpFNEG:
			r[a] = r[b] ^ 0x80000000
		case OpFABS:
			r[a] = r[b] &^ 0x80000000
		case OpFSQRT:
			r[a] = U32(float32(math.Sqrt(float64(F32(r[b])))))
		case OpI2F:
			r[a] = U32(float32(int32(r[b])))
		case OpF2I:
			r[a] = uint32(F2I(F32(r[b])))
		case OpRAND, OpRANDF:
			k := uint32(0)
			if b != NoReg {
				k = r[b]
			}
			r[a] = DrawValue(op, DrawBits(e.draw.key, int32(r[0]), c, k))
		case OpURANGE:
			r[a] = URange(r[b], r[c])
		default:
			return false, &Fault{pc, int32(op)}
		}
		pc++
	}
}

// applyRule applies rule ri once to the evaluator's state and returns how
// many indices fired, or the fault of the lowest failing index.
func (e *VM) ApplyRule(ri int) (int64, int, *Fault) {
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
		if i&(1<<16-1) == 0 && e.Stopped() {
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
		e.cur[w.Word] = w.Val
	}
	return fired, 0, nil
}

// Pos is a position in a rule file: 1-based line and column (in bytes).
type Pos struct{ Line, Col int }

// Fault is an evaluation's failure: the instruction (PC) and the offending value.
type Fault struct {
	PC    int
	Value int32
}
