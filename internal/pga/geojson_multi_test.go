package pga

import (
	"strings"
	"testing"
)

func multiPolygon(id, props, coords string) string {
	return `{"type": "Feature", "id": ` + id + `, "properties": ` + props +
		`, "geometry": {"type": "MultiPolygon", "coordinates": ` + coords + `}}`
}

// A MultiPolygon feature gives a lot per part, holes kept, each with the
// feature's properties and the id "id#k"; the lots after it are numbered
// on from its parts.
func TestParseLotsMultiPolygon(t *testing.T) {
	sq := `[[[0,0],[10,0],[10,10],[0,10],[0,0]]]`
	court := `[[[20,0],[40,0],[40,20],[20,20],[20,0]],[[25,5],[25,15],[35,15],[35,5],[25,5]]]`
	lots, err := ParseLots("m.geojson", collection(
		multiPolygon(`"block"`, `{"floors": 4}`, "["+sq+","+court+"]"),
		polygon(`"next"`, `{}`, sq)))
	if err != nil {
		t.Fatal(err)
	}
	if len(lots) != 3 {
		t.Fatalf("%d lots, want 3", len(lots))
	}
	for i, want := range []struct {
		id    string
		holes int
		h     float64
	}{{"block#1", 0, 12}, {"block#2", 1, 12}, {"next", 0, 0}} {
		l := lots[i]
		if l.Index != i || l.ID != want.id || len(l.Holes) != want.holes || l.Height != want.h {
			t.Errorf("lot %d: index %d id %q, %d holes, height %g; want %q, %d, %g", i, l.Index, l.ID, len(l.Holes), l.Height, want.id, want.holes, want.h)
		}
	}
	bad := `[[[0,0],[10,0],[0,10],[10,10],[0,0]]]` // a bow tie
	_, err = ParseLots("m.geojson", collection(polygon(`"a"`, `{}`, sq), multiPolygon(`"b"`, `{}`, "["+sq+","+bad+"]")))
	if err == nil || !strings.Contains(err.Error(), `feature 1 (id "b"): part 2: `) {
		t.Errorf("a self-intersecting part: %v, want it named as feature 1's part 2", err)
	}
	for _, c := range []struct{ coords, want string }{
		{`[]`, "multipolygon has no polygon"},
		{`[[]]`, "part 1: polygon has no ring"},
		{`[[[0,0]]]`, "multipolygon coordinates"},
	} {
		_, err := ParseLots("m.geojson", collection(multiPolygon(`"c"`, `{}`, c.coords)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.coords, err, c.want)
		}
	}
}
