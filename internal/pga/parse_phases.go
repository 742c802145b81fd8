package pga

import (
	"fmt"
	"slices"
)

// inferPhases gives a grammar without "phase N;" statements the phases
// OperatorGraph's compiler infers (Graph::computePhases): an IfCollides
// runs one phase after every Collider of its group, and what follows it
// inherits that phase. Phases here belong to rules, so each IfCollides
// that does not start a rule is split off into a rule of its own, named
// "Rule/IfCollides@line:col" (its Generate() terminals keep the rule's
// name). A rule's phase is then the least that is no lower than the
// phases of the rules handing it shapes and, for an IfCollides rule, one
// more than those of the rules registering its colliders. Grammars with no
// IfCollides whose group has a Collider are left alone.
func (p *parser) inferPhases() error {
	g := p.g
	colliders := map[int]bool{}
	for _, d := range p.defs {
		if !d.snap {
			colliders[d.group] = true
		}
	}
	needed := false
	for _, u := range p.uses {
		if u.op != nil && u.op.Kind == OpIfCollides && colliders[u.group] {
			needed = true
		}
	}
	if !needed {
		return nil
	}
	// Split every IfCollides that does not start a rule body into a rule.
	var split func(r *Rule, c *Chain, body bool)
	split = func(r *Rule, c *Chain, body bool) {
		for i, op := range c.Ops {
			if op.Kind == OpIfCollides && colliders[op.Args[0].Group] && !(body && i == 0) {
				origin := r.Name
				if r.origin != "" {
					origin = r.origin
				}
				name := fmt.Sprintf("%s/IfCollides@%d:%d", origin, op.Pos.Line, op.Pos.Col)
				nr := &Rule{Name: name, Body: &Chain{Ops: c.Ops[i:], Succ: c.Succ, Pos: c.Pos}, Pos: op.Pos, Phase: 1, origin: origin}
				g.Rules[name] = nr
				g.RuleOrder = append(g.RuleOrder, name)
				c.Ops, c.Succ, c.Pos = c.Ops[:i], name, op.Pos
				split(nr, nr.Body, true)
				return
			}
			for _, b := range op.Branches {
				split(r, b.Body, false)
			}
		}
	}
	for _, name := range slices.Clone(g.RuleOrder) {
		r := g.Rules[name]
		split(r, r.Body, true)
	}
	// Who hands shapes to whom, who registers which collider group, and
	// which rules start with an IfCollides.
	next := map[string][]string{}
	defs := map[int][]string{}
	opRule := map[*Op]string{}
	var walk func(r string, c *Chain)
	walk = func(r string, c *Chain) {
		if c.Succ != "" {
			if _, ok := g.Rules[c.Succ]; ok {
				next[r] = append(next[r], c.Succ)
			}
		}
		for _, op := range c.Ops {
			opRule[op] = r
			if op.Kind == OpCollider {
				defs[op.Args[0].Group] = append(defs[op.Args[0].Group], r)
			}
			for _, b := range op.Branches {
				walk(r, b.Body)
			}
		}
	}
	for _, name := range g.RuleOrder {
		walk(name, g.Rules[name].Body)
	}
	for changed := true; changed; {
		changed = false
		raise := func(r *Rule, to int) error {
			if to <= r.Phase {
				return nil
			}
			if to > maxPhase {
				return &SyntaxError{r.Pos, fmt.Sprintf("cannot order the phases of rule %q: an IfCollides comes before the Colliders it tests (write \"phase N;\" statements)", r.Name)}
			}
			r.Phase, changed = to, true
			return nil
		}
		for _, name := range g.RuleOrder {
			r := g.Rules[name]
			if ops := r.Body.Ops; len(ops) > 0 && ops[0].Kind == OpIfCollides {
				for _, d := range defs[ops[0].Args[0].Group] {
					if err := raise(r, g.Rules[d].Phase+1); err != nil {
						return err
					}
				}
			}
			for _, s := range next[name] {
				if err := raise(g.Rules[s], r.Phase); err != nil {
					return err
				}
			}
		}
	}
	g.Phases = g.Phases[:0]
	for _, name := range g.RuleOrder {
		if ph := g.Rules[name].Phase; !slices.Contains(g.Phases, ph) {
			g.Phases = append(g.Phases, ph)
		}
	}
	slices.Sort(g.Phases)
	// The references the phase checks read now carry their rules' phases.
	for _, refs := range [][]groupRef{p.uses, p.defs} {
		for k := range refs {
			if r, ok := opRule[refs[k].op]; ok {
				refs[k].phase = g.Rules[r].Phase
			}
		}
	}
	for k := range p.succs {
		if r, ok := g.Rules[p.succs[k].rule]; ok {
			p.succs[k].phase = r.Phase
		}
	}
	return nil
}
