package lsys

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/rng"
)

// pass is one rewriting of one string by one rule set: a derivation step or
// the homomorphism. It implements production selection as Deriver documents
// it.
type pass struct {
	r      *rules
	in     *String
	key    uint64 // rng.Key(seed, step)
	label  string // "step 3" or "homomorphism", for messages
	cm     ctxMatcher
	poff   []int   // each module's first parameter (when contexts bind parameters)
	chunkP []int   // each chunk's first parameter
	choice []int32 // the rule chosen for each module of a dynamic symbol
}

// scratch is one worker's private state.
type scratch struct {
	slots      [MaxSlots]float64
	lpos, rpos []int
	cands      []int32
}

func newScratch(r *rules) scratch {
	n := 0
	for i := range r.list {
		n = max(n, len(r.list[i].p.Left), len(r.list[i].p.Right))
	}
	return scratch{lpos: make([]int, n), rpos: make([]int, n)}
}

// choose returns the rule that rewrites module i (whose parameters start at
// po), or symCopy.
func (ps *pass) choose(ws *scratch, i, po int) (int32, error) {
	cands := ps.r.bySym[ps.in.Syms[i]]
	for n, ri := range cands {
		ok, err := ps.matches(ws, ri, i, po)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		if !ps.r.list[ri].p.Stochastic {
			return ri, nil
		}
		return ps.draw(ws, cands[n:], i, po)
	}
	return symCopy, nil
}

// draw picks among the stochastic productions of cands (cands[0] is known to
// match) as the type comment describes.
func (ps *pass) draw(ws *scratch, cands []int32, i, po int) (int32, error) {
	list := ps.r.list
	ws.cands = ws.cands[:0]
	total := 0.0
	for n, ri := range cands {
		p := list[ri].p
		if !p.Stochastic {
			continue
		}
		if n > 0 {
			ok, err := ps.matches(ws, ri, i, po)
			if err != nil {
				return 0, err
			}
			if !ok {
				continue
			}
		}
		ws.cands = append(ws.cands, ri)
		total += p.Prob
	}
	if !(total > 0) {
		return symCopy, nil
	}
	u := rng.Float64(rng.Hash64(ps.key, uint64(i)))
	cum := 0.0
	for _, ri := range ws.cands {
		cum += list[ri].p.Prob
		if cum/total > u {
			return ri, nil
		}
	}
	return ws.cands[len(ws.cands)-1], nil
}

// matches reports whether rule ri applies to module i: contexts, then
// condition. On success the context positions are in ws.lpos and ws.rpos.
func (ps *pass) matches(ws *scratch, ri int32, i, po int) (bool, error) {
	ru := &ps.r.list[ri]
	p := ru.p
	if len(p.Left) > 0 && !ps.left(ru, i, ws.lpos) {
		return false, nil
	}
	if len(p.Right) > 0 && !ps.right(ru, i, ws.rpos) {
		return false, nil
	}
	if p.Cond == nil {
		return true, nil
	}
	v, err := p.Cond.EvalKey(ps.bind(ws, ru, po), RandKey(ps.key, i))
	if err != nil {
		return false, ps.fail(ru, i, err)
	}
	return v != 0, nil
}

// bind copies the parameters of the matched context modules (positions in
// ws.lpos and ws.rpos) and of the predecessor (at po) into the slots.
func (ps *pass) bind(ws *scratch, ru *rule, po int) []float64 {
	params := ps.in.Params
	arity := &ps.r.arity
	k := 0
	if ru.nLeft > 0 {
		for n, s := range ru.p.Left {
			if a := int(arity[s]); a > 0 {
				off := ps.poff[ws.lpos[n]]
				k += copy(ws.slots[k:], params[off:off+a])
			}
		}
	}
	k += copy(ws.slots[k:], params[po:po+ru.nPred])
	if k < ru.nSlots {
		for n, s := range ru.p.Right {
			if a := int(arity[s]); a > 0 {
				off := ps.poff[ws.rpos[n]]
				k += copy(ws.slots[k:], params[off:off+a])
			}
		}
	}
	return ws.slots[:ru.nSlots]
}

// slotsFor binds the slots of a rule already chosen for module i,
// re-matching its contexts when they carry parameters.
func (ps *pass) slotsFor(ws *scratch, ru *rule, i, po int) []float64 {
	if ru.nSlots > ru.nPred {
		if len(ru.p.Left) > 0 {
			ps.left(ru, i, ws.lpos)
		}
		if len(ru.p.Right) > 0 {
			ps.right(ru, i, ws.rpos)
		}
	}
	return ps.bind(ws, ru, po)
}

// fail names the step, the module and the production of an expression
// error.
func (ps *pass) fail(ru *rule, i int, err error) error {
	return fmt.Errorf("lsys: %s, module %d (%q): %s %s: %w", ps.label, i, rune(ps.in.Syms[i]),
		ru.kind, describe(ru.p, ps.r.sysArity), err)
}

// left and right match a rule's contexts, with branches where it has them.
func (ps *pass) left(ru *rule, i int, pos []int) bool {
	if ru.treeLeft {
		return ps.cm.leftTree(i, ru.p.Left, pos)
	}
	return ps.cm.left(i, ru.p.Left, pos)
}

func (ps *pass) right(ru *rule, i int, pos []int) bool {
	if ru.treeRight {
		return ps.cm.rightTree(i, ru.p.Right, pos)
	}
	return ps.cm.right(i, ru.p.Right, pos)
}
