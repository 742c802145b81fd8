package pga

import "fmt"

// bilateralTables lays out the bilateral queries for the device: one
// PgaLink per link, and the reach table: per chain a mask of the links
// whose target it leads to (bit k for link k), per rule its flags
// (PGA_RULE_MARKED: shapes entering it are recorded as ancestors), per op
// where its queries lie in the list that follows (first << 8 | count), and
// that list (link * 4 + QueryKind, in slot order).
func (c *compiler) bilateralTables() ([]gpuLink, []uint32, error) {
	g, p := c.g, c.p
	if len(g.Links) > gpuMaxLinks {
		return nil, nil, &UnsupportedError{What: fmt.Sprintf("%d (ancestor, target) pairs of bilateral queries (at most %d)", len(g.Links), gpuMaxLinks)}
	}
	links := make([]gpuLink, len(g.Links))
	reach := make([]uint32, len(p.chains)+len(p.rules)+len(p.ops))
	for k, l := range g.Links {
		gl := gpuLink{Anc: int32(p.ruleID[l.Anc]), TargetKind: gpuTargetRule}
		if l.target != nil {
			gl.Target = int32(p.ruleID[l.Target])
		} else {
			gl.TargetKind = gpuTargetTerm
			gl.Target = g.Terminals[l.Target].ID
		}
		links[k] = gl
		for ch, on := range l.reach {
			if id, ok := c.chainID[ch]; ok && on {
				reach[id] |= 1 << k
			}
		}
	}
	for i, n := range p.rules {
		if g.Rules[n].marked {
			reach[len(p.chains)+i] |= gpuRuleMarked
		}
	}
	list := len(reach)
	for id := range p.ops {
		if q := c.opBil[int32(id)]; len(q) > 0 {
			at := len(reach) - list
			reach[len(p.chains)+len(p.rules)+id] = uint32(at)<<8 | uint32(len(q))
			for _, v := range q {
				reach = append(reach, uint32(v))
			}
		}
	}
	return links, reach, nil
}
