package pga

// roofSplitAt is the position of a CompSplit that a roof may reach, "" when
// none can. The CUDA backend has no roof faces (each a polygon of its own),
// so such a grammar runs on the CPU: the check is conservative, a flow of
// "this shape may be a roof" from each Roof through the operators that
// keep it (all but CompSplit, whose children are faces) into the rules
// they name, until nothing changes.
func roofSplitAt(g *Grammar) string {
	roofIn := map[string]bool{} // rules a roof may enter
	for {
		at, grew := "", false
		var walk func(ch *Chain, roof bool)
		walk = func(ch *Chain, roof bool) {
			if ch == nil {
				return
			}
			for _, op := range ch.Ops {
				switch op.Kind {
				case OpRoof:
					roof = true
				case OpCompSplit:
					if roof && at == "" {
						at = op.Pos.String()
					}
				}
				for _, b := range op.Branches {
					walk(b.Body, roof && op.Kind != OpCompSplit)
				}
			}
			if roof && ch.Succ != "" && !roofIn[ch.Succ] {
				roofIn[ch.Succ], grew = true, true
			}
		}
		for _, name := range g.RuleOrder {
			if r := g.Rules[name]; r != nil {
				walk(r.Body, roofIn[name])
			}
		}
		if at != "" || !grew {
			return at
		}
	}
}
