package pga

import "fmt"

// Bilateral queries are the paper's third kind of context query (Sec. 3.1,
// "bilateral evaluation queries"): the querying shape and the shapes it asks
// about share a common ancestor, so instead of waiting for a later phase the
// query takes that ancestor, as it entered its rule, and derives from it
// again the shapes the question is about — redundant work that keeps the
// query inside one phase, parallel and independent of evaluation order.
//
//	Overlaps(Ancestor, Target)  Touches(Ancestor, Target)  Inside(Ancestor, Target)
//
// Ancestor is a rule: the query's shape must descend from a shape that
// entered it (the nearest such application is used; none: the query is 0).
// Target is a rule (the shapes handed to it) or a declared terminal (the
// terminals of that kind). The targets are what the ancestor's derivation
// makes in the ancestor's phase; the query's own lineage (the target
// applications it descends from) is left out, so a shape never finds itself.
// The answer is 1 when the shape overlaps / touches / lies inside one of the
// targets, tested as Overlaps(group) tests colliders.

// Link is one (ancestor rule, target) pair that bilateral queries name.
type Link struct {
	Anc, Target string
	anc         *Rule
	target      *Rule           // the target rule; nil when the target is a terminal
	reach       map[*Chain]bool // chains of the ancestor's phase that lead to the target
	uses        []bilateralUse  // where queries name it
}

// bilateralUse is one query of a link, for the checks once rules are known.
type bilateralUse struct {
	what string
	pos  Pos
}

// maxRelatedSplits bounds how many multi-output operators (SubDiv, Repeat,
// CompSplit, Replicate, Setback, Offset) may lie between a bilateral
// query's ancestor and a target: the paper finds re-deriving worthwhile for
// a few rules; the GPU keeps one frame per level (PGA_MAX_RELATED_SPLITS).
const maxRelatedSplits = 8

// Bilateral is Overlaps(Ancestor, Target), Touches(...) or Inside(...).
type Bilateral struct {
	Kind        QueryKind
	Link        int // into Grammar.Links
	Anc, Target string
	pos         Pos
}

func (b Bilateral) Eval(e Env) float64 { return e.Related(b.Kind, b.Link) }
func (b Bilateral) String() string {
	return b.Kind.String() + "(" + b.Anc + ", " + b.Target + ")"
}

// bilateral reads ", Target)" of a two-name query whose first name is anc.
func (p *parser) bilateral(kind QueryKind, fn, anc token) (Expr, error) {
	p.next() // ","
	tgt, err := p.ident("target rule or terminal name")
	if err != nil {
		return nil, err
	}
	b := Bilateral{Kind: kind, Anc: anc.text, Target: tgt.text, pos: fn.pos}
	b.Link = -1
	for i, l := range p.g.Links {
		if l.Anc == anc.text && l.Target == tgt.text {
			b.Link = i
		}
	}
	if b.Link < 0 {
		b.Link = len(p.g.Links)
		p.g.Links = append(p.g.Links, &Link{Anc: anc.text, Target: tgt.text})
	}
	l := p.g.Links[b.Link]
	l.uses = append(l.uses, bilateralUse{b.String(), fn.pos})
	return b, p.expect(")")
}

// checkBilateral resolves every link once the rules are known: the ancestor
// is a rule, the target a rule or a declared terminal that the ancestor
// derives in its phase, each query sits in a rule the ancestor derives, and
// no query lies on a derivation another query re-derives (they would nest).
func checkBilateral(g *Grammar) error {
	if len(g.Links) == 0 {
		return nil
	}
	where := bilateralRules(g)
	for li, l := range g.Links {
		u := l.uses[0]
		l.anc = g.Rules[l.Anc]
		if l.anc == nil {
			return &SyntaxError{u.pos, fmt.Sprintf("%s: no rule %q (a bilateral query names its common ancestor rule first)", u.what, l.Anc)}
		}
		if r, ok := g.Rules[l.Target]; ok {
			l.target = r
		} else if _, ok := g.Terminals[l.Target]; !ok {
			return &SyntaxError{u.pos, fmt.Sprintf("%s: %q is neither a rule nor a declared terminal", u.what, l.Target)}
		}
		l.reach = reachChains(g, l)
		if !l.reach[l.anc.Body] {
			return &SyntaxError{u.pos, fmt.Sprintf("%s: rule %q never derives %q in its phase %d (a bilateral query asks about shapes its ancestor makes in the ancestor's phase)",
				u.what, l.Anc, l.Target, l.anc.Phase)}
		}
		below := derives(g, l.anc)
		for _, w := range where[li] {
			if !below[w.rule] {
				return &SyntaxError{w.pos, fmt.Sprintf("%s in rule %q: %q does not descend from rule %q, so they share no ancestor there",
					w.what, w.rule.Name, w.rule.Name, l.Anc)}
			}
		}
		l.anc.marked = true
		if l.target != nil {
			l.target.marked = true
		}
	}
	// No query on a derivation that a query re-derives.
	for _, l := range g.Links {
		for li := range g.Links {
			for _, w := range where[li] {
				if l.reach[w.chain] {
					return &SyntaxError{w.pos, fmt.Sprintf("%s lies on the derivation from %q to %q that %s derives again: bilateral queries cannot nest",
						w.what, l.Anc, l.Target, l.uses[0].what)}
				}
			}
		}
	}
	return nil
}

