package batch

import (
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// The CPU's fast path: the bytecode interpreted for a batch of up to 256
// consecutive indices at once, one instruction at a time over all of them
// (the GPU's SIMT execution, in Go). Decoding and dispatch are paid once per
// instruction per batch instead of once per index, and every instruction is
// a tight loop over the lanes' registers. Lanes that branch apart wait at
// their target; the lowest waiting instruction runs next, so lanes meet
// again where the branches join and each instruction runs once for all the
// lanes that reach it. The interpreter (bytecode.VM) stays the reference and
// names every fault.
//
// What keeps the lane loops few, each planned once per program from the
// bytecode, which stays as compiled:
//   - batch_plan.go: constant operands folded, stencil loads fused;
//   - batch_kinds.go: registers the same in every lane or stepping by a
//     constant kept as two numbers (index arithmetic costs one operation a
//     batch, loads through them are copies);
//   - batch_ifconv.go: && and || that cannot fault made straight-line;
//   - batch_fuse.go: a*b + c*d in one pass, BOOL of a 0/1 value a copy;
//   - batch_stencil.go: a neighbour count summed four windows a pass.
//   - batch_bits.go: comparisons, && and || kept as bits, 64 lanes a word;
//   - batch_group.go: four products (a 2x2 matrix) in one pass, a loop of
//     them every turn at once;
//   - batch_dce.go: what nothing reads and cannot fault dropped.

const lanes = 256

type laneGroup struct {
	pc    int
	lanes []uint8
}

// Eval evaluates one state's rules a batch of lanes at a time; it has the
// methods of the engine's per-goroutine evaluator (SetState, DrawAt,
// ApplyRule, Stopped). It is not safe for concurrent use.
type Eval struct {
	p     *bytecode.Program
	ref   *bytecode.VM
	cur   []uint32
	snap  []uint32
	stop  *atomic.Bool
	r     [bytecode.MaxRegs][lanes]uint32
	n     int         // lanes in the batch
	en    [lanes]bool // the precondition's value per lane
	fault [lanes]bool
	anyF  bool
	dirty bool                           // pend or fadd may hold writes
	pend  [lanes][]bytecode.PendingWrite // scattered writes, per lane
	fadd  [lanes][]bytecode.PendingWrite // float +=, per lane (their sum depends on the order)
	wait  []laneGroup
	free  [][]uint8
	// ky[pc] is the constant every lane holds in instruction pc's second
	// operand (an LDI earlier in its basic block), or -1; skip[pc]: an LDI
	// only such operands read; fuse[pc]: an IADD whose sum only the load
	// after it reads (batch_plan.go).
	ky         []int64
	skip, fuse []bool
	fma        []bool       // an FMUL starting a fused product (batch_fuse.go)
	groups     []*prodGroup // four fused products starting here (batch_group.go)
	bools      []uint32     // registers holding 0 or 1 (batch_fuse.go)
	code       []uint32     // the program, && and || if-converted (batch_ifconv.go)
	target     []bool       // jump targets and entry points
	wins       []window2    // a stencil sum's windows (batch_stencil.go)
	iota       [lanes]uint8 // 0, 1, ... 255: every lane
	cuts       []int
	srcs       [][]uint32
	acc        []int8        // a fused load's value is added into this register
	kreg       [lanes]uint32 // a constant operand spread over the lanes
	queue      [lanes]int32  // indices whose precondition holds, waiting for their consequence
	// rulePend collects the rule's scattered writes in index order.
	rulePend []bytecode.PendingWrite
	// split: several goroutines share the state (cpu_split.go): int +=
	// is atomic and float += collects in fadds, in index order.
	split bool
	fadds []bytecode.PendingWrite
	// Registers kept as a base and a stride (batch_kinds.go); rm and wm
	// are the registers each instruction reads and writes.
	aff    uint32
	av     [bytecode.MaxRegs]aval
	bit    uint32                             // registers kept as bits (batch_bits.go)
	bv     [bytecode.MaxRegs][bitWords]uint64 // their bits, lane l in word l/64
	enBits [bitWords]uint64                   // the precondition's value kept as bits,
	enKept bool                               // when enKept (else en)
	rm, wm []uint32
	scr    [3][lanes]uint32
	one    [1]uint8
}

// NewEval plans p for the batch evaluator; stop, when set, ends the
// evaluation early. p must pass Fits.
func NewEval(p *bytecode.Program, stop *atomic.Bool) *Eval {
	return newEval(p, stop, bytecode.NewVM(p, stop))
}

// newEval plans p for the batch evaluator around ref, the interpreter that
// names its faults; its snapshot is the evaluator's.
func newEval(p *bytecode.Program, stop *atomic.Bool, ref *bytecode.VM) *Eval {
	b := &Eval{p: p, ref: ref, snap: ref.Snapshot(), stop: stop}
	b.ky, b.skip, b.fuse, b.acc = planBatch(p)
	b.fma = planFMA(p, jumpTargets(p))
	b.code = dropDeadCode(p, ifConvert(p), b.fuse, b.acc, b.fma)
	for l := range b.iota {
		b.iota[l] = uint8(l)
	}
	b.target = jumpTargets(&bytecode.Program{Code: b.code, Rules: p.Rules})
	b.rm, b.wm = regMasks(b.code)
	b.groups = planGroups(p, b.code, b.fma, b.target)
	b.bools = boolRegs(p)
	return b
}

// Fits reports whether every register operand lies in the register
// file (always so for Compile's output).
func Fits(p *bytecode.Program) bool {
	for pc := 0; pc < len(p.Code); pc++ {
		op := int(p.Code[pc] & 255)
		if _, _, ok := bytecode.RegOperands(p.Code[pc]); !ok {
			return false
		}
		if bytecode.HasImm(op) {
			if pc+1 >= len(p.Code) {
				return false
			}
			pc++
		}
	}
	return true
}

func (b *Eval) SetState(w []uint32) {
	b.cur = w
	b.ref.SetState(w)
}
func (b *Eval) DrawAt(seed uint64, state, step int) {
	b.ref.DrawAt(seed, state, step)
}
func (b *Eval) Stopped() bool { return b.stop != nil && b.stop.Load() }

func (b *Eval) get() []uint8 {
	if k := len(b.free); k > 0 {
		s := b.free[k-1]
		b.free = b.free[:k-1]
		return s[:0]
	}
	return make([]uint8, 0, lanes)
}

func (b *Eval) release(s []uint8) {
	if cap(s) == lanes {
		b.free = append(b.free, s)
	}
}

// push makes lanes wait at pc.
func (b *Eval) push(s []uint8, pc int) {
	if len(s) == 0 {
		b.release(s)
		return
	}
	for k := range b.wait {
		if b.wait[k].pc == pc {
			b.wait[k].lanes = append(b.wait[k].lanes, s...)
			b.release(s)
			return
		}
	}
	b.wait = append(b.wait, laneGroup{pc, s})
}

// pop returns the lowest waiting instruction and its lanes.
func (b *Eval) pop() (int, []uint8) {
	if len(b.wait) == 0 {
		return -1, nil
	}
	m := 0
	for k := range b.wait {
		if b.wait[k].pc < b.wait[m].pc {
			m = k
		}
	}
	g := b.wait[m]
	b.wait[m] = b.wait[len(b.wait)-1]
	b.wait = b.wait[:len(b.wait)-1]
	return g.pc, g.lanes
}

func (b *Eval) faultLane(l uint8) { b.fault[l], b.anyF = true, true }

// exec runs the lanes of act from pc until each reaches OpRET (setting en)
// or OpEND.
func (b *Eval) exec(pc int, act []uint8) {
	code := b.code
	b.wait = b.wait[:0]
	spins := 0
	for {
		if len(act) == 0 {
			b.release(act)
			if pc, act = b.pop(); pc < 0 {
				return
			}
		}
		for k := 0; k < len(b.wait); k++ {
			if b.wait[k].pc == pc {
				act = append(act, b.wait[k].lanes...)
				b.release(b.wait[k].lanes)
				b.wait[k] = b.wait[len(b.wait)-1]
				b.wait = b.wait[:len(b.wait)-1]
				break
			}
		}
		op, a, ib, c := bytecode.Decode(code[pc])
		if op == bytecode.OpNop { // left by if-conversion
			pc++
			continue
		}
		n := b.n
		if op == bytecode.OpBOOL && b.bools[pc]&(1<<(ib&31)) != 0 {
			op = bytecode.OpMOV // of a value that is 0 or 1 already
		}
		if len(act) == n {
			if op == bytecode.OpFMUL && b.fma[pc] {
				if g := b.groups[pc]; g != nil {
					if next := b.productGroup(pc, g); next >= 0 {
						pc = next
						continue
					}
				}
				if b.fusedProduct(pc) {
					pc += 3
					continue
				}
			}
			next := -1
			if op == bytecode.OpIADD && b.fuse[pc] {
				next = b.affineFused(pc)
			} else {
				next = b.affine(pc, op, a, ib, c)
			}
			if next < 0 && !(op == bytecode.OpIADD && b.fuse[pc]) {
				next = b.bitOp(pc, op, a, ib, c)
			}
			if op == bytecode.OpRET && b.isBits(a) {
				b.retBits(a)
				act = act[:0]
				continue
			}
			if next >= 0 {
				if op == bytecode.OpLOOP {
					if spins++; spins&63 == 0 && b.Stopped() {
						b.release(act)
						return
					}
				}
				pc = next
				continue
			}
		}
		kc := b.ky[pc]
		if b.aff|b.bit != 0 {
			var kr int
			kc, kr = b.constOperand(pc, op, &ib, c, kc)
			rm, wm := b.rm[pc], b.wm[pc]
			if kr >= 0 {
				rm &^= 1 << (kr & 31) // read as the constant kc
			}
			if op == bytecode.OpIADD && b.fuse[pc] {
				// The load reads the index the IADD wrote, the
				// accumulating IADD the loaded value.
				rm |= b.rm[pc+1] &^ (1 << (a & 31))
				wm |= b.wm[pc+1]
				if b.acc[pc] >= 0 {
					rm |= b.rm[pc+2] &^ (1 << (a & 31))
					wm |= b.wm[pc+2]
				}
			}
			if len(act) != n {
				rm |= wm
			}
			b.materialize(rm)
			b.toLanes(wm)
		}
		D := &b.r[a&31]
		switch op {
		case bytecode.OpNop:
		case bytecode.OpLDI:
			if b.skip[pc] {
				pc += 2
				continue
			}
			k := code[pc+1]
			if len(act) == n {
				for i := 0; i < n; i++ {
					D[uint8(i)] = k
				}
			} else {
				for _, l := range act {
					D[l] = k
				}
			}
			pc += 2
			continue
		case bytecode.OpMOV:
			if len(act) != n {
				for _, l := range act {
					D[l] = b.r[ib&31][l]
				}
			} else {
				copy(D[:n], b.r[ib&31][:n])
			}
		case OpANDB, OpORB:
			andOr(op, D, &b.r[ib&31], act, n)
		case bytecode.OpLD, bytecode.OpLDS:
			b.load(op, D, ib, c, act)
		case bytecode.OpST, bytecode.OpSTP, bytecode.OpADDI, bytecode.OpADDF:
			b.store(op, D, ib, c, act)
		case bytecode.OpJMP:
			b.push(act, int(code[pc+1]))
			act = nil
			continue
		case bytecode.OpJZ:
			// Branch-free: the lanes of a precondition go either way at
			// random.
			z, nz := b.get(), b.get()
			zp, nzp := (*[lanes]uint8)(z[:lanes]), (*[lanes]uint8)(nz[:lanes])
			nzn, zn := 0, 0
			for _, l := range act {
				nzp[uint8(nzn)], zp[uint8(zn)] = l, l
				t := int(bytecode.B2U(D[l] != 0))
				nzn += t
				zn += 1 - t
			}
			z, nz = z[:zn], nz[:nzn]
			b.release(act)
			switch {
			case len(z) == 0:
				b.release(z)
				act = nz
				pc += 2
				continue
			case len(nz) == 0 && len(b.wait) == 0:
				b.release(nz)
				act, pc = z, int(code[pc+1])
				continue
			}
			b.push(nz, pc+2)
			b.push(z, int(code[pc+1]))
			act = nil
			continue
		case bytecode.OpLOOP:
			if spins++; spins&63 == 0 && b.Stopped() {
				b.release(act)
				return
			}
			back, out := b.get(), b.get()
			for _, l := range act {
				D[l]--
				if int32(D[l]) > 0 {
					back = append(back, l)
				} else {
					out = append(out, l)
				}
			}
			b.release(act)
			b.push(out, pc+2)
			if t := int(code[pc+1]); t <= pc && len(back) > 0 {
				act, pc = back, t // backwards: below every waiting lane
				continue
			}
			b.push(back, int(code[pc+1]))
			act = nil
			continue
		case bytecode.OpRET:
			for _, l := range act {
				b.en[l] = D[l] != 0
			}
			act = act[:0]
			continue
		case bytecode.OpEND:
			act = act[:0]
			continue
		case bytecode.OpIDIV, bytecode.OpIMOD:
			if k := kc; k > 0 && int32(k) != 0 && b.divK(op, D, &b.r[ib&31], int32(k), act) {
				break
			}
			X, Y := &b.r[ib&31], &b.r[c&31]
			for _, l := range act {
				x, y := int32(X[l]), int32(Y[l])
				switch {
				case y == 0:
					b.faultLane(l)
					D[l] = 0
				case op == bytecode.OpIDIV:
					D[l] = uint32(bytecode.IDiv(x, y))
				default:
					D[l] = uint32(bytecode.IMod(x, y))
				}
			}
		case bytecode.OpRAND, bytecode.OpRANDF:
			b.draw(op, D, ib, c, act)
		case bytecode.OpURANGE:
			X, Y := &b.r[ib&31], &b.r[c&31]
			for _, l := range act {
				D[l] = bytecode.URange(X[l], Y[l])
			}
		case bytecode.OpIADD:
			if b.fuse[pc] {
				op2, _, _, f2 := bytecode.Decode(code[pc+1])
				if r := b.acc[pc]; r >= 0 {
					// The loaded value only feeds the next IADD: add it
					// there (its register is written again before a read).
					b.loadAdd(op2, &b.r[r&31], &b.r[ib&31], &b.r[c&31], kc, f2, act)
					pc += 3
					continue
				}
				b.loadSum(op2, D, &b.r[ib&31], &b.r[c&31], kc, f2, act)
				pc += 2
				continue
			}
			fallthrough
		default:
			if k := kc; k >= 0 && batchBinaryK(op, D, &b.r[ib&31], uint32(k), act, n) {
				break
			}
			if !(batchUnary(op, D, &b.r[ib&31], act, n) || batchBinary(op, D, &b.r[ib&31], &b.r[c&31], act, n)) {
				for _, l := range act {
					b.faultLane(l)
				}
			}
		}
		pc++
	}
}
