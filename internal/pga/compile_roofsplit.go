package pga

// roofSplitAt is the position of a CompSplit that a roof the device cannot
// split may reach, "" when none can, and whether a CompSplit may take a
// roof over a rectangle that it can (rect: its faces' profiles go into the
// device's tables, compile_footsplit.go). The device splits the roofs the
// host built on lots' polygons, and GABLE, SHED and PYRAMID roofs over
// rectangles (rectangular lots, walls, SetAs prisms), whose faces have the
// same polygons at every size (rectFaceProfiles); a HIP roof over a
// rectangle has trapezoids as long as its ridge, a roof of a Box on a
// lot's polygon or a roof of a roof is the CPU's. The check is
// conservative: a flow from the axioms' rules through the operators into
// the rules they name, until nothing changes, of the footprint flow's
// states (footprintBranch, footprintAfter) and of whether the shape may
// stand on no lot's polygon (plain) or be a roof over such a shape.
func roofSplitAt(g *Grammar) (at string, rect bool) {
	const (
		plain     = 1 << 16 // on no lot's polygon, not a roof
		rectRoof  = 1 << 17 // a GABLE, SHED or PYRAMID roof over a rectangle
		otherRoof = 1 << 18 // a roof the device does not split
		footMask  = 1<<16 - 1
		roofs     = rectRoof | otherRoof
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
		grew := false
		var walk func(ch *Chain, st uint32)
		walk = func(ch *Chain, st uint32) {
			if ch == nil {
				return
			}
			for _, op := range ch.Ops {
				foot := footState(st & footMask)
				if op.Kind == OpCompSplit {
					if st&otherRoof != 0 && at == "" {
						at = op.Pos.String()
					}
					rect = rect || st&rectRoof != 0
				}
				for b, br := range op.Branches {
					fb := footprintBranch(op, b, foot)
					cs := uint32(fb) | st&plain
					walls := op.Kind == OpCompSplit && b == 2 && foot&onBox != 0
					if foot != 0 && (fb == 0 || walls) {
						cs |= plain // a wall, or a shape off the polygon
					}
					if op.Kind != OpCompSplit {
						cs |= st & roofs
					}
					walk(br.Body, cs)
				}
				fa := footprintAfter(op, foot)
				next := uint32(fa) | st&(plain|roofs)
				if foot != 0 && fa == 0 {
					next |= plain
				}
				if op.Kind == OpRoof {
					switch {
					case foot&(onBox|roofed) != 0 || st&roofs != 0 || st&plain != 0 && op.Args[0].Roof == Hip:
						next |= otherRoof
					case st&plain != 0:
						next |= rectRoof
					}
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
			return at, rect
		}
	}
}
