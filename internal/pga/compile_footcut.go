package pga

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// The device's Offset and Setback of a lot's own polygon take pieces the
// host cut before it ran: each lot's footprint (as seen from above, or
// from below for a bottom cap) at the lot's size, and each piece at its
// own, by the Offsets and Setbacks a shape on it may meet first
// (cutReach), with the operator's distance on that lot (a constant, or
// made of the lot's attributes, or of its size: hostExpr). The
// pieces are registered as the CPU registers them (Grammar.piece: the same
// profile numbers, which the terminals carry back) and laid out as
// footprints of the device's own, after the grammar's profiles, so that
// they ride along, split and take roofs as a lot's footprint does. The
// device checks that the shape it cuts has the size and the distance the
// cut was made for (PGA_ERR_FOOT_CUT), which the footprint flow ensures.

// cutFootprint is a piece's footprint as the device's profile table holds
// it: the grammar's profile number, its size (the piece's bounding
// rectangle, which a roof on it is built for) and its lot, for messages.
type cutFootprint struct {
	fp   *footprint
	host int32
	size [2]float64
	lot  string
	vals lotValues // the lot's, which LotAttr in a cut's distance reads
}

// lotValues is what LotAttr reads on one lot (an entry of LotAttrValues,
// by reference): its numeric properties, and its height when it has one.
type lotValues struct {
	attrs  map[string]float64
	height float64
}

// get is LotAttr(name, def) on the lot, as the evaluators read it: a
// property that is missing or NaN gives the default.
func (v lotValues) get(name string, def float64) float64 {
	if name == "height" && v.height > 0 {
		return v.height
	}
	if x, ok := v.attrs[name]; ok && !math.IsNaN(x) {
		return x
	}
	return def
}

// footprintCuts cuts the footprints by each of cuts, registers the
// pieces and fills the device's tables: p.fcut[slot*ncutprof+profile] is
// the cut of profile by the op of that slot (its Mode is slot+1), its
// pieces in p.cpiece. A footprint is cut only by the ops a shape on it may
// meet first (cutReach): the lots' by those the axioms' rules lead to, a
// piece's by those its branch leads to, seen from above or, past a
// CompSplit's bottom cap, from below (the mirrored profile); round by
// round, each round's cuts on every core.
func (p *program) footprintCuts(w *hostWork, g *Grammar, cuts []*Op) error {
	if len(cuts) == 0 {
		return nil
	}
	p.cutSlot = map[*Op]int32{}
	for slot, op := range cuts {
		p.cutSlot[op] = int32(slot + 1)
	}
	c := &cutRounds{p: p, g: g, cuts: cuts, reach: newCutReach(g, p.cutSlot), meets: map[chainPos][]cutUse{},
		repeatAt: opChains(g, cuts), counts: map[cutJob]gpuFootCut{}, dev: map[devKey]int32{}}
	p.roofed = map[int32]uint8{}
	p.nlotprof = int32(len(p.profiles))
	var axioms []cutUse
	for _, a := range g.Axioms {
		if r := g.Rules[a.Rule]; r != nil {
			axioms = append(axioms, c.reach.from(r.Body, false)...)
		}
	}
	for k := int32(1); k < p.nlotprof; k++ {
		if fp := g.footprintOf(k); fp != nil && !fp.mirror {
			c.use(k, axioms)
		}
	}
	for round := 0; len(c.jobs) > 0; round++ {
		if round > maxCutDepth { // the footprint flow refuses a deeper cut first
			return &UnsupportedError{What: fmt.Sprintf("cuts of a lot's polygon more than %d deep", maxCutDepth)}
		}
		jobs := c.jobs
		res := make([]footCutResult, len(jobs))
		w.more(len(jobs))
		parallel.For(len(jobs), 8, func(_, lo, hi int) {
			for i := lo; i < hi && w.stopped() == nil; i++ {
				res[i] = p.cutFootprint(g, cuts[jobs[i].slot], jobs[i].k)
				w.step()
			}
		})
		if err := w.stopped(); err != nil {
			return err
		}
		c.jobs = nil
		if err := c.merge(jobs, res); err != nil {
			return err
		}
	}
	p.layOutPieces()
	c.table()
	return nil
}

// cutRounds is what footprintCuts keeps from round to round: the cuts
// still to make (jobs) and those made (counts), the pieces' device
// profiles, and, since many pieces go down the same few branches, what
// each branch (or the rest of a Repeat's chain) meets.
type cutRounds struct {
	p        *program
	g        *Grammar
	cuts     []*Op
	reach    *cutReach
	meets    map[chainPos][]cutUse
	repeatAt map[*Op]chainPos // where each Repeat is, for its tiles' way on
	counts   map[cutJob]gpuFootCut
	jobs     []cutJob
	// A piece's profile number and size -> its device profile. Pieces of
	// one shape but different sizes (slabs that are whole rectangles, most
	// often) share the profile number but not the device profile: the
	// device cuts and roofs a profile at the one size it was made for.
	dev map[devKey]int32
}

