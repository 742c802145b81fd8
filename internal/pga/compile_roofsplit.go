package pga

// roofSplitAt is the position of a CompSplit that a roof not built on a
// lot's own polygon may reach, "" when none can. The device splits only
// the roofs the host built on lots' polygons (compile_footsplit.go); a
// roof over a rectangle (roofSolid, or a Box's) has faces whose polygons
// change with its proportions, so such a grammar runs on the CPU. The
// check is conservative: a flow from the axioms' rules through the
// operators into the rules they name, until nothing changes, of the
// footprint flow's states (footprintBranch, footprintAfter) and of whether
// the shape may stand on no lot's polygon (plain: a rectangular lot, a
// wall of a CompSplit, a SetAs prism) or be a roof over such a shape.
func roofSplitAt(g *Grammar) string {
	const (
		plain     = 1 << 16
		plainRoof = 1 << 17
		footMask  = 1<<16 - 1
	)
	in := map[string]uint32{}
	for _, a := range g.Axioms {
		var st uint32
		if g.footprints != nil {
			switch a.Kind { // as footprintOpAt starts them
			case Quad:
				st = uint32(onQuad | cut0)
			case Box:
				st = uint32(onBox | cut0)
			default:
				st = uint32(onQuad | onBox | cut0)
			}
		}
		if g.footprints == nil || g.rectLots {
			st |= plain
		}
		in[a.Rule] |= st
	}
	for {
		at, grew := "", false
		var walk func(ch *Chain, st uint32)
		walk = func(ch *Chain, st uint32) {
			if ch == nil {
				return
			}
			for _, op := range ch.Ops {
				foot := footState(st & footMask)
				if op.Kind == OpCompSplit && st&plainRoof != 0 && at == "" {
					at = op.Pos.String()
				}
				for b, br := range op.Branches {
					fb := footprintBranch(op, b, foot)
					cs := uint32(fb) | st&plain
					walls := op.Kind == OpCompSplit && b == 2 && foot&onBox != 0
					if foot != 0 && (fb == 0 || walls) {
						cs |= plain // a wall, or a shape off the polygon
					}
					if op.Kind != OpCompSplit {
						cs |= st & plainRoof
					}
					walk(br.Body, cs)
				}
				fa := footprintAfter(op, foot)
				next := uint32(fa) | st&(plain|plainRoof)
				if foot != 0 && fa == 0 {
					next |= plain
				}
				if op.Kind == OpRoof && (st&plain != 0 || foot&onBox != 0) {
					next |= plainRoof // a Roof of a rectangle, or of a Box (roof)
				}
				st = next
			}
			if st != 0 && ch.Succ != "" && in[ch.Succ]|st != in[ch.Succ] {
				in[ch.Succ] |= st
				grew = true
			}
		}
		for _, name := range g.RuleOrder {
			if r := g.Rules[name]; r != nil {
				walk(r.Body, in[name])
			}
		}
		if at != "" || !grew {
			return at
		}
	}
}
