package batch

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// applyRule applies rule ri to the state, batch by batch.
func (b *Eval) ApplyRule(ri int) (int64, int, *bytecode.Fault) {
	rule := &b.p.Rules[ri]
	if b.p.Draws {
		b.ref.ForRule(ri)
	}
	bytecode.TakeSnapshot(b.p, rule, b.cur, b.snap)
	b.rulePend = b.rulePend[:0]
	fired, i, flt := b.applyRange(ri, rule.Lo, rule.Hi)
	if flt != nil {
		return fired, i, flt
	}
	for _, w := range b.rulePend {
		b.cur[w.Word] = w.Val
	}
	return fired, 0, nil
}

// applyRange evaluates rule ri at indices lo..hi-1, the snapshot taken:
// scattered writes collect in rulePend, float += in fadds when split. The
// preconditions run 256 indices at a time; the indices where they hold are
// queued and their consequences run 256 at a time (the paper's thread
// compaction: the lanes of a consequence are all busy). A consequence
// reads the state only through fields its rule does not write in place
// and the snapshot, so running it after later preconditions changes
// nothing; queued in index order, its writes keep their order.
func (b *Eval) applyRange(ri, lo, hi int) (int64, int, *bytecode.Fault) {
	rule := &b.p.Rules[ri]
	var fired int64
	queue := b.queue[:0]
	body := func() (int, *bytecode.Fault) {
		fired += int64(len(queue))
		i, f := b.runBodies(rule.BodyPC, queue)
		queue = queue[:0]
		return i, f
	}
	for base := lo; base < hi; base += lanes {
		n := min(lanes, hi-base)
		if rule.CondPC < 0 {
			for i := range n {
				queue = append(queue, int32(base+i))
			}
			if i, f := body(); f != nil || b.Stopped() {
				return fired, i, f
			}
			continue
		}
		b.startBatch(n)
		// r0 is kept as base and stride: written out only if needed.
		act := append(b.get(), b.iota[:n]...)
		b.aff, b.bit = 0, 0
		b.setAffine(0, uint32(int32(base)), 1)
		b.enKept = false
		b.exec(rule.CondPC, act)
		if b.Stopped() {
			return fired, 0, nil
		}
		// Indices from the first faulting one on need not run: the fault
		// ends the run, unless a consequence before it faults first.
		stopAt := n
		if b.anyF {
			stopAt = b.firstFault()
		}
		var fi int
		var ff *bytecode.Fault
		run := func() bool {
			fi, ff = body()
			return ff == nil && !b.Stopped()
		}
		if b.enKept && !b.queueBits(&queue, base, stopAt, run) ||
			!b.enKept && !b.queueLanes(&queue, base, stopAt, run) {
			return fired, fi, ff
		}
		if stopAt < n {
			if i, f := body(); f != nil || b.Stopped() {
				return fired, i, f
			}
			return fired, base + stopAt, b.faultAt(rule.CondPC, base+stopAt)
		}
	}
	i, f := body()
	return fired, i, f
}

// queueLanes is queueBits for a precondition's value in en.
func (b *Eval) queueLanes(queue *[]int32, base, stop int, body func() bool) bool {
	// Branch-free: the precondition holds at random.
	q, qn := &b.queue, len(*queue)
	for i := range stop {
		q[uint8(qn)] = int32(base + i)
		if qn += int(bytecode.B2U(b.en[uint8(i)])); qn == lanes {
			*queue = q[:qn]
			if !body() {
				return false
			}
			qn = 0
		}
	}
	*queue = q[:qn]
	return true
}

// runBodies runs the consequence at the indices idx (ascending, at most
// 256) and collects their writes in index order: the lowest faulting
// index and its fault, or 0, nil.
func (b *Eval) runBodies(pc int, idx []int32) (int, *bytecode.Fault) {
	n := len(idx)
	if n == 0 {
		return 0, nil
	}
	if b.dirty {
		// A fault may have left writes behind (a split part's is only
		// named later).
		for l := range b.pend {
			b.pend[l], b.fadd[l] = b.pend[l][:0], b.fadd[l][:0]
		}
		b.dirty = false
	}
	b.startBatch(n)
	R0 := &b.r[0]
	for i, x := range idx {
		R0[uint8(i)] = uint32(x)
	}
	act := append(b.get(), b.iota[:n]...)
	b.aff, b.bit = 0, 0
	if int(idx[n-1]-idx[0]) == n-1 {
		// Consecutive indices (ascending, so every one in between).
		b.setAffine(0, uint32(idx[0]), 1)
	}
	b.exec(pc, act)
	if b.Stopped() {
		return 0, nil
	}
	if b.anyF {
		l := b.firstFault()
		return int(idx[l]), b.faultAt(pc, int(idx[l]))
	}
	if !b.dirty {
		return 0, nil
	}
	for l := range n {
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
				b.cur[w.Word] = bytecode.U32(bytecode.F32(b.cur[w.Word]) + bytecode.F32(w.Val))
			}
		}
		*fa = (*fa)[:0]
	}
	b.dirty = false
	return 0, nil
}

func (b *Eval) firstFault() int {
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
func (b *Eval) faultAt(pc, i int) *bytecode.Fault {
	if b.split {
		return &bytecode.Fault{PC: deferredFault, Value: int32(pc)}
	}
	return b.refault(pc, i)
}

// refault re-runs a faulting evaluation through the interpreter, which
// names the instruction that faults first in program order. The fields an
// evaluation reads from the state are not written in place by its rule
// (those it reads from the snapshot), so the interpreter sees what the
// batch saw.
func (b *Eval) refault(pc, i int) *bytecode.Fault {
	for l := range b.pend {
		b.pend[l], b.fadd[l] = b.pend[l][:0], b.fadd[l][:0]
	}
	flt := b.ref.FaultOf(pc, int32(i))
	if flt == nil {
		return &bytecode.Fault{PC: -1, Value: int32(i)}
	}
	return flt
}

// startBatch starts a batch of n lanes, none faulted.
func (b *Eval) startBatch(n int) {
	if b.anyF {
		b.fault = [lanes]bool{}
	}
	b.n, b.anyF = n, false
}
