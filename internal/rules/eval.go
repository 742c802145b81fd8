package rules

import "math"

// stateEval applies rules to one state at a time: the batch evaluator
// (batch.go), its split over several goroutines (cpu_split.go) or the
// interpreter (interp.go), the reference.
type stateEval interface {
	applyRule(ri int) (fired int64, index int, f *fault)
	setState(w []uint32)
	// drawAt keys the draws (rand.go) of the steps to come: the state's
	// number in the whole run and the step.
	drawAt(seed uint64, state, step int)
	stopped() bool
}

func (e *evaluator) setState(w []uint32) { e.cur = w }
func (e *evaluator) drawAt(seed uint64, state, step int) {
	e.draw.seed, e.draw.state, e.draw.step = seed, state, step
}
func (e *evaluator) stopped() bool { return e.stop != nil && e.stop.Load() }

// takeSnapshot copies the fields rule reads from the snapshot.
func takeSnapshot(p *Program, rule *Rule, cur, snap []uint32) {
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
func regOperands(w uint32) (reads, writes []int, ok bool) {
	op, a, b, c := decode(w)
	idx := func(r int) []int {
		if r == noReg {
			return nil
		}
		return []int{r}
	}
	switch {
	case op == opLDI:
		writes = []int{a}
	case op == opMOV, op >= opINEG && op <= opBOOL, op >= opFNEG && op <= opF2I:
		reads, writes = []int{b}, []int{a}
	case op == opLD, op == opLDS:
		reads, writes = idx(b), []int{a}
	case op == opST, op == opSTP, op == opADDI, op == opADDF:
		reads = append([]int{a}, idx(b)...)
	case op == opJZ, op == opRET:
		reads = []int{a}
	case op == opLOOP:
		reads, writes = []int{a}, []int{a}
	case op >= opIADD && op < opCount, op == opURANGE:
		reads, writes = []int{b, c}, []int{a}
	case op == opRAND, op == opRANDF:
		reads, writes = append([]int{0}, idx(b)...), []int{a} // r0: the index keys the draw
	}
	for _, r := range append(append([]int(nil), reads...), writes...) {
		if r >= MaxRegs {
			return nil, nil, false
		}
	}
	return reads, writes, true
}

func regMask(rs []int) uint32 {
	m := uint32(0)
	for _, r := range rs {
		m |= 1 << r
	}
	return m
}

func fmin32(x, y uint32) uint32 {
	if f32(x) < f32(y) {
		return x
	}
	return y
}

func fmax32(x, y uint32) uint32 {
	if f32(x) > f32(y) {
		return x
	}
	return y
}

func fsqrt32(x uint32) uint32 { return u32(float32(math.Sqrt(float64(f32(x))))) }
