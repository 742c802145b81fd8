package pga

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// The device's Offset and Setback of a lot's own polygon take pieces the
// host cut before it ran: every lot's footprint (its top and its mirrored
// bottom view) at the lot's size, by each Offset and Setback a shape on it
// may reach (footprintOpAt), with the operator's constant distance. The
// pieces are registered as the CPU registers them (Grammar.piece: the same
// profile numbers, which the terminals carry back) and laid out as
// footprints of the device's own, after the grammar's profiles, so that
// they ride along, split and take roofs as a lot's footprint does. The
// device checks that the shape it cuts has the size and the distance the
// cut was made for (PGA_ERR_FOOT_CUT), which the footprint flow ensures.

// cutFootprint is a piece's footprint as the device's profile table holds
// it: the grammar's profile number, its size (the piece's bounding
// rectangle, which a roof on it is built for) and its lot, for messages.
type cutFootprint struct {
	fp   *footprint
	host int32
	size [2]float64
	lot  string
}

// constExpr is e's value when it is a constant: numbers and arithmetic on
// them.
func constExpr(e Expr) (float64, bool) {
	switch x := e.(type) {
	case Num:
		return float64(x), true
	case Neg:
		v, ok := constExpr(x.X)
		return -v, ok
	case Binary:
		l, okL := constExpr(x.L)
		r, okR := constExpr(x.R)
		if !okL || !okR {
			return 0, false
		}
		return Binary{Op: x.Op, L: Num(l), R: Num(r)}.Eval(nil), true
	}
	return 0, false
}

// footprintCuts cuts the footprints by each of cuts, registers the
// pieces and fills the device's tables: p.fcut[slot*ncutprof+profile] is
// the cut of profile by the op of that slot (its Mode is slot+1), its
// pieces in p.cpiece. Depth by depth: the lots' footprints (top and
// bottom view) by the ops that may cut them, then the pieces those made
// by the ops that may cut a piece one deep, and so on.
func (p *program) footprintCuts(g *Grammar, cuts []footCut) error {
	if len(cuts) == 0 {
		return nil
	}
	p.nlotprof = int32(len(p.profiles))
	var level []int32
	for k := int32(1); k < p.nlotprof; k++ {
		if g.footprintOf(k) != nil {
			level = append(level, k)
		}
	}
	type job struct {
		slot int
		k    int32
	}
	counts := map[job]gpuFootCut{}
	dev := map[int32]int32{} // a piece's profile number -> its device profile
	for depth := uint8(cut0); depth <= cut2 && len(level) > 0; depth <<= 1 {
		var jobs []job
		for slot, c := range cuts {
			if c.depths&depth == 0 {
				continue
			}
			for _, k := range level {
				if _, ok := counts[job{slot, k}]; !ok {
					jobs = append(jobs, job{slot, k})
					counts[job{slot, k}] = gpuFootCut{}
				}
			}
		}
		res := make([]footCutResult, len(jobs))
		parallel.For(len(jobs), 8, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				res[i] = p.cutFootprint(g, cuts[jobs[i].slot].op, jobs[i].k)
			}
		})
		level = level[:0:0]
		for i, j := range jobs {
			r, op := &res[i], cuts[j.slot].op
			if r.err != nil {
				return &UnsupportedError{What: fmt.Sprintf("a cut that cannot be made (%s at %s on %s's polygon: %v; "+
					"the CPU reports it where a shape takes it)", op.Kind, op.Pos, p.footAt(g, j.k).lot, r.err)}
			}
			e := gpuFootCut{SX: r.size[0], SY: r.size[1], D: r.d, Start: int32(len(p.cpiece)), Siblings: int32(r.n)}
			if r.whole {
				p.cpiece = append(p.cpiece, gpuCutPiece{Profile: -1, Child: int32(r.wholeChild), Branch: int32(r.wholeBranch)})
			}
			for i, pc := range r.pieces {
				f := r.frames[i]
				if !f.ok {
					continue // a piece of no extent, dropped as the CPU drops it
				}
				at, ok := dev[f.prof]
				if !ok {
					at = p.addCutFootprint(g, f, p.footAt(g, j.k).lot)
					dev[f.prof] = at
					level = append(level, at, at+1)
				}
				p.cpiece = append(p.cpiece, gpuCutPiece{CU: f.centre[0], CV: f.centre[1], W: f.size[0], H: f.size[1],
					Profile: at, Child: int32(pc.child), Branch: int32(pc.branch)})
			}
			e.N = int32(len(p.cpiece)) - e.Start
			counts[j] = e
		}
	}
	p.cutSlot = map[*Op]int32{}
	for slot, c := range cuts {
		p.cutSlot[c.op] = int32(slot + 1)
	}
	p.ncutprof = int32(len(p.profiles))
	p.fcut = make([]gpuFootCut, len(cuts)*int(p.ncutprof))
	for i := range p.fcut {
		p.fcut[i].N = -1
	}
	for j, e := range counts {
		p.fcut[j.slot*int(p.ncutprof)+int(j.k)] = e
	}
	return nil
}

// footCutResult is a footprint's cut by an op, with its size and distance
// and where each piece was framed.
type footCutResult struct {
	polygonCut
	size   [2]float64
	d      float64
	frames []pieceFrame
	err    error
}

// cutFootprint cuts device profile k's footprint at its size by op
// (offsetCut, setbackCut) and frames and registers the pieces
// (Grammar.piece); safe to call from several goroutines.
func (p *program) cutFootprint(g *Grammar, op *Op, k int32) footCutResult {
	f := p.footAt(g, k)
	r := footCutResult{size: f.size}
	r.d, _ = constExpr(op.Args[0].Expr)
	if op.Kind == OpOffset {
		r.polygonCut, r.err = offsetCut(f.fp, f.size[0], f.size[1], r.d)
	} else {
		r.polygonCut, r.err = setbackCut(f.fp, f.size[0], f.size[1], r.d)
	}
	for _, pc := range r.pieces {
		if r.err != nil {
			break
		}
		var fr pieceFrame
		fr.prof, fr.centre, fr.size, fr.ok, r.err = g.piece(pc.rings)
		r.frames = append(r.frames, fr)
	}
	return r
}

// footAt is device profile k's footprint: a lot's, or a piece's.
func (p *program) footAt(g *Grammar, k int32) cutFootprint {
	if p.nlotprof > 0 && k >= p.nlotprof {
		return p.cutFPs[k-p.nlotprof]
	}
	fp := g.footprintOf(k)
	return cutFootprint{fp: fp, host: k, size: fp.size, lot: fp.lot}
}

// pieceFrame is where Grammar.piece framed a piece: its profile number,
// its bounding rectangle's centre and size; ok is false for a piece of no
// extent.
type pieceFrame struct {
	prof         int32
	centre, size [2]float64
	ok           bool
}

// addCutFootprint appends the piece framed by f (top and mirrored bottom
// view, as a lot's) to the device's profiles and returns its top's index.
func (p *program) addCutFootprint(g *Grammar, f pieceFrame, lot string) int32 {
	at := int32(len(p.profiles))
	for v := range int32(2) {
		fp := g.footprintOf(f.prof + v)
		p.profiles = append(p.profiles, p.footprintProfile(fp))
		p.cutFPs = append(p.cutFPs, cutFootprint{fp: fp, host: f.prof + v, size: f.size, lot: lot})
	}
	return at
}

// hostProfile is the grammar's profile number of device profile k.
func (p *program) hostProfile(k int32) int32 {
	if p.nlotprof > 0 && k >= p.nlotprof {
		return p.cutFPs[k-p.nlotprof].host
	}
	return k
}
