package pga

// EvaluateStats evaluates like Evaluate but keeps no terminals: each lot
// counts its terminals by kind and phase, with the vertices and triangles
// the encoders would write, so statistics of a city cost no memory per
// terminal (~440 bytes each when kept). The result equals
// g.Stats(g.Evaluate(axioms, opt)).
func (g *Grammar) EvaluateStats(axioms []Shape, opt Options) (MeshStats, error) {
	evs, err := g.evaluate(axioms, &opt, true)
	if err != nil {
		return MeshStats{}, err
	}
	all := newTally(g)
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
	return s, nil
}

// tally counts terminals without keeping them.
type tally struct {
	byTerm  []int        // by TerminalShape.Term
	byPhase []PhaseStats // by index into Grammar.Phases
}

func newTally(g *Grammar) *tally {
	// Generate() terminals are named once the grammar is read, so TermNames
	// is complete before any evaluation.
	return &tally{byTerm: make([]int, len(g.TermNames)), byPhase: make([]PhaseStats, len(g.Phases))}
}

func (t *tally) add(g *Grammar, s *TerminalShape) {
	t.byTerm[s.Term]++
	k := 0
	for k < len(g.Phases)-1 && g.Phases[k] != int(s.Phase) {
		k++
	}
	v, tr := g.counts(&s.Shape)
	ph := &t.byPhase[k]
	ph.Terminals++
	ph.Vertices += int64(v)
	ph.Triangles += int64(tr)
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
}
