package pga

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The slabs the host cuts for the device are the CPU's: for every lot, the
// parts a SubDiv or a Repeat across its polygon gives on the CPU (along X
// and Y of a Quad, along X and Z of a prism, by constants and by the
// lot's attributes, in Repeat's modes), part by part (child number, siblings, branch, part, seed,
// footprint, size and place), are the device table's, and their
// footprints map back to the CPU's profile numbers.
func TestFootprintSlabTables(t *testing.T) {
	for _, c := range []struct {
		name, rule string
		kind       ShapeKind
	}{
		{"quad along X", "Lot = SubDiv(X) { 6: A | -1: B | 5: C };", Quad},
		{"quad along Y", "Lot = SubDiv(Y) { -1: A | 7: B | -2: C };", Quad},
		{"prism along Z", "Lot = SubDiv(Z) { 5: A | -1: B };", Box},
		{"prism along X, a branch of size 0", "Lot = SubDiv(X) { 10: A | 0: B | 3: C | -1: D };", Box},
		{"by attributes", "Lot = SubDiv(X) { LotAttr(floors, 1) * 3: A | -1: B | LotAttr(none, 4): C };", Quad},
		// Repeat's tiles go on down the chain (branch -1).
		{"tiles along X", "Lot = Repeat(X, 4) A;", Quad},
		{"tiles along Y, anchored to the start", "Lot = Repeat(Y, 5, ANCHOR_TO_START) A;", Quad},
		{"prism tiles along Z by attributes, anchored to the end", "Lot = Repeat(Z, LotAttr(floors, 2) * 2, ANCHOR_TO_END) A;", Box},
		{"tiles a quarter of the extent", "Lot = Repeat(X, -0.25) A;", Quad},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "axiom " + c.kind.String() + " Lot;\nterminal A (1, 0);\nterminal B (2, 1);\nterminal C (3, 2);\nterminal D (4, 3);\n" + c.rule
			g, _ := footprintGrammar(t, src, c.kind)
			lots := polygonLots(24, 9)
			axioms, err := g.LotAxioms(c.kind, lots, 5, 9)
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
			if c.kind == Box {
				v = 2
			}
			type piece struct {
				child, siblings, branch int32
				seed                    uint64
				profile                 int32
				w, h, cu, cv            float64
			}
			cpu := map[int32][]piece{} // by lot
			for _, ts := range ts {
				s := ts.Shape
				a := axioms[s.Lot]
				var off Vec3
				for k := range 3 {
					off[k] = s.Transform[4*k+3] - a.Transform[4*k+3]
				}
				cu := off[0]*a.Transform[0] + off[1]*a.Transform[4] + off[2]*a.Transform[8]
				cv := off[0]*a.Transform[v] + off[1]*a.Transform[4+v] + off[2]*a.Transform[8+v]
				if v == 2 {
					cv = -cv
				}
				branch := int32(g.TermNames[ts.Term][0] - 'A')
				if strings.Contains(c.rule, "Repeat") {
					branch = -1
				}
				cpu[s.Lot] = append(cpu[s.Lot], piece{s.Index, s.Siblings, branch, s.Seed, s.Profile, s.Size[0], s.Size[v], cu, cv})
			}
			pieces, parts := 0, 0
			for lot, a := range axioms {
				e := p.fcut[int(a.Profile)] // slot 0
				if e.N < 0 {
					t.Fatalf("lot %d: profile %d not cut", lot, a.Profile)
				}
				var dev []piece
				for _, pc := range p.cpiece[e.Start : e.Start+e.N] {
					seed := rng.Key(a.Seed, uint64(pc.Child))
					if pc.Part > 0 {
						seed = rng.Key(seed, partStream, uint64(pc.Part))
						parts++
					}
					dev = append(dev, piece{pc.Child, e.Siblings, pc.Branch, seed, p.hostProfile(pc.Profile), pc.W, pc.H, pc.CU, pc.CV})
				}
				got := cpu[int32(lot)]
				for _, l := range [][]piece{dev, got} {
					slices.SortFunc(l, func(x, y piece) int {
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
			if parts == 0 {
				t.Error("no slab fell apart into parts: the test does not reach the parts' seeds")
			}
			t.Logf("%d pieces (%d second or later parts) of %d lots", pieces, parts, len(axioms))
		})
	}
}