// cutJob is the cut of device profile k by the op of a slot.
type cutJob struct {
	slot int
	k    int32
}

type devKey struct {
	prof int32
	size [2]float64
}

// goOn is what a shape starting at op start of ch meets first.
func (c *cutRounds) goOn(ch *Chain, start int) []cutUse {
	f := chainPos{ch, start}
	u, ok := c.meets[f]
	if !ok {
		u = c.reach.fromAt(ch, start, false)
		c.meets[f] = u
	}
	return u
}

// use cuts k, or k+1 for a use from below, by the cuts of uses, and marks
// it roofed by their roofs: a piece's roof is built only for the view a
// Roof may take before the piece is cut again (most of the pieces of a
// grammar that cuts deep are cut, not roofed).
func (c *cutRounds) use(k int32, uses []cutUse) {
	for _, u := range uses {
		at := k
		if u.mirror {
			at++
		}
		if u.op.Kind == OpRoof {
			c.p.roofed[at] |= 1 << u.op.Args[0].Roof
			continue
		}
		j := cutJob{int(c.p.cutSlot[u.op] - 1), at}
		if _, ok := c.counts[j]; !ok {
			c.counts[j] = gpuFootCut{N: -1}
			c.jobs = append(c.jobs, j)
		}
	}
}

// merge takes a round's cuts in job order: each one's entry and pieces,
// the pieces' device profiles, and the cuts and roofs they meet next.
func (c *cutRounds) merge(done []cutJob, res []footCutResult) error {
	p := c.p
	// Grown once for the round: appending piece by piece copied the
	// tables over and over (a quarter of the compile's bytes).
	npiece := 0
	for i := range res {
		npiece += len(res[i].pieces) + 1
	}
	p.cpiece = slices.Grow(p.cpiece, npiece)
	p.profiles = slices.Grow(p.profiles, 2*npiece)
	p.cutFPs = slices.Grow(p.cutFPs, 2*npiece)
	for i, j := range done {
		r, op := &res[i], c.cuts[j.slot]
		if r.err != nil {
			return &UnsupportedError{What: fmt.Sprintf("a cut that cannot be made (%s at %s on %s's polygon: %v; "+
				"the CPU reports it where a shape takes it)", op.Kind, op.Pos, r.parent.lot, r.err)}
		}
		e := gpuFootCut{SX: r.parent.size[0], SY: r.parent.size[1], D: r.d, Start: int32(len(p.cpiece)), Siblings: int32(r.n)}
		if r.whole {
			p.cpiece = append(p.cpiece, gpuCutPiece{Profile: -1, Child: int32(r.wholeChild), Branch: int32(r.wholeBranch)})
			// The shape itself goes on, to be cut by what its branch cuts
			// it by (a bottom cap's bottom cap is profile + 1 on the
			// device, whatever the view).
			c.use(j.k, c.goOn(op.Branches[r.wholeBranch].Body, 0))
		}
		for i, pc := range r.pieces {
			f := r.frames[i]
			if !f.ok {
				continue // a piece of no extent, dropped as the CPU drops it
			}
			at, ok := c.dev[devKey{f.prof, f.size}]
			if !ok {
				at = p.addCutFootprint(f, r.parent)
				c.dev[devKey{f.prof, f.size}] = at
			}
			p.cpiece = append(p.cpiece, gpuCutPiece{CU: f.centre[0], CV: f.centre[1], W: f.size[0], H: f.size[1],
				Profile: at, Child: int32(pc.child), Branch: int32(pc.branch), Part: int32(pc.part)})
			if pc.branch < 0 { // a Repeat's tile
				c.use(at, c.goOn(c.repeatAt[op].ch, c.repeatAt[op].i+1))
			} else {
				c.use(at, c.goOn(op.Branches[pc.branch].Body, 0))
			}
		}
		e.N = int32(len(p.cpiece)) - e.Start
		c.counts[j] = e
	}
	return nil
}

// table lays the cuts made out as the device reads them (pga_cut_find):
// each cut profile's cuts together, by slot, ended by one of slot 0, from
// its Cuts (1 + the first one's index). A table of every slot for every
// profile would be mostly empty: most pieces, all of a deep grammar's last
// round, are never cut (a tenth of the entries were used in the test
// grammars, 3 % in the six-deep one).
func (c *cutRounds) table() {
	p := c.p
	jobs := slices.Collect(maps.Keys(c.counts))
	slices.SortFunc(jobs, func(a, b cutJob) int { return cmp.Or(cmp.Compare(a.k, b.k), cmp.Compare(a.slot, b.slot)) })
	p.fcut = make([]gpuFootCut, 0, len(jobs)+len(jobs)/2+1)
	for i, j := range jobs {
		if i == 0 || jobs[i-1].k != j.k {
			if i > 0 {
				p.fcut = append(p.fcut, gpuFootCut{N: -1}) // slot 0 ends the last profile's
			}
			p.profiles[j.k].Cuts = int32(len(p.fcut)) + 1
		}
		e := c.counts[j]
		e.Slot = int32(j.slot) + 1
		p.fcut = append(p.fcut, e)
	}
	p.fcut = append(p.fcut, gpuFootCut{N: -1})
}

