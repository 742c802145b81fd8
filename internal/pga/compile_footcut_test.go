package pga

import (
	"math"
	"sort"
	"testing"
)

// The cuts the host makes for the device are the CPU's: for every lot, the
// pieces an Offset (an inset and an outset) and a Setback of its Quad
// give on the CPU, child by child (number, siblings, branch, footprint,
// size and place), are the device table's, and their footprints map back
// to the CPU's profile numbers.
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
			g, _ := footprintGrammar(t, src, Quad)
			lots := polygonLots(24, 9)
			axioms, err := g.LotAxioms(Quad, lots, 5, 9)
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
			type piece struct {
				child, siblings, branch int32
				profile                 int32
				w, h, cu, cv            float64
			}
			cpu := map[int32][]piece{} // by lot
			for _, ts := range ts {
				s := ts.Shape
				a := axioms[s.Lot]
				var off Vec3
				for k := range 3 { // the piece's centre in its lot's frame
					off[k] = s.Transform[4*k+3] - a.Transform[4*k+3]
				}
				cu := off[0]*a.Transform[0] + off[1]*a.Transform[4] + off[2]*a.Transform[8]
				cv := off[0]*a.Transform[1] + off[1]*a.Transform[5] + off[2]*a.Transform[9]
				cpu[s.Lot] = append(cpu[s.Lot], piece{s.Index, s.Siblings, ts.Term, s.Profile, s.Size[0], s.Size[1], cu, cv})
			}
			pieces := 0
			for lot, a := range axioms {
				e := p.fcut[int(a.Profile)] // slot 0
				if e.N < 0 {
					t.Fatalf("lot %d: profile %d not cut", lot, a.Profile)
				}
				var dev []piece
				for _, pc := range p.cpiece[e.Start : e.Start+e.N] {
					prof, w, h := a.Profile, a.Size[0], a.Size[1]
					if pc.Profile >= 0 {
						prof, w, h = p.hostProfile(pc.Profile), pc.W, pc.H
					}
					dev = append(dev, piece{pc.Child, e.Siblings, pc.Branch, prof, w, h, pc.CU, pc.CV})
				}
				got := cpu[int32(lot)]
				for _, l := range [][]piece{dev, got} {
					sort.Slice(l, func(i, j int) bool { return l[i].child < l[j].child })
				}
				if len(dev) != len(got) {
					t.Fatalf("lot %d: %d pieces on the device's table, %d on the CPU", lot, len(dev), len(got))
				}
				for i := range dev {
					d, c := dev[i], got[i]
					if d.child != c.child || d.siblings != c.siblings || d.branch != c.branch || d.profile != c.profile ||
						d.w != c.w || d.h != c.h || math.Abs(d.cu-c.cu) > 1e-9 || math.Abs(d.cv-c.cv) > 1e-9 {
						t.Fatalf("lot %d piece %d: device %+v, CPU %+v", lot, i, d, c)
					}
				}
				pieces += len(dev)
			}
			t.Logf("%d pieces of %d lots", pieces, len(axioms))
		})
	}
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
