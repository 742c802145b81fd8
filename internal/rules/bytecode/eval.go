package bytecode

import (
	"math"
	"sync/atomic"
)

func (e *VM) SetState(w []uint32) { e.cur = w }
func (e *VM) DrawAt(seed uint64, state, step int) {
	e.draw.seed, e.draw.state, e.draw.step = seed, state, step
}
func (e *VM) Stopped() bool { return e.stop != nil && e.stop.Load() }

// takeSnapshot copies the fields rule reads from the snapshot.
func TakeSnapshot(p *Program, rule *Rule, cur, snap []uint32) {
	if rule.SnapMask == 0 {
		return
	}
	for fi, f := range p.Fields {
		if rule.SnapMask&(1<<fi) != 0 {
			copy(snap[f.Off:f.Off+f.Size], cur[f.Off:f.Off+f.Size])
		}
	}
}

// regOperands returns the registers instruction w reads and writes, and
// false when one lies outside the register file.
func RegOperands(w uint32) (reads, writes []int, ok bool) {
	op, a, b, c := Decode(w)
	idx := func(r int) []int {
		if r == NoReg {
			return nil
		}
		return []int{r}
	}
	switch {
	case op == OpLDI:
		writes = []int{a}
	case op == OpMOV, op >= OpINEG && op <= OpBOOL, op >= OpFNEG && op <= OpF2I:
		reads, writes = []int{b}, []int{a}
	case op == OpLD, op == OpLDS:
		reads, writes = idx(b), []int{a}
	case op == OpST, op == OpSTP, op == OpADDI, op == OpADDF:
		reads = append([]int{a}, idx(b)...)
	case op == OpJZ, op == OpRET:
		reads = []int{a}
	case op == OpLOOP:
		reads, writes = []int{a}, []int{a}
	case op >= OpIADD && op < OpCount, op == OpURANGE:
		reads, writes = []int{b, c}, []int{a}
	case op == OpRAND, op == OpRANDF:
		reads, writes = append([]int{0}, idx(b)...), []int{a} // r0: the index keys the draw
	}
	for _, r := range append(append([]int(nil), reads...), writes...) {
		if r >= MaxRegs {
			return nil, nil, false
		}
	}
	return reads, writes, true
}

func RegMask(rs []int) uint32 {
	m := uint32(0)
	for _, r := range rs {
		m |= 1 << r
	}
	return m
}

func FMin32(x, y uint32) uint32 {
	if F32(x) < F32(y) {
		return x
	}
	return y
}

func FMax32(x, y uint32) uint32 {
	if F32(x) > F32(y) {
		return x
	}
	return y
}

func FSqrt32(x uint32) uint32 { return U32(float32(math.Sqrt(float64(F32(x))))) }

// NewVM returns an interpreter for p with its own snapshot buffer; stop, when
// set, cancels long loops.
func NewVM(p *Program, stop *atomic.Bool) *VM {
	return &VM{p: p, snap: make([]uint32, p.Words), stop: stop}
}

// NewVMSharing is NewVM reading its snapshot from snap, which its owner
// fills (TakeSnapshot), without a buffer of its own: a board of 2^31 cells
// split over 16 parts would otherwise allocate 16 snapshots of 8 GiB that
// no part reads.
func NewVMSharing(p *Program, stop *atomic.Bool, snap []uint32) *VM {
	return &VM{p: p, snap: snap, stop: stop}
}

// Snapshot is the buffer rules read their snapshot fields from.
func (e *VM) Snapshot() []uint32 { return e.snap }

// ShareSnapshot makes e read its snapshot from snap, which its owner fills
// (TakeSnapshot): several evaluators working on parts of one state see one
// snapshot.
func (e *VM) ShareSnapshot(snap []uint32) { e.snap = snap }

// ForRule keys the draws of rule ri (after DrawAt); evaluators that draw
// for the VM's rule without running it call it before DrawKey.
func (e *VM) ForRule(ri int) { e.draw.forRule(ri) }

// DrawKey is the state key of the current rule's draws (DrawBits' sk).
func (e *VM) DrawKey() uint64 { return e.draw.key }

// FaultOf runs the evaluation at pc for index i on the current state and
// returns its first fault in program order (nil: it does not fault). Its
// scattered writes are dropped: only the fault is wanted (the batch
// evaluator names a lane's fault this way).
func (e *VM) FaultOf(pc int, i int32) *Fault {
	pend := len(e.pend)
	_, flt := e.run(pc, i)
	e.pend = e.pend[:pend]
	return flt
}
