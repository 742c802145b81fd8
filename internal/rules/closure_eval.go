package rules

import "sync/atomic"

// stateEval applies rules to one state at a time: the interpreter
// (evaluator) or the compiled closures (closureEval).
type stateEval interface {
	applyRule(ri int) (fired int64, index int, f *fault)
	setState(w []uint32)
	stopped() bool
}

func (e *evaluator) setState(w []uint32) { e.cur = w }
func (e *evaluator) stopped() bool       { return e.stop != nil && e.stop.Load() }

// closureEval runs the compiled closures, with the interpreter beside it
// on the same state to name a fault's instruction exactly.
type closureEval struct {
	cp  *closureProg
	ref *evaluator
	f   cframe
}

func newClosureEval(cp *closureProg, stop *atomic.Bool) *closureEval {
	ref := &evaluator{p: cp.p, snap: make([]uint32, cp.p.Words), stop: stop}
	ce := &closureEval{cp: cp, ref: ref}
	ce.f.snap, ce.f.stop = ref.snap, stop
	return ce
}

func (ce *closureEval) setState(w []uint32) { ce.ref.cur, ce.f.cur = w, w }
func (ce *closureEval) stopped() bool       { return ce.ref.stopped() }

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

func (ce *closureEval) applyRule(ri int) (int64, int, *fault) {
	rule := &ce.cp.p.Rules[ri]
	takeSnapshot(ce.cp.p, rule, ce.f.cur, ce.f.snap)
	ce.f.pend = ce.f.pend[:0]
	fired, i, flt := ce.applyRange(ri, rule.Lo, rule.Hi)
	if flt != nil {
		return fired, i, flt
	}
	for _, w := range ce.f.pend {
		ce.f.cur[w.word] = w.val
	}
	return fired, 0, nil
}

// applyRange evaluates rule ri at indices lo..hi-1, the snapshot taken;
// scattered writes collect in ce.f.pend.
func (ce *closureEval) applyRange(ri, lo, hi int) (int64, int, *fault) {
	cp, f := ce.cp, &ce.f
	rule := &cp.p.Rules[ri]
	cb, bb := cp.cond[ri], cp.body[ri]
	var fired int64
	for i := lo; i < hi; i++ {
		if i&(1<<16-1) == 0 && ce.stopped() {
			return fired, 0, nil
		}
		if cb >= 0 {
			en := cp.run(f, cb, int32(i))
			if f.fault {
				return fired, i, ce.refault(rule.CondPC, i)
			}
			if !en {
				continue
			}
		}
		fired++
		cp.run(f, bb, int32(i))
		if f.fault {
			return fired, i, ce.refault(rule.BodyPC, i)
		}
	}
	return fired, 0, nil
}

// refault re-runs a faulting evaluation through the interpreter, which
// reports the fault the closures' evaluation order may have hidden behind
// another. The fields an evaluation reads from the state are not written in
// place by its rule (those are read from the snapshot), so the interpreter
// sees the same values.
func (ce *closureEval) refault(pc, i int) *fault {
	ce.f.fault = false
	pend := len(ce.ref.pend)
	_, flt := ce.ref.run(pc, int32(i))
	ce.ref.pend = ce.ref.pend[:pend]
	if flt == nil {
		return &fault{-1, int32(i)}
	}
	return flt
}