// footCut is the cut of device profile k by the op of slot (0-based), as
// the device finds it (pga_cut_find).
func (p *program) footCut(slot int, k int32) (gpuFootCut, bool) {
	if k <= 0 || int(k) >= len(p.profiles) || p.profiles[k].Cuts == 0 {
		return gpuFootCut{}, false
	}
	for _, e := range p.fcut[p.profiles[k].Cuts-1:] {
		if e.Slot == 0 {
			break
		}
		if e.Slot == int32(slot)+1 {
			return e, e.N >= 0
		}
	}
	return gpuFootCut{}, false
}

// chainPos is where an op stands: op i of chain ch.
type chainPos struct {
	ch *Chain
	i  int
}

// opChains finds where each Repeat of ops stands in g's rules.
func opChains(g *Grammar, ops []*Op) map[*Op]chainPos {
	want := map[*Op]bool{}
	for _, op := range ops {
		if op.Kind == OpRepeat {
			want[op] = true
		}
	}
	at := map[*Op]chainPos{}
	var walk func(ch *Chain)
	walk = func(ch *Chain) {
		if ch == nil || len(at) == len(want) {
			return
		}
		for i, op := range ch.Ops {
			if want[op] {
				at[op] = chainPos{ch, i}
			}
			for _, br := range op.Branches {
				walk(br.Body)
			}
		}
	}
	for _, name := range g.RuleOrder {
		if r := g.Rules[name]; r != nil {
			walk(r.Body)
		}
	}
	return at
}

// footCutResult is a footprint's cut by an op (parent: the footprint, its
// size and lot), the op's distance there and where each piece was framed.
type footCutResult struct {
	polygonCut
	d      float64
	frames []pieceFrame
	parent cutFootprint // what was cut, and at what size
	err    error
}

// cutFootprint cuts device profile k's footprint at its size by op
// (offsetCut, setbackCut) and frames and registers the pieces
// (Grammar.piece); safe to call from several goroutines.
func (p *program) cutFootprint(g *Grammar, op *Op, k int32) footCutResult {
	f := p.footAt(g, k)
	r := footCutResult{parent: f}
	switch op.Kind {
	case OpSubDiv, OpRepeat:
		r.polygonCut, r.err = slabCut(f.fp, op, f.env())
	case OpOffset:
		r.d, _ = hostExpr(op.Args[0].Expr, f.env(), allAxes)
		r.polygonCut, r.err = offsetCut(f.fp, f.size[0], f.size[1], r.d)
	default:
		r.d, _ = hostExpr(op.Args[0].Expr, f.env(), allAxes)
		r.polygonCut, r.err = setbackCut(f.fp, f.size[0], f.size[1], r.d)
	}
	for _, pc := range r.pieces {
		if r.err != nil {
			break
		}
		var fr pieceFrame
		fr.prof, fr.centre, fr.size, fr.ok, r.err = g.piece(pc.rings)
		if fr.ok && r.err == nil {
			fr.fps = [2]*footprint{g.footprintOf(fr.prof), g.footprintOf(fr.prof + 1)}
		}
		r.frames = append(r.frames, fr)
	}
	return r
}

// footAt is device profile k's footprint: a lot's, or a piece's.
func (p *program) footAt(g *Grammar, k int32) cutFootprint {
	if p.nlotprof > 0 && k >= p.nlotprof {
		return p.cutFPs[k-p.nlotprof]
	}
	fp := g.footprintOf(k)
	return cutFootprint{fp: fp, host: k, size: fp.size, lot: fp.lot, vals: fp.vals}
}

// pieceFrame is where Grammar.piece framed a piece: its profile number
// and footprints (seen from above and from below, looked up by the worker
// that cut it rather than in the serial merge), its bounding rectangle's
// centre and size; ok is false for a piece of no extent.
type pieceFrame struct {
	prof         int32
	fps          [2]*footprint
	centre, size [2]float64
	ok           bool
}

