package pga

import "fmt"

// Lots that stand on their own polygon (footprint.go) run on the device as
// long as the polygon only rides along with the shape, or is cut where the
// host could cut it first: Extrude makes its prism, CompSplit gives the
// caps (which keep it) and one rectangle per edge of every ring, cuts
// along a prism's height keep it whole, and every operator that does not
// look at it carries it; the terminals' solids are drawn from it as on the
// CPU. A roof on it (the straight skeleton's) is built on the host for
// every footprint and roof kind the grammar names, at the footprint's size
// (compile_footroof.go), which the device takes as it is; so a shape that
// may have been resized (Scale, SwapSize) may not take one. Offset's and
// Setback's mitred insets and outsets of a lot's polygon are cut on the
// host too, for every lot at its size (compile_footcut.go), when their
// distance is made of constants, the lot's attributes (LotAttr) and the
// shape's size in the polygon's plane (compile_hostexpr.go); their
// pieces stand on polygons of their own, which ride along, take roofs,
// split and are cut again as a lot's are, up to maxCutDepth cuts deep. SubDiv
// and Repeat across a footprint are such cuts too (compile_footslab.go),
// when their sizes are made of the same. What else makes polygons of its
// own from a footprint (a cut of a resized shape, a distance or a size
// that reads more of the shape, as a prism's height, snapped slabs, a
// cut deeper than that, a roof's faces) exists on the CPU only, so a grammar in
// which such a shape may reach one of those runs there (footprintOpAt).

// profiles lays out the profile table: profile 0 is the plain rectangle,
// then the prisms' convex profiles and the lots' footprints (rings and cap
// triangles in p.poly), and checks that the grammar only carries the
// footprints along.
func (c *compiler) profiles() error {
	g, p := c.g, c.p
	hasFootprint := false
	for k, pts := range g.Profiles {
		if k == 0 {
			p.profiles = append(p.profiles, gpuProfile{NRings: 1, Rings: -1, Tris: -1, Roofs: -1})
			continue
		}
		if fp := g.footprintOf(int32(k)); fp != nil {
			hasFootprint = true
			p.profiles = append(p.profiles, p.footprintProfile(fp))
			continue
		}
		if !convex(pts) {
			return &UnsupportedError{What: fmt.Sprintf("a concave polygon or prism profile (%d points)", len(pts))}
		}
		if len(pts) > gpuMaxProfile {
			return &UnsupportedError{What: fmt.Sprintf("a prism profile of %d points (at most %d)", len(pts), gpuMaxProfile)}
		}
		p.profiles = append(p.profiles, gpuProfile{Start: int32(len(p.points) / 2), N: int32(len(pts)), NRings: 1,
			NTris: int32(len(pts) - 2), Rings: -1, Tris: -1, Roofs: -1})
		for _, q := range pts {
			p.points = append(p.points, q[0], q[1])
		}
	}
	if !hasFootprint {
		return nil
	}
	p.fpStarts = map[string]bool{}
	for _, a := range g.Axioms {
		p.fpStarts[a.Rule] = true
	}
	at, kinds, cuts, splits := footprintOpAt(g)
	if at != "" {
		return &UnsupportedError{What: at}
	}
	if err := p.footprintCuts(c.work, g, cuts); err != nil {
		return err
	}
	return p.footprintRoofs(c.work, g, kinds, splits)
}

// footprintProfile appends fp's points, ring lengths and cap triangles to
// the tables and returns its entry.
func (p *program) footprintProfile(fp *footprint) gpuProfile {
	np, nq := footprintWords(fp)
	at, aq := len(p.points), len(p.poly)
	p.points = append(p.points, make([]float64, np)...)
	p.poly = append(p.poly, make([]int32, nq)...)
	return layOutFootprint(fp, p.points, p.poly, at, aq)
}

// footprintWords is how many point coordinates and poly entries (ring
// lengths, triangle corners) fp takes in the tables.
func footprintWords(fp *footprint) (points, poly int) {
	poly = len(fp.rings) + 3*len(fp.tris)
	for _, ring := range fp.rings {
		points += 2 * len(ring)
	}
	return points, poly
}

