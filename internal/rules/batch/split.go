package batch

import (
	"sync"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Split applies each rule to one state with several goroutines, each
// over a contiguous part of the rule's range, when there are fewer states
// than cores. Every index still reads the state as it was before the rule:
// fields a rule writes in place or accumulates into are read from the
// snapshot, in-place writes are one-to-one in the index (rules/lang's analyse.go), so the
// parts touch disjoint words; int += is atomic (its sum does not depend on
// the order), while float += and scattered writes are collected per part and
// applied afterwards in index order, exactly as one goroutine would.
type Split struct {
	p     *bytecode.Program
	parts []*Eval
	snap  []uint32
	cur   []uint32
	min   int // the smallest range split
}

// MinSplit is the smallest range worth splitting: below it, starting the
// goroutines costs more than the work.
const MinSplit = 8 * lanes

// NewSplit makes a Split of parts batch evaluators; a rule's range shorter
// than min runs on the first part alone (MinSplit is the default).
func NewSplit(p *bytecode.Program, stop *atomic.Bool, parts, min int) *Split {
	s := &Split{p: p, snap: make([]uint32, p.Words), min: min}
	for range parts {
		b := NewEval(p, stop)
		b.snap = s.snap
		b.ref.ShareSnapshot(s.snap)
		s.parts = append(s.parts, b)
	}
	return s
}

func (s *Split) SetState(w []uint32) {
	s.cur = w
	for _, b := range s.parts {
		b.SetState(w)
	}
}

func (s *Split) DrawAt(seed uint64, state, step int) {
	for _, b := range s.parts {
		b.DrawAt(seed, state, step)
	}
}

func (s *Split) Stopped() bool { return s.parts[0].Stopped() }

func (s *Split) ApplyRule(ri int) (int64, int, *bytecode.Fault) {
	rule := &s.p.Rules[ri]
	n, k := rule.Hi-rule.Lo, len(s.parts)
	if n < s.min || k == 1 {
		return s.parts[0].ApplyRule(ri)
	}
	if s.p.Draws {
		for _, b := range s.parts {
			b.ref.ForRule(ri)
		}
	}
	bytecode.TakeSnapshot(s.p, rule, s.cur, s.snap)
	// Whole batches per part (but every part some work when tests split
	// tiny ranges).
	chunk := (n + k - 1) / k
	if chunk >= lanes {
		chunk = (chunk + lanes - 1) / lanes * lanes
	}
	type result struct {
		fired int64
		i     int
		f     *bytecode.Fault
	}
	out := make([]result, k)
	for _, b := range s.parts {
		b.split, b.rulePend, b.fadds = true, b.rulePend[:0], b.fadds[:0]
	}
	var wg sync.WaitGroup
	for w := k - 1; w >= 0; w-- {
		lo := rule.Lo + w*chunk
		hi := min(lo+chunk, rule.Hi)
		if lo >= hi {
			continue
		}
		b := s.parts[w]
		run := func() {
			out[w].fired, out[w].i, out[w].f = b.applyRange(ri, lo, hi)
		}
		if w == 0 {
			run()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			run()
		}()
	}
	wg.Wait()
	var fired int64
	for w, r := range out {
		fired += r.fired
		s.parts[w].split = false
		if r.f != nil {
			if r.f.PC == deferredFault {
				// Named now that no part writes the state any more.
				r.f = s.parts[w].refault(int(r.f.Value), r.i)
			}
			return fired, r.i, r.f
		}
	}
	for _, b := range s.parts {
		for _, w := range b.rulePend {
			s.cur[w.Word] = w.Val
		}
	}
	for _, b := range s.parts {
		for _, w := range b.fadds {
			s.cur[w.Word] = bytecode.U32(bytecode.F32(s.cur[w.Word]) + bytecode.F32(w.Val))
		}
	}
	return fired, 0, nil
}