// addCutFootprint appends the piece framed by f, cut from parent's
// footprint (top and mirrored bottom view, as a lot's), to the device's
// profiles and returns its top's index. Their points and rings are laid
// out by layOutPieces, once every cut is made.
func (p *program) addCutFootprint(f pieceFrame, parent cutFootprint) int32 {
	at := int32(len(p.profiles))
	for v := range int32(2) {
		p.profiles = append(p.profiles, gpuProfile{})
		p.cutFPs = append(p.cutFPs, cutFootprint{fp: f.fps[v], host: f.prof + v, size: f.size, lot: parent.lot, vals: parent.vals})
	}
	return at
}

// layOutPieces writes the pieces' footprints into the profile table and
// its points and rings, in profile order, on every core (a city's cuts
// make hundreds of thousands).
func (p *program) layOutPieces() {
	n := len(p.cutFPs)
	if n == 0 {
		return
	}
	at, aq := make([]int, n+1), make([]int, n+1)
	at[0], aq[0] = len(p.points), len(p.poly)
	for i, f := range p.cutFPs {
		np, nq := footprintWords(f.fp)
		at[i+1], aq[i+1] = at[i]+np, aq[i]+nq
	}
	p.points = append(p.points, make([]float64, at[n]-at[0])...)
	p.poly = append(p.poly, make([]int32, aq[n]-aq[0])...)
	parallel.For(n, 256, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			p.profiles[int(p.nlotprof)+i] = layOutFootprint(p.cutFPs[i].fp, p.points, p.poly, at[i], aq[i])
		}
	})
}

// hostProfile is the grammar's profile number of device profile k.
func (p *program) hostProfile(k int32) int32 {
	if p.nlotprof > 0 && k >= p.nlotprof {
		return p.cutFPs[k-p.nlotprof].host
	}
	return k
}

// cutUse is a cut (or a Roof) a shape on a footprint may meet first, on
// the footprint as seen from above, or from below (mirror: a bottom cap's).
type cutUse struct {
	op     *Op
	mirror bool
}

// cutReach finds the cuts (Offsets, Setbacks and SubDivs and Repeats
// across it, with a slot) and the Roofs a shape standing on a footprint
// may meet first down a chain: in it, in its blocks' bodies and in the
// rules they go on to, not past a cut (what lies past it meets the cut's
// pieces), a Roof, a SetAs or a CompSplit's
// walls (none of which stands on the footprint); a CompSplit's bottom cap
// stands on the mirrored footprint.
type cutReach struct {
	slot map[*Op]int32
	rule map[cutRule][]cutUse
}

type cutRule struct {
	name   string
	mirror bool
}

func newCutReach(g *Grammar, slot map[*Op]int32) *cutReach {
	r := &cutReach{slot: slot, rule: map[cutRule][]cutUse{}}
	for grew := true; grew; {
		grew = false
		for _, name := range g.RuleOrder {
			rl := g.Rules[name]
			if rl == nil {
				continue
			}
			for _, m := range []bool{false, true} {
				if u := r.from(rl.Body, m); len(u) > len(r.rule[cutRule{name, m}]) {
					r.rule[cutRule{name, m}], grew = u, true
				}
			}
		}
	}
	return r
}

// from is the cuts a shape seen from below when mirror meets first down
// ch, each once.
func (r *cutReach) from(ch *Chain, mirror bool) []cutUse { return r.fromAt(ch, 0, mirror) }

// fromAt is from for a shape that starts at op start of ch (a Repeat's
// tile goes on after the Repeat).
func (r *cutReach) fromAt(ch *Chain, start int, mirror bool) []cutUse {
	seen := map[cutUse]bool{}
	var out []cutUse
	add := func(u cutUse) {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	var walk func(ch *Chain, start int, mirror bool)
	walk = func(ch *Chain, start int, mirror bool) {
		if ch == nil {
			return
		}
		for _, op := range ch.Ops[start:] {
			switch op.Kind {
			case OpOffset, OpSetback:
				if r.slot[op] > 0 {
					add(cutUse{op, mirror})
				}
				return
			case OpSubDiv, OpRepeat:
				if r.slot[op] > 0 {
					add(cutUse{op, mirror})
					if op.Args[0].Axis == AxisX {
						return
					}
					// Along Y it cuts a Quad, along Z a prism; a shape of
					// the other kind splits along its height and goes on
					// whole (into the branches, or on down the chain),
					// looked at below.
				}
			case OpRoof:
				add(cutUse{op, mirror})
				return
			case OpSetAsPrism:
				return
			case OpCompSplit:
				if len(op.Branches) > 0 {
					walk(op.Branches[0].Body, 0, mirror)
				}
				if len(op.Branches) > 1 && !mirror {
					walk(op.Branches[1].Body, 0, true)
				}
				return
			}
			for _, br := range op.Branches {
				walk(br.Body, 0, mirror)
			}
		}
		for _, u := range r.rule[cutRule{ch.Succ, mirror}] {
			add(u)
		}
	}
	walk(ch, start, mirror)
	return out
}
