package pga

import "fmt"

// CompSplit of a roof on a lot's own polygon runs on the device from faces
// the host lays out with the roof (roofSplit in roof_split.go): for each
// face, the profile the roof gives it at unit slope, which holds at every
// height (faceProfiles), its slope or side and its outer ring's corners;
// and the footprint seen from below, for the underside. The device frames
// each face from the roof's corners at the shape's height, as the CPU
// does, and hands it on as a Quad on that profile. The faces' profiles
// and the underside's are laid out after the device's other profiles,
// each with its mirror (the bottom cap of a prism made of it), and the
// footprint flow lets nothing cut or roof them (faced).

// roofFaces is what the host works out for one roof's CompSplit on every
// core: its faces' profiles, and the underside's.
type roofFaces struct {
	faces []faceProfile
	under int32
}

// footRoofFaces registers roof r's faces on footprint fp (lot names it in
// messages) and its underside's profile.
func footRoofFaces(g *Grammar, r *polyRoof, fp *footprint, kind RoofKind, lot string) (roofFaces, error) {
	faces, err := g.faceProfiles(r)
	if err != nil {
		return roofFaces{}, fmt.Errorf("CompSplit of a %s roof on %s's polygon: %w", kind, lot, err)
	}
	for i, f := range faces {
		if !f.level {
			return roofFaces{}, &UnsupportedError{What: fmt.Sprintf("CompSplit of a %s roof on %s's polygon "+
				"(face %d has no level first edge, so its polygon changes with the roof's height; CPU only)", kind, lot, i)}
		}
	}
	under, err := g.dyn.add(mirrorRings(fp.rings))
	if err != nil {
		return roofFaces{}, fmt.Errorf("CompSplit of a %s roof on %s's polygon: the underside: %w", kind, lot, err)
	}
	return roofFaces{faces: faces, under: under}, nil
}

// addRoofFaces lays out the faces of roof r (its parts, rf their
// profiles) in e: from e.Part in poly, one entry per face and an end, each
// the start of the face's record: its device profile (-1 for none), 1 for
// a side (a gable, a wall) else 0, and its outer ring's corner ids.
func (p *program) addRoofFaces(g *Grammar, e *gpuFootRoof, r *polyRoof, rf roofFaces) {
	// The profiles first: laying one out appends to poly.
	e.Under = p.faceProfile(g, rf.under)
	profs := make([]int32, len(r.parts))
	for i := range r.parts {
		profs[i] = -1
		if rf.faces[i].prof != 0 {
			profs[i] = p.faceProfile(g, rf.faces[i].prof)
		}
	}
	e.NPart, e.Part = int32(len(r.parts)), int32(len(p.poly))
	at := len(p.poly) + len(r.parts) + 1
	for _, part := range r.parts {
		p.poly = append(p.poly, int32(at))
		at += 2 + len(part.rings[0])
	}
	p.poly = append(p.poly, int32(at))
	for i, part := range r.parts {
		side := int32(0)
		if part.side {
			side = 1
		}
		p.poly = append(p.poly, profs[i], side)
		for _, c := range part.rings[0] {
			p.poly = append(p.poly, int32(c))
		}
	}
}

// faceProfile is the device profile of the grammar's profile host (a
// face's or an underside's), laid out with its mirror after the device's
// other profiles the first time it is asked for. Nothing cuts or roofs a
// face on the device (faced), so its entry has no size.
func (p *program) faceProfile(g *Grammar, host int32) int32 {
	if at, ok := p.faceDev[host]; ok {
		return at
	}
	if p.faceDev == nil {
		p.faceDev = map[int32]int32{}
	}
	if p.nlotprof == 0 { // no cuts: the device's own profiles start here
		p.nlotprof = int32(len(p.profiles))
	}
	at := int32(len(p.profiles))
	for v := range int32(2) {
		fp := g.footprintOf(host + v)
		p.profiles = append(p.profiles, p.footprintProfile(fp))
		p.cutFPs = append(p.cutFPs, cutFootprint{fp: fp, host: host + v, lot: fp.lot})
	}
	p.faceDev[host] = at
	return at
}

// rectRoofFaces lays out the faces' profiles of GABLE, SHED and PYRAMID
// roofs over rectangles (rectFaceProfiles) for the device: from
// p.rectFaces in poly, four device profiles per roof kind from GABLE on
// (-1 for HIP's, and for a face of no extent), by roofSolid's face order.
func (p *program) rectRoofFaces(g *Grammar) error {
	table := make([]int32, 4*Pyramid)
	for k := Gable; k <= Pyramid; k++ {
		profs, err := g.rectFaceProfiles(k)
		if err != nil {
			return err
		}
		for i := range 4 {
			at := int32(-1)
			if i < len(profs) && profs[i] != 0 {
				at = p.faceProfile(g, profs[i])
			}
			table[4*(int(k)-1)+i] = at
		}
	}
	p.rectFaces = int32(len(p.poly))
	p.poly = append(p.poly, table...)
	return nil
}
