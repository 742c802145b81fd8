package pga

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The cuts the host makes for the device are the CPU's: for every lot, the
// pieces an Offset (an inset and an outset) and a Setback of its Quad
// give on the CPU, child by child (number, siblings, branch, seed,
// footprint, size and place), are the device table's, and their
// footprints map back to the CPU's profile numbers.
func TestFootprintCutTables(t *testing.T) {
	for _, c := range []struct{ name, rule string }{
		{"inset", "Lot = Offset(1.5) { A | B };"},
		{"outset", "Lot = Offset(-2) { A | B };"},
		{"setback", "Lot = Setback(4) { A | B };"},
		{"whole", "Lot = Offset(0) { A | B };"},
		// Distances of each lot's own: floors 2-5, heights 6-18 m, a
		// property no lot has (its default).
		{"by attributes", "Lot = Setback(LotAttr(floors, 9) * 1.5 - (LotAttr(height, 0) > 12)) { A | B };"},
		{"by a default", "Lot = Offset(-LotAttr(yard, 2.5)) { A | B };"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "axiom Quad Lot;\nterminal A (1, 0);\nterminal B (2, 1);\n" + c.rule
			pieces, _ := checkCutTable(t, src, Quad, false)
			t.Logf("%d pieces", pieces)
		})
	}
}

// tablePiece is a piece of a cut as the device's table and the CPU's
// terminals give it: its child number, siblings, branch, seed, profile
// (the CPU's number), size and centre in its lot's footprint plane.
type tablePiece struct {
	child, siblings, branch int32
	seed                    uint64
	profile                 int32
	w, h, cu, cv            float64
}

// checkCutTable builds grammar src (its axiom of kind on 24 polygon lots;
// its first rule cuts the lot once by the grammar's first cut, each
// branch a terminal named A, B, C... in order, or, when goesOn, the rest
// of the chain a terminal: branch -1) and checks lot by lot that the
// device table's pieces of that cut are the CPU's. It returns how many
// pieces there were, and how many of them are a slab's second or later
// part.
func checkCutTable(t *testing.T, src string, kind ShapeKind, goesOn bool) (pieces, parts int) {
	t.Helper()
	g, _ := footprintGrammar(t, src, kind)
	lots := polygonLots(24, 9)
	axioms, err := g.LotAxioms(kind, lots, 5, 9)
	if err != nil {
		t.Fatal(err)
	}
	p, err := compileGrammar(g)
	if err != nil {
		t.Fatal(err)
	}
	ts, _, err := g.evaluateTerms(axioms, Options{Workers: 1, LotAttrs: LotAttrValues(lots)})
	if err != nil {
		t.Fatal(err)
	}
	v := 1 // the footprint's v: a Quad's Y, a prism's -Z
	if kind == Box {
		v = 2
	}
	cpu := map[int32][]tablePiece{} // by lot
	for _, ts := range ts {
		s := ts.Shape
		a := axioms[s.Lot]
		var off Vec3
		for k := range 3 { // the piece's centre in its lot's frame
			off[k] = s.Transform[4*k+3] - a.Transform[4*k+3]
		}
		cu := off[0]*a.Transform[0] + off[1]*a.Transform[4] + off[2]*a.Transform[8]
		cv := off[0]*a.Transform[v] + off[1]*a.Transform[4+v] + off[2]*a.Transform[8+v]
		if v == 2 {
			cv = -cv
		}
		branch := int32(g.TermNames[ts.Term][0] - 'A')
		if goesOn {
			branch = -1
		}
		cpu[s.Lot] = append(cpu[s.Lot], tablePiece{s.Index, s.Siblings, branch, s.Seed, s.Profile, s.Size[0], s.Size[v], cu, cv})
	}
	for lot, a := range axioms {
		e, ok := p.footCut(0, a.Profile)
		if !ok {
			t.Fatalf("lot %d: profile %d not cut", lot, a.Profile)
		}
		var dev []tablePiece
		for _, pc := range p.cpiece[e.Start : e.Start+e.N] {
			seed := rng.Key(a.Seed, uint64(pc.Child)) // pga_childof, and a part's key
			if pc.Part > 0 {
				seed = rng.Key(seed, partStream, uint64(pc.Part))
				parts++
			}
			prof, w, h := a.Profile, a.Size[0], a.Size[v]
			if pc.Profile >= 0 {
				prof, w, h = p.hostProfile(pc.Profile), pc.W, pc.H
			}
			dev = append(dev, tablePiece{pc.Child, e.Siblings, pc.Branch, seed, prof, w, h, pc.CU, pc.CV})
		}
		got := cpu[int32(lot)]
		for _, l := range [][]tablePiece{dev, got} {
			slices.SortFunc(l, func(x, y tablePiece) int {
				if x.child != y.child {
					return int(x.child - y.child)
				}
				return cmp.Compare(x.seed, y.seed)
			})
		}
		if len(dev) != len(got) {
			t.Fatalf("lot %d: %d pieces on the device's table, %d on the CPU", lot, len(dev), len(got))
		}
		for i := range dev {
			d, c := dev[i], got[i]
			if d.child != c.child || d.siblings != c.siblings || d.branch != c.branch || d.seed != c.seed ||
				d.profile != c.profile || d.w != c.w || d.h != c.h || math.Abs(d.cu-c.cu) > 1e-9 || math.Abs(d.cv-c.cv) > 1e-9 {
				t.Fatalf("lot %d piece %d: device %+v, CPU %+v", lot, i, d, c)
			}
		}
		pieces += len(dev)
	}
	return pieces, parts
}

// A hip roof on a piece with two corners a rounding apart (an outset of
// an outset of a generated lot, found by building a roof for every piece
// of pavements.pga's cuts on 2,500 lots): a face of the skeleton has two
// corners there, which once panicked in the ear clipper; it has no area
// and gives no triangle.
func TestRoofOnNearDuplicateCorners(t *testing.T) {
	fp, err := newFootprint([][][2]float64{{{-0.4999943282813438, 0.5}, {-0.5, -0.49999999999999994},
		{0.4999936876849278, -0.5}, {0.49996733129093157, 0.029795521408629656},
		{0.49996732150669826, 0.029795521408664007}, {0.5, 0.49999999999999994}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := footprintRoof(fp, Hip, 31.20802017684266, 30.188169961478053)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.faces) < 4 {
		t.Fatalf("%d faces", len(r.faces))
	}
}