// layOutFootprint writes fp's points at points[at:] and its ring lengths
// and cap triangles at poly[aq:] (footprintWords of room each) and
// returns its entry.
func layOutFootprint(fp *footprint, points []float64, poly []int32, at, aq int) gpuProfile {
	e := gpuProfile{Start: int32(at / 2), N: int32(fp.n), NRings: int32(len(fp.rings)),
		NTris: int32(len(fp.tris)), Rings: int32(aq), Roofs: -1}
	for _, ring := range fp.rings {
		poly[aq] = int32(len(ring))
		aq++
		for _, q := range ring {
			points[at], points[at+1] = q[0], q[1]
			at += 2
		}
	}
	e.Tris = int32(aq)
	for _, t := range fp.tris {
		poly[aq], poly[aq+1], poly[aq+2] = int32(t[0]), int32(t[1]), int32(t[2])
		aq += 3
	}
	return e
}

// footState is what a shape of the footprint flow may be, a set of:
// a Quad standing on a lot's polygon, a Box (its right prism) standing on
// one, resized, and how deep in cuts of the polygon it may stand.
type footState uint16

// maxCutDepth is how many cuts deep (Offset, Setback, SubDiv and Repeat
// across a polygon, nested) the host cuts a lot's polygon for the device.
// Each depth is a round of cuts on every piece the last one made; a
// grammar that cuts deeper runs on the CPU.
const maxCutDepth = 6

const (
	onQuad footState = 1 << iota
	onBox
	// resized: the shape may have been scaled since it left its lot, so a
	// roof built for the lot's size would not fit it.
	resized
	// roofed: the shape may be a roof on the polygon, which the device
	// draws as the host built it, at the size of the shape that took it.
	roofed
	// cut0: the shape may stand on its lot's polygon; cut0<<d: on a piece
	// of it that d nested cuts made, up to maxCutDepth (cutDeepest).
	cut0
	cutDeepest = cut0 << maxCutDepth
	cutDepths  = cutDeepest<<1 - cut0
	// faced: the shape may be a face of a roof on the polygon (CompSplit
	// of the roof), or a prism of one, on a polygon of its own whose size
	// is the roof's height's: the device carries and draws it, and cuts or
	// roofs none of it.
	faced = cutDeepest << 1
)

// cutOnce is the depth bits of st one cut deeper (cutDeepest drops out:
// the flow refuses that cut before it).
func cutOnce(st footState) footState { return st&^cutDepths | st&(cutDepths&^cutDeepest)<<1 }

