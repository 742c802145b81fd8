package lsys

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
)

// Per-symbol dispositions in rules.static.
const (
	symCopy    = -1 // no production: the module is copied
	symDynamic = -2 // the production depends on context, condition or chance
)

type argKind uint8

const (
	argExpr argKind = iota
	argConst
	argSlot
	argSlotMulConst // slot * const, the commonest parametric form (x*r)
)

// arg is a successor parameter, pre-classified so the common trivial forms
// skip the interpreter.
type arg struct {
	kind argKind
	slot uint16
	val  float64
	expr *Expr
}

// rule is a production prepared for derivation.
type rule struct {
	p      *Production
	kind   string // "production" or "homomorphism", for messages
	hasCtx bool
	// treeLeft, treeRight: the context holds branches (leftTree, rightTree).
	treeLeft, treeRight bool
	nLeft               int // slots bound by the left context
	nPred               int // slots bound by the predecessor
	nSlots              int // all slots: left, predecessor, right
	succSyms            []Symbol
	succWords           [8]uint64 // succSyms zero-padded, when at most 64 bytes
	args                []arg     // successor parameters, in order
	outParams           int
}

// rules is a production list compiled for one backend pass.
type rules struct {
	list   []rule
	bySym  [256][]int32 // rule indices per predecessor, in source order
	static [256]int32   // rule index, symCopy or symDynamic
	arity  [256]int32
	ignore [256]bool
	// parametric: some symbol has parameters. hasCtx: some rule has a
	// context. ctxParams: contexts bind parameters, so each module's
	// parameter offset must be known. dynamic: some symbol is symDynamic.
	parametric, hasCtx, ctxParams, dynamic bool
	hasCut                                 bool // a successor writes '%'
	fast                                   *fastTable
	// draws holds, per symbol, the plain stochastic choice when the
	// outcome depends on the draw alone (see stochGroup).
	draws    [256]*stochGroup
	sysArity *[256]uint8 // for describe
}

// compileRules validates prods against sys and prepares them. kind names
// them in errors ("production" or "homomorphism").
func compileRules(sys *System, prods []Production, kind string) (*rules, error) {
	r := &rules{ignore: sys.Ignore, sysArity: &sys.Arity}
	for s, a := range sys.Arity {
		r.arity[s] = int32(a)
		if a > MaxParams {
			return nil, fmt.Errorf("lsys: symbol %q has %d parameters, more than %d", rune(s), a, MaxParams)
		}
		if a > 0 {
			r.parametric = true
		}
	}
	r.list = make([]rule, len(prods))
	for i := range prods {
		p := &prods[i]
		ru, err := r.prepare(p, kind)
		if err != nil {
			return nil, fmt.Errorf("lsys: %s %s: %w", kind, describe(p, &sys.Arity), err)
		}
		r.list[i] = ru
		r.bySym[p.Pred] = append(r.bySym[p.Pred], int32(i))
		r.hasCtx = r.hasCtx || ru.hasCtx
		r.ctxParams = r.ctxParams || (ru.hasCtx && ru.nSlots > ru.nPred)
		for _, m := range p.Succ {
			r.hasCut = r.hasCut || m.Sym == SymCut
		}
	}
	for s := range r.static {
		cand := r.bySym[s]
		switch {
		case len(cand) == 0:
			r.static[s] = symCopy
		case !r.list[cand[0]].hasCtx && prods[cand[0]].Cond == nil && !prods[cand[0]].Stochastic:
			r.static[s] = cand[0] // the first production always applies
		default:
			r.static[s] = symDynamic
			r.dynamic = true
		}
	}
	for s := range r.draws {
		r.draws[s] = newStochGroup(r, prods, r.bySym[s])
	}
	if !r.parametric && !r.dynamic {
		r.fast = newFastTable(r)
	}
	return r, nil
}

// stochGroup is the choice among the stochastic productions of a symbol
// whose first production, and every stochastic one, has neither context nor
// condition: then every stochastic production is a candidate, always, and
// the choice depends on the draw alone. at[j] is cum_j/total, computed as
// pass.draw computes it, so the outcome is bit for bit the same.
type stochGroup struct {
	rules []int32
	at    []float64
}

func newStochGroup(r *rules, prods []Production, cand []int32) *stochGroup {
	plain := func(i int32) bool { return !r.list[i].hasCtx && prods[i].Cond == nil }
	if len(cand) == 0 || !prods[cand[0]].Stochastic || !plain(cand[0]) {
		return nil
	}
	g := &stochGroup{}
	total := 0.0
	for _, i := range cand {
		if prods[i].Stochastic {
			if !plain(i) {
				return nil
			}
			g.rules = append(g.rules, i)
			total += prods[i].Prob
		}
	}
	if !(total > 0) {
		return nil
	}
	cum := 0.0
	for _, i := range g.rules {
		cum += prods[i].Prob
		g.at = append(g.at, cum/total)
	}
	return g
}

