package pga

import "fmt"

// bilateralTables lays out the bilateral queries for the device: one
// PgaLink per link, and the reach table: per chain a mask of the links
// whose target it leads to (bit k for link k), then per rule its flags
// (PGA_RULE_MARKED: shapes entering it are recorded as ancestors).
func (c *compiler) bilateralTables() ([]gpuLink, []uint32, error) {
	g, p := c.g, c.p
	if len(g.Links) > gpuMaxLinks {
		return nil, nil, &UnsupportedError{What: fmt.Sprintf("%d (ancestor, target) pairs of bilateral queries (at most %d)", len(g.Links), gpuMaxLinks)}
	}
	links := make([]gpuLink, len(g.Links))
	reach := make([]uint32, len(p.chains)+len(p.rules))
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
	return links, reach, nil
}
