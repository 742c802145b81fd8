package pga

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func collection(features ...string) []byte {
	return []byte(`{"type": "FeatureCollection", "features": [` + strings.Join(features, ",") + `]}`)
}

func polygon(id, props, coords string) string {
	return `{"type": "Feature", "id": ` + id + `, "properties": ` + props +
		`, "geometry": {"type": "Polygon", "coordinates": ` + coords + `}}`
}

func TestParseLotsErrors(t *testing.T) {
	ok := polygon(`"ok"`, `{}`, `[[[0,0],[1,0],[1,1],[0,1],[0,0]]]`)
	for _, c := range []struct {
		name, feature, want string
	}{
		{"not closed", `[[[0,0],[1,0],[1,1],[0,1]]]`, "ring not closed"},
		{"two vertices", `[[[0,0],[1,0],[0,0]]]`, "2 distinct vertices, want at least 3"},
		{"repeated vertices", `[[[0,0],[1,0],[1,0],[0,0]]]`, "2 distinct vertices"},
		{"zero area", `[[[0,0],[1,1],[2,2],[0,0]]]`, "zero area"},
		{"bow tie", `[[[0,0],[1,1],[1,0],[0,1],[0,0]]]`, "self-intersecting"},
		{"one coordinate", `[[[0],[1,0],[1,1],[0]]]`, "vertex 0 has 1 coordinates"},
		{"hole crossing", `[[[0,0],[4,0],[4,4],[0,0]],[[1,1],[2,1],[2,2],[1,1]]]`, "hole 1 (ring 1) edge 0 crosses or touches outer ring edge 2"},
		{"strings", `[[["a","b"]]]`, "polygon coordinates"},
	} {
		src := collection(ok, polygon(`"x7"`, `{}`, c.feature))
		_, err := ParseLots("l.geojson", src)
		var le *LotError
		if !errors.As(err, &le) {
			t.Errorf("%s: err %v, want a LotError", c.name, err)
			continue
		}
		if le.Index != 1 || le.ID != "x7" || !strings.Contains(err.Error(), c.want) ||
			!strings.HasPrefix(err.Error(), `l.geojson: feature 1 (id "x7"): `) {
			t.Errorf("%s: %v, want feature 1 (id \"x7\") and %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct{ name, src, want string }{
		{"not a collection", `{"type": "Feature"}`, "want a GeoJSON FeatureCollection"},
		{"empty", `{"type": "FeatureCollection", "features": []}`, "no features"},
		{"bad json", `{"type": `, "invalid GeoJSON"},
		{"point", string(collection(`{"type": "Feature", "id": 3, "geometry": {"type": "Point", "coordinates": [0,0]}}`)),
			`feature 0 (id "3"): geometry is a Point`},
		{"height", string(collection(polygon(`null`, `{"height": -2}`, `[[[0,0],[1,0],[1,1],[0,0]]]`))), "feature 0: height -2"},
		{"floors text", string(collection(polygon(`null`, `{"floors": "four"}`, `[[[0,0],[1,0],[1,1],[0,0]]]`))), `property "floors": want a number`},
	} {
		if _, err := ParseLots("l.geojson", []byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
}

func TestParseLotsProperties(t *testing.T) {
	lots, err := ParseLots("l.geojson", collection(
		polygon(`"a"`, `{"height": 30, "attr": 0.25, "name": "town hall"}`, `[[[0,0],[20,0],[20,10],[0,10],[0,0]]]`),
		// clockwise, with a collinear vertex and a repeated one
		polygon(`7`, `{"floors": 4}`, `[[[0,0],[0,10],[0,10],[10,10],[10,5],[10,0],[0,0]]]`),
	))
	if err != nil {
		t.Fatal(err)
	}
	if lots[0].Height != 30 || lots[0].Attr == nil || *lots[0].Attr != 0.25 || lots[0].ID != "a" || lots[0].Attrs["height"] != 30 {
		t.Errorf("lot 0: %+v", lots[0])
	}
	if lots[1].Height != 12 || lots[1].ID != "7" || len(lots[1].Polygon) != 5 {
		t.Errorf("lot 1: %+v", lots[1])
	}
}

func TestBoundsRotatedRectangle(t *testing.T) {
	// A 4 x 2 rectangle turned by 30 degrees about (5, 7).
	a := math.Pi / 6
	var poly [][2]float64
	for _, p := range [][2]float64{{-2, -1}, {2, -1}, {2, 1}, {-2, 1}} {
		x := p[0]*math.Cos(a) - p[1]*math.Sin(a)
		y := p[0]*math.Sin(a) + p[1]*math.Cos(a)
		poly = append(poly, [2]float64{5 + x, 7 + y})
	}
	r := Lot{Polygon: poly}.Bounds()
	if !near(r.Size[0]*r.Size[1], 8) || !near(r.Centre[0], 5) || !near(r.Centre[1], 7) {
		t.Fatalf("bounds %+v", r)
	}
	long := r.Size[0]
	if r.Size[1] > long {
		long = r.Size[1]
	}
	if !near(long, 4) {
		t.Fatalf("bounds %+v: long side %v, want 4", r, long)
	}
	// The axiom box stands on the ground over the lot: its corners lie over
	// the polygon's corners (GeoJSON y is world -Z).
	s := LotAxiom(Box, Lot{Index: 3, Polygon: poly, Height: 12}, 9, 20)
	ts := TerminalShape{Shape: s}
	m := ts.Matrix()
	if c := m.Apply(Vec3{0, -0.5, 0}); !near(c[0], 5) || !near(c[1], 0) || !near(c[2], -7) {
		t.Errorf("base centre %v, want (5, 0, -7)", c)
	}
	if !near(s.Size[1], 12) {
		t.Errorf("height %v, want 12", s.Size[1])
	}
	for _, k := range []int{0, 1, 4, 5} { // the bottom corners
		c := m.Apply(Vec3{float64(k&1) - 0.5, float64(k>>1&1) - 0.5, float64(k>>2&1) - 0.5})
		found := false
		for _, p := range poly {
			found = found || (math.Abs(c[0]-p[0]) < 1e-9 && math.Abs(-c[2]-p[1]) < 1e-9)
		}
		if !found {
			t.Errorf("bottom corner %v is not a lot corner", c)
		}
	}
	q := LotAxiom(Quad, Lot{Index: 3, Polygon: poly}, 9, 20)
	if up := q.Transform.direction(Vec3{0, 0, 1}); !near(up[1], 1) {
		t.Errorf("quad axiom's local +Z is %v, want up", up)
	}
	if q.Seed != s.Seed || s.Seed == LotAxiom(Box, Lot{Index: 4, Polygon: poly}, 9, 20).Seed {
		t.Error("lot seeds must depend on the lot index only")
	}
}

func TestGridLots(t *testing.T) {
	g := Grid{Cols: 7, Rows: 4, Seed: 3}
	lots, err := g.Lots()
	if err != nil {
		t.Fatal(err)
	}
	if len(lots) != 28 {
		t.Fatalf("%d lots", len(lots))
	}
	again, _ := g.Lots()
	g.Seed = 4
	other, _ := g.Lots()
	same, differ := true, false
	for i := range lots {
		same = same && lots[i].Polygon[0] == again[i].Polygon[0] && lots[i].Height == again[i].Height
		differ = differ || lots[i].Height != other[i].Height
		if lots[i].Index != i || lots[i].Height < 9 || lots[i].Height >= 60 {
			t.Errorf("lot %d: index %d height %v", i, lots[i].Index, lots[i].Height)
		}
	}
	if !same || !differ {
		t.Errorf("grid lots must be a function of the seed: same %v, differ %v", same, differ)
	}
	// No two footprints overlap: compare their bounding boxes.
	box := func(l Lot) (lo, hi [2]float64) {
		lo, hi = l.Polygon[0], l.Polygon[0]
		for _, p := range l.Polygon {
			lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
			hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
		}
		return lo, hi
	}
	for i := range lots {
		for j := i + 1; j < len(lots); j++ {
			a0, a1 := box(lots[i])
			b0, b1 := box(lots[j])
			if a0[0] < b1[0] && b0[0] < a1[0] && a0[1] < b1[1] && b0[1] < a1[1] {
				t.Fatalf("lots %d and %d overlap", i, j)
			}
		}
	}
	for _, bad := range []Grid{{Cols: 0, Rows: 3}, {Cols: 3, Rows: -1}, {Cols: MaxGridLots, Rows: 2}} {
		if _, err := bad.Lots(); err == nil {
			t.Errorf("grid %dx%d: no error", bad.Cols, bad.Rows)
		}
	}
}

func FuzzParseLots(f *testing.F) {
	f.Add([]byte(collection(polygon(`"a"`, `{"height": 3}`, `[[[0,0],[1,0],[1,1],[0,0]]]`))))
	f.Add([]byte(`{"type": "FeatureCollection", "features": [{"type": "Feature"}]}`))
	f.Add([]byte(collection(multiPolygon(`"m"`, `{"floors": 2}`,
		`[[[[0,0],[1,0],[1,1],[0,0]]],[[[2,0],[4,0],[4,2],[2,2],[2,0]],[[2.5,0.5],[2.5,1],[3,1],[2.5,0.5]]]]`))))
	lot := polygon(`1`, `{}`, `[[[13.4,52.5],[13.4002,52.5],[13.4002,52.5001],[13.4,52.5]]]`)
	for _, crs := range []string{`null`, `{"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::32633"}}`,
		`{"type": "name", "properties": {"name": "EPSG:3857"}}`, `{"type": "EPSG", "properties": {"code": 4326}}`,
		`{"type": "link", "properties": {"href": "x.prj"}}`, `{"type": "name", "properties": {"name": "EPSG:32760"}}`} {
		f.Add([]byte(`{"type": "FeatureCollection", "crs": ` + crs + `, "features": [` + lot + `]}`))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		lf, err := ParseLotsFile("f.geojson", src)
		if err != nil {
			return
		}
		lots := lf.Lots
		for _, o := range []PlaceOptions{{}, {LotsCRS: "EPSG:4326"}} {
			// Placing may refuse the lots, but must not crash; placed lots
			// have finite coordinates.
			cp := make([]Lot, len(lots))
			for i, l := range lots {
				cp[i] = l
				cp[i].Polygon = append([][2]float64(nil), l.Polygon...)
			}
			if _, _, err := PlaceLots("f.geojson", &LotsFile{Lots: cp, CRS: lf.CRS}, o); err == nil {
				for _, l := range cp {
					for _, p := range l.Polygon {
						if math.IsNaN(p[0]) || math.IsNaN(p[1]) || math.IsInf(p[0], 0) || math.IsInf(p[1], 0) {
							t.Fatalf("placed %s: %v", l.Name(), p)
						}
					}
				}
			}
		}
		for _, l := range lots {
			if r := l.Bounds(); !(r.Size[0] >= 0) || !(r.Size[1] >= 0) {
				t.Fatalf("lot %d: bounds %+v", l.Index, r)
			}
		}
	})
}

// Every grid lot faces its street: a Box lot's +Z (a Quad lot's -Y) points
// towards the street in front of its row.
func TestGridLotsFaceTheStreet(t *testing.T) {
	lots, err := Grid{Cols: 4, Rows: 4, Seed: 3}.Lots()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lots {
		row := l.Index / 4
		want := 1.0 // world +Z is GeoJSON -y: even rows face the street below
		if row%2 == 1 {
			want = -1
		}
		b := LotAxiom(Box, l, 1, 10)
		if f := b.Transform.direction(Vec3{0, 0, 1}); !near(f[2], want) {
			t.Errorf("lot %d (row %d): Box front %v, want z %v", l.Index, row, f, want)
		}
		q := LotAxiom(Quad, l, 1, 10)
		if f := q.Transform.direction(Vec3{0, -1, 0}); !near(f[2], want) {
			t.Errorf("lot %d (row %d): Quad front %v, want z %v", l.Index, row, f, want)
		}
	}
}

// OpenStreetMap's tags are strings: numbers among them are attributes
// (a height with its metre unit too), building:levels gives the floors
// and the height a lot has none of, and LotAttr reads any key by a
// quoted name.
func TestParseLotsOSMTags(t *testing.T) {
	sq := `[[[0,0],[10,0],[10,10],[0,10],[0,0]]]`
	lots, err := ParseLots("osm.geojson", collection(
		polygon(`"w1"`, `{"building": "yes", "building:levels": "3", "name": "Dorp Street 12", "name:af": "Nan"}`, sq),
		polygon(`"w2"`, `{"building:levels": "4", "height": "14.5 m"}`, sq),
		polygon(`"w3"`, `{"floors": 2, "building:levels": "5"}`, sq),
		polygon(`"w4"`, `{"building:levels": "0", "roof:levels": null}`, sq),
	))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ floors, height float64 }{{3, 9}, {4, 14.5}, {2, 6}, {0, 0}} {
		if got := lots[i].Attrs["floors"]; got != want.floors || lots[i].Height != want.height {
			t.Errorf("lot %d: floors %v height %v, want %v and %v (%v)", i, got, lots[i].Height, want.floors, want.height, lots[i].Attrs)
		}
	}
	if _, err := ParseLots("osm.geojson", collection(polygon(`"w5"`, `{"height": "about 10"}`, sq))); err == nil ||
		!strings.Contains(err.Error(), `"height"`) {
		t.Errorf("a height that is no number: %v", err)
	}
	g, err := Parse("osm.pga", []byte("axiom Quad Lot;\nterminal M (1, 0);\nLot = Extrude(3 * LotAttr(\"building:levels\", 1)) M;"))
	if err != nil {
		t.Fatal(err)
	}
	axioms, err := g.LotAxioms(Quad, lots, 1, 9)
	if err != nil {
		t.Fatal(err)
	}
	ts, _, err := g.evaluateTerms(axioms, Options{Workers: 1, LotAttrs: LotAttrValues(lots)})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{9, 12, 15, 0} {
		if h := ts[i].Shape.Size[1]; h != want {
			t.Errorf("lot %d: extruded %v, want %v", i, h, want)
		}
	}
	if s := g.Rules["Lot"].Body.Ops[0].Args[0].Expr.String(); !strings.Contains(s, `LotAttr("building:levels", 1)`) {
		t.Errorf("printed %s", s)
	}
}
