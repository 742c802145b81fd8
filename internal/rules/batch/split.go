package batch

import (
	"sync"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Split applies each rule to one state with several goroutines, which
// take contiguous chunks of the rule's range in turn, when there are fewer
// states than cores. Every index still reads the state as it was before the rule:
// fields a rule writes in place or accumulates into are read from the
// snapshot, in-place writes are one-to-one in the index (rules/lang's analyse.go), so the
// parts touch disjoint words; int += is atomic (its sum does not depend on
// the order), while float += and scattered writes are collected per part and
// applied afterwards in index order, exactly as one goroutine would.
// A step ends when every chunk of its last rule is done: the barrier.
type Split struct {
	p     *bytecode.Program
	parts []*Eval
	snap  []uint32
	cur   []uint32
	min   int // the smallest range split
}

// chunksPerPart is how many chunks a split rule's range is cut into per
// part: enough that a part held up by the scheduler costs a step little,
// few enough that a chunk is many batches on a big board.
const chunksPerPart = 8

// piece is what one chunk of a split rule's range did: its firings, its
// first fault, and the part that ran it with where the chunk's scattered
// writes and float += lie in that part's lists.
type piece struct {
	fired        int64
	i            int
	f            *bytecode.Fault
	part         int
	pend0, pend1 int
	fadd0, fadd1 int
}

// MinSplit is the smallest range worth splitting: below it, starting the
// goroutines costs more than the work.
const MinSplit = 8 * lanes

// NewSplit makes a Split of parts batch evaluators; a rule's range shorter
// than min runs on the first part alone (MinSplit is the default).
func NewSplit(p *bytecode.Program, stop *atomic.Bool, parts, min int) *Split {
	s := &Split{p: p, snap: make([]uint32, p.Words), min: min}
	for range parts {
		b := newEval(p, stop, bytecode.NewVMSharing(p, stop, s.snap))
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
	// The range is cut into chunksPerPart chunks a part, whole batches each
	// (but every part some work when tests split tiny ranges), that the
	// parts take in turn: on a shared machine a part whose thread waits
	// for a core leaves its chunks to the others instead of holding up
	// the step (fixed halves of a 512x512 Life board under a load of 8 on
	// two cores waited out their time slices at every step).
	chunk := (n + k*chunksPerPart - 1) / (k * chunksPerPart)
	if chunk >= lanes {
		chunk = (chunk + lanes - 1) / lanes * lanes
	}
	out := make([]piece, (n+chunk-1)/chunk)
	for _, b := range s.parts {
		b.split, b.rulePend, b.fadds = true, b.rulePend[:0], b.fadds[:0]
	}
	var next atomic.Int64
	work := func(w int) {
		b := s.parts[w]
		for {
			c := int(next.Add(1)) - 1
			if c >= len(out) {
				return
			}
			lo := rule.Lo + c*chunk
			pc := piece{part: w, pend0: len(b.rulePend), fadd0: len(b.fadds)}
			pc.fired, pc.i, pc.f = b.applyRange(ri, lo, min(lo+chunk, rule.Hi))
			pc.pend1, pc.fadd1 = len(b.rulePend), len(b.fadds)
			out[c] = pc
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < k; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	work(0)
	wg.Wait()
	for _, b := range s.parts {
		b.split = false
	}
	// The chunks' results in index order, as one goroutine would have
	// them: the first fault, then the scattered writes, then float +=.
	var fired int64
	for _, r := range out {
		fired += r.fired
		if r.f != nil {
			if r.f.PC == deferredFault {
				// Named now that no part writes the state any more.
				r.f = s.parts[r.part].refault(int(r.f.Value), r.i)
			}
			return fired, r.i, r.f
		}
	}
	for _, r := range out {
		for _, w := range s.parts[r.part].rulePend[r.pend0:r.pend1] {
			s.cur[w.Word] = w.Val
		}
	}
	for _, r := range out {
		for _, w := range s.parts[r.part].fadds[r.fadd0:r.fadd1] {
			s.cur[w.Word] = bytecode.U32(bytecode.F32(s.cur[w.Word]) + bytecode.F32(w.Val))
		}
	}
	return fired, 0, nil
}