// pick is the rule for draw u.
func (g *stochGroup) pick(u float64) int32 {
	for j, a := range g.at {
		if a > u {
			return g.rules[j]
		}
	}
	return g.rules[len(g.rules)-1]
}

func (r *rules) prepare(p *Production, kind string) (rule, error) {
	ru := rule{p: p, kind: kind, hasCtx: len(p.Left) > 0 || len(p.Right) > 0}
	for _, s := range p.Left {
		ru.nLeft += int(r.arity[s])
	}
	ru.nPred = int(r.arity[p.Pred])
	ru.nSlots = ru.nLeft + ru.nPred
	for _, s := range p.Right {
		ru.nSlots += int(r.arity[s])
	}
	for k, side := range [2][]Symbol{p.Left, p.Right} {
		d := 0
		for _, s := range side {
			switch s {
			case SymPush:
				d++
			case SymPop:
				d--
			}
			if d < 0 {
				break
			}
		}
		if d != 0 {
			return ru, errors.New("a context's brackets do not balance")
		}
		tree := bytes.IndexByte(side, SymPush) >= 0
		if k == 0 {
			ru.treeLeft = tree
		} else {
			ru.treeRight = tree
		}
	}
	if ru.nSlots > MaxSlots {
		return ru, fmt.Errorf("binds %d parameters, more than %d", ru.nSlots, MaxSlots)
	}
	if p.Stochastic && !(p.Prob >= 0 && !math.IsInf(p.Prob, 0)) {
		return ru, fmt.Errorf("probability %v is not a finite non-negative number", p.Prob)
	}
	if p.Cond != nil {
		if err := p.Cond.Check(ru.nSlots); err != nil {
			return ru, err
		}
	}
	for _, m := range p.Succ {
		if len(m.Args) != int(r.arity[m.Sym]) {
			return ru, fmt.Errorf("successor module %q has %d parameters, the symbol has %d",
				rune(m.Sym), len(m.Args), r.arity[m.Sym])
		}
		ru.succSyms = append(ru.succSyms, m.Sym)
		for j := range m.Args {
			e := &m.Args[j]
			if err := e.Check(ru.nSlots); err != nil {
				return ru, err
			}
			ru.args = append(ru.args, classify(e))
		}
	}
	ru.outParams = len(ru.args)
	var pad [64]byte
	copy(pad[:], ru.succSyms)
	for w := range ru.succWords {
		ru.succWords[w] = binary.LittleEndian.Uint64(pad[8*w:])
	}
	return ru, nil
}

// classify recognises constants, plain slots and slot*constant.
func classify(e *Expr) arg {
	c := e.Code
	switch {
	case len(c) == 1 && c[0].Op == OpConst:
		return arg{kind: argConst, val: e.Consts[c[0].Arg]}
	case len(c) == 1 && c[0].Op == OpSlot:
		return arg{kind: argSlot, slot: c[0].Arg}
	case len(c) == 3 && c[2].Op == OpMul && c[0].Op == OpSlot && c[1].Op == OpConst:
		// x*c can never fail: x and c are finite, and the product is
		// checked for overflow where it is used.
		return arg{kind: argSlotMulConst, slot: c[0].Arg, val: e.Consts[c[1].Arg], expr: e}
	}
	return arg{kind: argExpr, expr: e}
}

// describe names a production for error messages: where it is and what it
// says.
func describe(p *Production, arity *[256]uint8) string {
	text := p.Text
	if text == "" {
		text = rebuildText(p, arity)
	}
	where := ""
	if p.Pos.Line > 0 {
		where = fmt.Sprintf("%d:%d ", p.Pos.Line, p.Pos.Col)
		if p.Pos.File != "" {
			where = p.Pos.File + ":" + where
		}
	}
	return fmt.Sprintf("%s%q", where, text)
}

// rebuildText writes a production back in cpfg notation. The formal
// parameter names are gone after compilation, so predecessor parameters
// show as "...".
func rebuildText(p *Production, arity *[256]uint8) string {
	var b strings.Builder
	sym := func(s Symbol) {
		b.WriteByte(s)
		if arity[s] > 0 {
			b.WriteString("(...)")
		}
	}
	for _, s := range p.Left {
		sym(s)
	}
	if len(p.Left) > 0 {
		b.WriteString(" < ")
	}
	sym(p.Pred)
	if len(p.Right) > 0 {
		b.WriteString(" > ")
	}
	for _, s := range p.Right {
		sym(s)
	}
	if p.Cond != nil {
		b.WriteString(" : " + p.Cond.Text)
	}
	if p.Stochastic {
		fmt.Fprintf(&b, " (%g)", p.Prob)
	}
	b.WriteString(" -> ")
	for _, m := range p.Succ {
		b.WriteByte(m.Sym)
		if len(m.Args) > 0 {
			b.WriteByte('(')
			for j := range m.Args {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(m.Args[j].Text)
			}
			b.WriteByte(')')
		}
	}
	return b.String()
}
