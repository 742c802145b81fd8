package pga

// EvaluateStats evaluates like Evaluate but keeps no terminals: each lot
// counts its terminals by kind and phase, with the vertices and triangles
// the encoders would write, so statistics of a city cost no memory per
// terminal (~440 bytes each when kept). The result equals
// g.Stats(g.Evaluate(axioms, opt)).
func (g *Grammar) EvaluateStats(axioms []Shape, opt Options) (MeshStats, error) {
	s, _, err := g.EvaluateStatsLots(axioms, opt, nil, 0)
	return s, err
}

// EvaluateStatsLots is EvaluateStats that also measures, as terminals are
// counted, which buildings reach more than tol metres outside their lots
// (axiom i stands on lots[i]): the result equals
// g.Overflows(g.Evaluate(axioms, opt), lots, tol), without keeping the
// terminals. With no lots it measures nothing.
func (g *Grammar) EvaluateStatsLots(axioms []Shape, opt Options, lots []Lot, tol float64) (MeshStats, []Overflow, error) {
	proto := newTally(g)
	if len(lots) > 0 {
		proto.edges, proto.tol = lotEdges(lots), tol
	}
	evs, err := g.evaluate(axioms, &opt, proto)
	if err != nil {
		return MeshStats{}, nil, err
	}
	all := proto.sibling(g)
	for _, ev := range evs {
		all.merge(ev.tally)
	}
	s := MeshStats{ByName: map[string]int{}}
	for k, n := range all.byTerm {
		if n > 0 {
			s.ByName[g.TermNames[k]] += n
		}
	}
	for i, p := range g.Phases {
		ph := all.byPhase[i]
		ph.Phase = p
		s.ByPhase = append(s.ByPhase, ph)
		s.Terminals += ph.Terminals
		s.Vertices += ph.Vertices
		s.Triangles += ph.Triangles
	}
	var ov []Overflow
	if all.edges != nil {
		ov = overflowList(all.over)
	}
	return s, ov, nil
}

// tally counts terminals without keeping them.
type tally struct {
	byTerm  []int        // by TerminalShape.Term
	byPhase []PhaseStats // by index into Grammar.Phases
	// With edges set, over keeps per lot how far (beyond tol) its
	// terminals reach outside it.
	edges [][]lotEdge
	tol   float64
	over  map[int]float64
}

func newTally(g *Grammar) *tally {
	// Generate() terminals are named once the grammar is read, so TermNames
	// is complete before any evaluation.
	return &tally{byTerm: make([]int, len(g.TermNames)), byPhase: make([]PhaseStats, len(g.Phases))}
}

// sibling is an empty tally that measures what t measures.
func (t *tally) sibling(g *Grammar) *tally {
	n := newTally(g)
	n.edges, n.tol = t.edges, t.tol
	return n
}

func (t *tally) add(g *Grammar, s *TerminalShape) {
	t.byTerm[s.Term]++
	k := 0
	for k < len(g.Phases)-1 && g.Phases[k] != int(s.Phase) {
		k++
	}
	v, tr := g.termCounts(s) // as Stats counts it: an asset's, not its scope's
	ph := &t.byPhase[k]
	ph.Terminals++
	ph.Vertices += int64(v)
	ph.Triangles += int64(tr)
	if t.edges != nil {
		if d := g.outside(s, t.edges, t.tol); d > t.tol {
			t.note(int(s.Lot), d)
		}
	}
}

// note records that lot l reaches d metres outside.
func (t *tally) note(l int, d float64) {
	if t.over == nil {
		t.over = map[int]float64{}
	}
	t.over[l] = max(t.over[l], d)
}

func (t *tally) merge(o *tally) {
	for k, n := range o.byTerm {
		t.byTerm[k] += n
	}
	for k := range o.byPhase {
		t.byPhase[k].Terminals += o.byPhase[k].Terminals
		t.byPhase[k].Vertices += o.byPhase[k].Vertices
		t.byPhase[k].Triangles += o.byPhase[k].Triangles
	}
	for l, d := range o.over {
		t.note(l, d)
	}
}
