package pga

import (
	"fmt"
	"strings"
	"testing"
)

// lotsGeoJSON is n polygon lots (polygonLots: L, courtyard, U and
// trapezoid shapes) as a GeoJSON FeatureCollection with a few properties
// each, as a cadastre export carries them.
func lotsGeoJSON(n int) []byte {
	var features []string
	for i, l := range polygonLots(n, 7) {
		rings := append([][][2]float64{l.Polygon}, l.Holes...)
		var rs []string
		for _, r := range rings {
			pts := make([]string, 0, len(r)+1)
			for _, p := range append(r, r[0]) {
				pts = append(pts, fmt.Sprintf("[%.3f,%.3f]", p[0], p[1]))
			}
			rs = append(rs, "["+strings.Join(pts, ",")+"]")
		}
		props := fmt.Sprintf(`{"floors": %d, "name": "parcel %d", "landuse": "residential"}`, 2+i%4, i)
		features = append(features, polygon(fmt.Sprintf(`"p%d"`, i), props, "["+strings.Join(rs, ",")+"]"))
	}
	return collection(features...)
}

// BenchmarkParseLotsFile reads 2,500 polygon lots (the size of bench-e2e's
// "pga polygons" row).
func BenchmarkParseLotsFile(b *testing.B) {
	src := lotsGeoJSON(2500)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		lf, err := ParseLotsFile("lots.geojson", src)
		if err != nil || len(lf.Lots) != 2500 {
			b.Fatal(len(lf.Lots), err)
		}
	}
}

// With features checked on every core, the error still names the first
// bad feature of the file, however many there are.
func TestParseLotsFirstBadFeature(t *testing.T) {
	ok := polygon(`"ok"`, `{}`, `[[[0,0],[1,0],[1,1],[0,1],[0,0]]]`)
	bad := polygon(`"bad"`, `{"height": -1}`, `[[[0,0],[1,0],[1,1],[0,1],[0,0]]]`)
	features := make([]string, 500)
	for i := range features {
		features[i] = ok
		if i%7 == 3 {
			features[i] = bad
		}
	}
	_, err := ParseLots("f.geojson", collection(features...))
	if err == nil || !strings.Contains(err.Error(), "feature 3 ") {
		t.Fatalf("error %v, want it to name feature 3", err)
	}
}
