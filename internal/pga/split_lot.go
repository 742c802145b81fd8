package pga

// A lot's phase is split over the workers when there are too few lots to
// keep them busy: the phase's derivation is expanded breadth-first, with
// the outputs of operators recorded as tasks instead of expanded, until
// there are enough tasks; the tasks then run in parallel, each on its own
// evaluator, and their results are put back together in the order a
// depth-first evaluation would have made them. Queries read the lot's
// context (finished phases only, so no task sees another's registrations);
// what tasks register joins the lot's context afterwards.

// item is one recorded output, in depth-first order: a subtree still to
// expand, a terminal, or a shape waiting for a later phase.
type item struct {
	task *task
	term *TerminalShape
	pend *pendingShape
}

// task is what sub would have expanded: chain c from op from on s.
type task struct {
	r     *Rule
	c     *Chain
	from  int
	s     Shape
	depth int
}

// splitRounds bounds the breadth-first expansion; splitTasks is how many
// tasks a worker should get at least, for balance.
const (
	splitRounds = 8
	splitTasks  = 8
)

func (ev *evaluator) runSplit(work []pendingShape) error {
	var items []item
	ev.record = &items
	for _, p := range work {
		if err := ev.apply(p.rule, p.shape, p.depth); err != nil {
			ev.record = nil
			return err
		}
	}
	ev.record = nil
	for round := 0; round < splitRounds && countTasks(items) < splitTasks*ev.opt.Workers; round++ {
		next := make([]item, 0, 2*len(items))
		grew := false
		for _, it := range items {
			if it.task == nil {
				next = append(next, it)
				continue
			}
			t := it.task
			var sub []item
			ev.record = &sub
			err := ev.chain(t.r, t.c, t.from, t.s, t.depth)
			ev.record = nil
			if err != nil {
				return err
			}
			grew = grew || len(sub) != 1 || sub[0].task == nil
			next = append(next, sub...)
		}
		items = next
		if !grew {
			break
		}
	}
	return ev.runTasks(items)
}

func countTasks(items []item) int {
	n := 0
	for _, it := range items {
		if it.task != nil {
			n++
		}
	}
	return n
}

// runTasks expands the recorded tasks on all workers and appends every
// item's results to ev in order.
func (ev *evaluator) runTasks(items []item) error {
	var idx []int
	for i, it := range items {
		if it.task != nil {
			idx = append(idx, i)
		}
	}
	subs := make([]*evaluator, len(items))
	errs := make([]error, len(items))
	eachIndex(len(idx), ev.opt.Workers, func(k int) {
		i := idx[k]
		t := items[i].task
		sev := &evaluator{g: ev.g, opt: ev.opt, count: ev.count, attrs: ev.attrs, phase: ev.phase,
			pending: map[int][]pendingShape{}, view: ev.view, anc: ev.anc, projs: ev.projs}
		if ev.tally != nil {
			sev.tally = ev.tally.sibling(ev.g)
		}
		errs[i] = sev.chain(t.r, t.c, t.from, t.s, t.depth)
		if errs[i] == nil {
			errs[i] = sev.err
		}
		sev.flush()
		subs[i] = sev
	})
	for i, it := range items {
		switch {
		case errs[i] != nil:
			return errs[i]
		case it.term != nil:
			ev.appendTerm(*it.term)
		case it.pend != nil:
			ev.pending[it.pend.rule.Phase] = append(ev.pending[it.pend.rule.Phase], *it.pend)
		case it.task != nil:
			sev := subs[i]
			if sev.tally != nil {
				ev.tally.merge(sev.tally)
			}
			for _, c := range sev.out {
				for _, ts := range c {
					ev.appendTerm(ts)
				}
			}
			for _, p := range ev.g.Phases {
				ev.pending[p] = append(ev.pending[p], sev.pending[p]...)
			}
			ev.ctx.merge(&sev.ctx)
		}
	}
	return nil
}

// flush hands a sub-evaluator's uncounted shapes to the shared counter.
func (ev *evaluator) flush() {
	if ev.local > 0 {
		ev.count.Add(ev.local)
		ev.flushed += ev.local
		ev.local = 0
	}
}