// footprintOpAt says where a shape standing on a lot's own polygon may
// reach an operator that makes polygons of its own from it that the host
// cannot make first, "" when none can; where such shapes may take a roof
// of each kind ("" for none); the Offsets and Setbacks the host cuts
// footprints by, in the order the flow first reaches them; and whether a
// CompSplit may take such a roof (splits: the host lays out its faces). Like
// roofSplitAt it is conservative: the states a shape may be in flow from
// the axioms' rules through the operators into the rules they name until
// nothing changes.
func footprintOpAt(g *Grammar) (string, [Pyramid + 1]string, []*Op, bool) {
	var kinds [Pyramid + 1]string // the first Roof of each kind, by position
	var cuts []*Op
	splits := false
	cutSeen := map[*Op]bool{}
	in := map[string]footState{}
	for _, a := range g.Axioms {
		switch a.Kind {
		case Quad:
			in[a.Rule] |= onQuad | cut0
		case Box:
			in[a.Rule] |= onBox | cut0
		default:
			in[a.Rule] |= onQuad | onBox | cut0
		}
	}
	for {
		at, grew := "", false
		var walk func(ch *Chain, st footState)
		walk = func(ch *Chain, st footState) {
			if ch == nil {
				return
			}
			for _, op := range ch.Ops {
				if k := op.Args; op.Kind == OpRoof && st&onQuad != 0 && kinds[k[0].Roof] == "" {
					kinds[k[0].Roof] = op.Pos.String()
				}
				splits = splits || op.Kind == OpCompSplit && st&roofed != 0
				if what, why := footprintRefusal(op, st); what != "" && at == "" {
					at = fmt.Sprintf("%s at %s on a lot's own polygon (a concave, holed or non-rectangular lot; "+
						"%s, made on the CPU only)", what, op.Pos, why)
				}
				if (op.Kind == OpOffset || op.Kind == OpSetback || slabAcross(op, st)) && st != 0 && !cutSeen[op] {
					cutSeen[op] = true
					cuts = append(cuts, op)
				}
				for b, br := range op.Branches {
					walk(br.Body, footprintBranch(op, b, st))
				}
				st = footprintAfter(op, st)
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
			return at, kinds, cuts, splits
		}
	}
}

// footprintRefusal names op and what it would make of a shape in state st
// that the device cannot ("" when it can run op on it).
func footprintRefusal(op *Op, st footState) (string, string) {
	if st&faced != 0 {
		switch {
		case op.Kind == OpRoof && st&onQuad != 0, op.Kind == OpOffset, op.Kind == OpSetback, slabAcross(op, st):
			return op.Kind.String(), "on a face of a roof (CompSplit of a roof), cut or roofed on its own polygon at its size"
		}
	}
	switch op.Kind {
	case OpRoof:
		if st&onQuad != 0 && st&resized != 0 {
			return "Roof", "after Scale or SwapSize, a roof by the straight skeleton of the polygon as resized"
		}
	case OpScale, OpSwapSize, OpExtrude:
		if st&roofed != 0 {
			return op.Kind.String(), "after Roof, a roof resized, whose straight skeleton the CPU builds again at its new size"
		}

	case OpOffset, OpSetback:
		switch {
		case st == 0:
		case st&resized != 0:
			return op.Kind.String(), "after Scale or SwapSize, a mitred inset or outset of the polygon as resized"
		case st&cutDeepest != 0:
			return op.Kind.String(), fmt.Sprintf("a cut by Offset, Setback, SubDiv or Repeat of the lot's polygon more than %d deep", maxCutDepth)
		default:
			if _, ok := hostExpr(op.Args[0].Expr, cutEnv{}, knownAxes(st)); !ok {
				return op.Kind.String(), "a mitred inset or outset by a distance not made of constants, a lot's attributes and its size in the polygon's plane"
			}
		}
	case OpSubDiv, OpRepeat:
		what := fmt.Sprintf("%s along %s", op.Kind, op.Args[0].Axis)
		switch {
		case st&roofed != 0 && op.Args[0].Axis != AxisZ:
			return what, "after Roof, pieces of a roof across its plane, whose straight skeletons the CPU builds again at their sizes"
		case !slabAcross(op, st):
		case st&resized != 0:
			return what, "after Scale or SwapSize, slabs of the polygon as resized"
		case st&cutDeepest != 0:
			return what, fmt.Sprintf("a cut by Offset, Setback, SubDiv or Repeat of the lot's polygon more than %d deep", maxCutDepth)
		default:
			if why := slabSizesKnown(op, st); why != "" {
				return what, why
			}
		}
	}
	return "", ""
}

// footprintBranch is the state of branch b of op on a shape in state st.
func footprintBranch(op *Op, b int, st footState) footState {
	switch {
	case st == 0:
		return 0
	case op.Kind == OpOffset || op.Kind == OpSetback:
		return cutOnce(st) // pieces of the kind cut, or the shape whole
	case slabAcross(op, st): // a SubDiv's
		return slabState(op, st)
	case op.Kind != OpCompSplit:
		return st
	}
	var out footState
	if st&(onQuad|onBox) != 0 && b < 2 { // the caps: Quads on the polygon (the bottom one mirrored)
		out = onQuad | st&(resized|cutDepths|faced)
	} // else a rectangle per edge
	if st&roofed != 0 { // a roof's faces (roofSplit), its underside among them
		out |= onQuad | faced
	}
	return out
}

// footprintAfter is the state after op on a shape in state st.
func footprintAfter(op *Op, st footState) footState {
	switch {
	case st == 0:
		return 0
	case op.Kind == OpExtrude:
		return onBox | st&(resized|cutDepths|faced)
	case op.Kind == OpSetAsPrism:
		return 0
	case op.Kind == OpScale || op.Kind == OpSwapSize:
		return st | resized
	case op.Kind == OpRoof && st&onQuad != 0:
		return roofed | st&(resized|cutDepths)
	case op.Kind == OpRepeat && slabAcross(op, st):
		return slabState(op, st)
	}
	return st
}

// footprintStart refuses to start rule start on lots standing on their own
// polygons when the footprint flow did not start from it (it is no
// axiom's rule): the grammar was checked from the axioms only.
func (p *program) footprintStart(g *Grammar, start string, axioms []Shape) error {
	if p.fpStarts == nil || p.fpStarts[start] {
		return nil
	}
	for _, a := range axioms {
		if g.footprintOf(a.Profile) != nil {
			return &UnsupportedError{What: fmt.Sprintf("starting rule %q, no axiom's rule, on a lot's own polygon", start)}
		}
	}
	return nil
}
