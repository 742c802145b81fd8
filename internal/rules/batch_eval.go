package rules

// applyRule applies rule ri to the state, batch by batch.
func (b *batchEval) applyRule(ri int) (int64, int, *fault) {
	rule := &b.p.Rules[ri]
	takeSnapshot(b.p, rule, b.cur, b.snap)
	b.rulePend = b.rulePend[:0]
	fired, i, flt := b.applyRange(ri, rule.Lo, rule.Hi)
	if flt != nil {
		return fired, i, flt
	}
	for _, w := range b.rulePend {
		b.cur[w.word] = w.val
	}
	return fired, 0, nil
}

// applyRange evaluates rule ri at indices lo..hi-1, the snapshot taken:
// scattered writes collect in rulePend, float += in fadds when split.
func (b *batchEval) applyRange(ri, lo, hi int) (int64, int, *fault) {
	rule := &b.p.Rules[ri]
	var fired int64
	for base := lo; base < hi; base += lanes {
		n := min(lanes, hi-base)
		b.n, b.anyF = n, false
		R0 := &b.r[0]
		act := b.get()
		for i := range n {
			l := uint8(i)
			R0[l] = uint32(int32(base + i))
			b.fault[l], b.en[l] = false, true
			act = append(act, l)
		}
		if b.dirty {
			// A fault may have left writes behind (a split part's is only
			// named later).
			for l := range b.pend {
				b.pend[l], b.fadd[l] = b.pend[l][:0], b.fadd[l][:0]
			}
			b.dirty = false
		}
		// Lanes from the first faulting one on need not run: the fault
		// ends the run.
		stopAt := n
		if rule.CondPC >= 0 {
			b.exec(rule.CondPC, act)
			if b.stopped() {
				return fired, 0, nil
			}
			if b.anyF {
				stopAt = b.firstFault()
			}
			act = b.get()
			for i := range stopAt {
				if b.en[uint8(i)] {
					act = append(act, uint8(i))
				}
			}
		}
		fired += int64(len(act))
		b.anyF = false
		b.exec(rule.BodyPC, act)
		if b.stopped() {
			return fired, 0, nil
		}
		if b.anyF {
			if l := b.firstFault(); l < stopAt {
				return fired, base + l, b.faultAt(rule.BodyPC, base+l)
			}
		}
		if stopAt < n {
			return fired, base + stopAt, b.faultAt(rule.CondPC, base+stopAt)
		}
		for l := range n {
			if !b.dirty {
				break
			}
			p := &b.pend[uint8(l)]
			if len(*p) > 0 {
				b.rulePend = append(b.rulePend, *p...)
				*p = (*p)[:0]
			}
			fa := &b.fadd[uint8(l)]
			if len(*fa) == 0 {
				continue
			}
			if b.split {
				b.fadds = append(b.fadds, *fa...)
			} else {
				for _, w := range *fa {
					b.cur[w.word] = u32(f32(b.cur[w.word]) + f32(w.val))
				}
			}
			*fa = (*fa)[:0]
		}
		b.dirty = false
	}
	return fired, 0, nil
}

func (b *batchEval) firstFault() int {
	for l := range b.n {
		if b.fault[uint8(l)] {
			return l
		}
	}
	return b.n
}

// deferredFault marks a fault of a split part: the interpreter re-runs the
// evaluation once every part has stopped writing the state.
const deferredFault = -2

// fault returns the fault of the evaluation at index i from instruction
// pc: named by the interpreter now, or later when split.
func (b *batchEval) faultAt(pc, i int) *fault {
	if b.split {
		return &fault{deferredFault, int32(pc)}
	}
	return b.refault(pc, i)
}

// refault re-runs a faulting evaluation through the interpreter, which
// names the instruction that faults first in program order. The fields an
// evaluation reads from the state are not written in place by its rule
// (those it reads from the snapshot), so the interpreter sees what the
// batch saw.
func (b *batchEval) refault(pc, i int) *fault {
	for l := range b.pend {
		b.pend[l], b.fadd[l] = b.pend[l][:0], b.fadd[l][:0]
	}
	pend := len(b.ref.pend)
	_, flt := b.ref.run(pc, int32(i))
	b.ref.pend = b.ref.pend[:pend]
	if flt == nil {
		return &fault{-1, int32(i)}
	}
	return flt
}