// bilateralAt is a bilateral query found in a rule: the chain whose
// operators evaluate it.
type bilateralAt struct {
	what  string
	pos   Pos
	rule  *Rule
	chain *Chain
}

// bilateralRules finds, by link, every bilateral query in the grammar with
// the rule and chain it is evaluated in (inferred phases may have moved it
// to a rule of its own).
func bilateralRules(g *Grammar) [][]bilateralAt {
	out := make([][]bilateralAt, len(g.Links))
	var visit func(x Expr, r *Rule, c *Chain)
	visit = func(x Expr, r *Rule, c *Chain) {
		switch x := x.(type) {
		case Bilateral:
			out[x.Link] = append(out[x.Link], bilateralAt{x.String(), x.pos, r, c})
		case Binary:
			visit(x.L, r, c)
			visit(x.R, r, c)
		case Neg:
			visit(x.X, r, c)
		case Rand:
			visit(x.Lo, r, c)
			visit(x.Hi, r, c)
		}
	}
	for _, name := range g.RuleOrder {
		r := g.Rules[name]
		eachChain(r.Body, func(c *Chain) {
			for _, op := range c.Ops {
				for _, a := range op.Args {
					if a.Expr != nil {
						visit(a.Expr, r, c)
					}
					for _, x := range a.Point {
						if x != nil {
							visit(x, r, c)
						}
					}
				}
				for _, b := range op.Branches {
					if b.Weight != nil {
						visit(b.Weight, r, c)
					}
				}
			}
		})
	}
	return out
}

// eachChain calls fn on c and every chain nested in its blocks.
func eachChain(c *Chain, fn func(*Chain)) {
	fn(c)
	for _, op := range c.Ops {
		for _, b := range op.Branches {
			eachChain(b.Body, fn)
		}
	}
}

// reachChains marks the chains, of rules in the ancestor's phase, from which
// the derivation reaches the link's target: chains handing shapes to the
// target rule or emitting the target terminal, and chains leading to those.
func reachChains(g *Grammar, l *Link) map[*Chain]bool {
	phase := l.anc.Phase
	var chains []*Chain
	for _, name := range g.RuleOrder {
		if r := g.Rules[name]; r.Phase == phase {
			eachChain(r.Body, func(c *Chain) { chains = append(chains, c) })
		}
	}
	reach := map[*Chain]bool{}
	hits := func(c *Chain) bool {
		switch {
		case l.target != nil && c.next == l.target:
			return true
		case l.target == nil && c.term != nil && c.term.Name == l.Target:
			return true
		case c.next != nil && c.next.Phase == phase && reach[c.next.Body]:
			return true
		}
		for _, op := range c.Ops {
			for _, b := range op.Branches {
				if reach[b.Body] {
					return true
				}
			}
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for _, c := range chains {
			if !reach[c] && hits(c) {
				reach[c], changed = true, true
			}
		}
	}
	return reach
}

// derives is the set of rules a shape entering r can reach, r included.
func derives(g *Grammar, r *Rule) map[*Rule]bool {
	seen := map[*Rule]bool{r: true}
	todo := []*Rule{r}
	for len(todo) > 0 {
		cur := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		eachChain(cur.Body, func(c *Chain) {
			if c.next != nil && !seen[c.next] {
				seen[c.next] = true
				todo = append(todo, c.next)
			}
		})
	}
	return seen
}
