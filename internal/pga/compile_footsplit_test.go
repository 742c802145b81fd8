package pga

import "testing"

// The faces the host lays out for the device's CompSplit of a roof read
// back as the roof's: one record per part, in order, with the part's
// outer ring, its side, and a device profile whose grammar profile is
// the one faceProfiles gives the part (the device's children carry it);
// the underside's profile is the footprint's mirror.
func TestRoofFacesLaidOut(t *testing.T) {
	cases := map[string]func() (*Grammar, []Shape){
		"roof faces": func() (*Grammar, []Shape) {
			for _, c := range footprintGrammars {
				if c.name == "roof faces" {
					return footprintCase(t, c.name, c.src, c.kind, polygonLots(60, 3))
				}
			}
			t.Fatal("no grammar \"roof faces\" in footprintGrammars")
			return nil, nil
		},
		"gables.pga on wings": func() (*Grammar, []Shape) {
			g, axioms, _ := configCase(t, "gables.pga", "wings.geojson")
			return g, axioms
		},
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			g, _ := build()
			p, err := compileGrammar(g)
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for k := 1; k < len(p.profiles); k++ {
				if p.profiles[k].Roofs < 0 {
					continue
				}
				f := p.footAt(g, int32(k))
				for kind := Gable; kind <= Pyramid; kind++ {
					e := p.froof[int(p.profiles[k].Roofs)+int(kind)-1]
					if e.NAt < 0 {
						continue
					}
					if e.NPart < 0 {
						t.Fatalf("profile %d: a %s roof without its faces", k, kind)
					}
					r, err := footprintRoof(f.fp, kind, f.size[0], f.size[1])
					if err != nil {
						t.Fatal(err)
					}
					want, err := g.faceProfiles(r)
					if err != nil {
						t.Fatal(err)
					}
					if int(e.NPart) != len(r.parts) {
						t.Fatalf("profile %d %s: %d parts laid out, the roof has %d", k, kind, e.NPart, len(r.parts))
					}
					if got := p.hostProfile(e.Under); got != mustDyn(t, g, mirrorRings(f.fp.rings)) {
						t.Fatalf("profile %d %s: underside on %d", k, kind, got)
					}
					for i, part := range r.parts {
						at, end := p.poly[e.Part+int32(i)], p.poly[e.Part+int32(i)+1]
						rec := p.poly[at:end]
						if len(rec) != 2+len(part.rings[0]) {
							t.Fatalf("profile %d %s part %d: record %v for ring %v", k, kind, i, rec, part.rings[0])
						}
						if rec[0] < 0 != (want[i].prof == 0) || rec[0] >= 0 && p.hostProfile(rec[0]) != want[i].prof {
							t.Fatalf("profile %d %s part %d: device profile %d, want the grammar's %d", k, kind, i, rec[0], want[i].prof)
						}
						if (rec[1] == 1) != part.side {
							t.Fatalf("profile %d %s part %d: side %d", k, kind, i, rec[1])
						}
						for j, c := range part.rings[0] {
							if rec[2+j] != int32(c) {
								t.Fatalf("profile %d %s part %d: corners %v, want %v", k, kind, i, rec[2:], part.rings[0])
							}
						}
						checked++
					}
				}
			}
			if checked == 0 {
				t.Fatal("no roof faces laid out")
			}
			t.Logf("%d faces", checked)
		})
	}
}

func mustDyn(t *testing.T, g *Grammar, rings [][][2]float64) int32 {
	t.Helper()
	id, err := g.dyn.add(rings)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
