package pga

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/geo"
	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// squareLonLat is a side x side metre square on WGS 84 with its south-west
// corner at lon, lat, from the ellipsoid's radii of curvature there (over
// 15 m the error of this is (15 m / 6400 km)^2 relative): the textbook's
// ground metres, independent of any projection.
func squareLonLat(lon, lat, side float64) string {
	a, f := 6378137.0, 1/298.257223563
	e2 := f * (2 - f)
	s := math.Sin(lat * math.Pi / 180)
	w := math.Sqrt(1 - e2*s*s)
	m, n := a*(1-e2)/(w*w*w), a/w
	dlat := side / m * 180 / math.Pi
	dlon := side / (n * math.Cos(lat*math.Pi/180)) * 180 / math.Pi
	return fmt.Sprintf("[[[%.10f,%.10f],[%.10f,%.10f],[%.10f,%.10f],[%.10f,%.10f],[%.10f,%.10f]]]",
		lon, lat, lon+dlon, lat, lon+dlon, lat+dlat, lon, lat+dlat, lon, lat)
}

// buildLots parses src, places it and builds one terminal box per lot.
func buildLots(t *testing.T, src []byte, o PlaceOptions) (*geo.Georef, *mesh.Mesh) {
	t.Helper()
	lf, err := ParseLotsFile("l.geojson", src)
	if err != nil {
		t.Fatal(err)
	}
	gr, _, err := PlaceLots("l.geojson", lf, o)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse("box.pga", []byte("axiom Box Lot;\nterminal T (1, 0);\nLot = T;\n"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := g.Evaluate(LotAxioms(Box, lf.Lots, 1, 9), Options{Axiom: "Lot"})
	if err != nil {
		t.Fatal(err)
	}
	m := g.Mesh(ts, nil)
	m.Extras = gr
	return gr, m
}

// The done-when: a 15 m lot given in longitude/latitude builds a
// 15 m building within 1 cm, and the GLB's asset extras say where it is.
func TestLonLatLotBuilds15m(t *testing.T) {
	// Milan, on zone 32's central meridian (9° E): the footprint is axis
	// aligned, so the GLB's position bounds measure it.
	src := collection(polygon(`"m"`, `{"height": 9}`, squareLonLat(9.0001, 45.4642, 15)))
	gr, m := buildLots(t, src, PlaceOptions{LotsCRS: "auto", CRS: "auto"})
	if gr == nil || gr.CRS.EPSG != 32632 || gr.CRS.Name != "WGS 84 / UTM zone 32N" || gr.SourceCRS == nil || gr.SourceCRS.EPSG != 4326 {
		t.Fatalf("georef %+v", gr)
	}
	if math.Abs(gr.Origin.Lon-9.0002) > 1e-4 || math.Abs(gr.Origin.Lat-45.4643) > 1e-4 {
		t.Errorf("origin %+v is not at the lot", gr.Origin)
	}
	var buf bytes.Buffer
	if err := mesh.EncodeGLB(context.Background(), &buf, m, mesh.Options{}); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	jsonLen := int(binary.LittleEndian.Uint32(b[12:]))
	var doc struct {
		Asset struct {
			Extras geo.Georef `json:"extras"`
		} `json:"asset"`
		Accessors []struct{ Min, Max []float64 }
	}
	if err := json.Unmarshal(b[20:20+jsonLen], &doc); err != nil {
		t.Fatal(err)
	}
	if x := doc.Asset.Extras; x.CRS.EPSG != 32632 || x.Origin.Easting != gr.Origin.Easting || x.Origin.Northing != gr.Origin.Northing ||
		x.Origin.Lon != gr.Origin.Lon || x.Axes == "" {
		t.Errorf("GLB asset extras %+v, want %+v", x, *gr)
	}
	pos := doc.Accessors[0] // the only mesh's POSITION comes first
	dx, dy, dz := pos.Max[0]-pos.Min[0], pos.Max[1]-pos.Min[1], pos.Max[2]-pos.Min[2]
	t.Logf("footprint %.4f x %.4f m, height %.3f m", dx, dz, dy)
	if math.Abs(dx-15) > 0.01 || math.Abs(dz-15) > 0.01 || math.Abs(dy-9) > 1e-4 {
		t.Errorf("building %.4f x %.4f x %.4f m, want 15 x 15 (within 1 cm) x 9", dx, dz, dy)
	}
	// Vertices stay near the origin, where float32 keeps millimetres.
	for i := range 3 {
		if math.Abs(pos.Min[i]) > 20 || math.Abs(pos.Max[i]) > 20 {
			t.Errorf("bounds %v %v far from the origin", pos.Min, pos.Max)
		}
	}
	validateGLB(t, b)
}

// Off the central meridian (2.9° east, Tokyo's latitude south), the
// footprint turns by the convergence; its sides still measure 15 m.
func TestLonLatLotOffMeridian(t *testing.T) {
	for _, c := range []struct {
		lon, lat float64
		epsg     int
	}{{11.9, 48.1, 32632}, {140.9, -35.6, 32754}, {-122.4194, 37.7749, 32610}} {
		src := collection(polygon(`1`, `{}`, squareLonLat(c.lon, c.lat, 15)))
		gr, m := buildLots(t, src, PlaceOptions{})
		if gr.CRS.EPSG != c.epsg {
			t.Errorf("%g, %g: %v, want EPSG:%d", c.lon, c.lat, gr.CRS, c.epsg)
		}
		var ch mesh.Chunk
		m.Parts[0].Build(0, 1, &ch)
		var base [][3]float32
		for _, p := range ch.Positions {
			if math.Abs(float64(p[1])) < 1e-4 {
				base = append(base, p)
			}
		}
		if len(base) != 4 {
			t.Fatalf("%d base corners", len(base))
		}
		for i, p := range base {
			for _, q := range base[i+1:] {
				d := math.Hypot(float64(p[0]-q[0]), float64(p[2]-q[2]))
				if math.Abs(d-15) > 0.01 && math.Abs(d-15*math.Sqrt2) > 0.015 {
					t.Errorf("%g, %g: corners %.4f m apart, want 15 (or the diagonal)", c.lon, c.lat, d)
				}
			}
		}
	}
}

func validateGLB(t *testing.T, glb []byte) { meshtest.ValidateGLB(t, glb, true) }

func withCRS(crs string, features ...string) []byte {
	return []byte(`{"type": "FeatureCollection", "crs": ` + crs + `, "features": [` + strings.Join(features, ",") + `]}`)
}

// What each declaration of the CRS gives: the frame, a warning, or an
// error naming the member's position or the feature.
func TestPlaceLots(t *testing.T) {
	deg := polygon(`"d"`, `{}`, squareLonLat(13.4, 52.5, 15))
	metres := polygon(`"m"`, `{}`, `[[[0,0],[20,0],[20,20],[0,20],[0,0]]]`)
	utm := polygon(`"u"`, `{}`, `[[[391000,5817000],[391015,5817000],[391015,5817015],[391000,5817015],[391000,5817000]]]`)
	// EPSG:3857 of the same 15 m at 52.5° N: 1/cos(52.5°) = 1.643 times longer.
	web := polygon(`"w"`, `{}`, `[[[1491000,6890000],[1491024.64,6890000],[1491024.64,6890024.64],[1491000,6890024.64],[1491000,6890000]]]`)
	named := func(n string) string { return `{"type": "name", "properties": {"name": "` + n + `"}}` }
	for _, c := range []struct {
		name string
		src  []byte
		o    PlaceOptions
		epsg int    // 0: local
		warn string // "" none
		err  string
		side float64
	}{
		{name: "lon/lat", src: collection(deg), epsg: 32633, side: 15},
		{name: "CRS84", src: withCRS(named("urn:ogc:def:crs:OGC:1.3:CRS84"), deg), epsg: 32633, side: 15},
		{name: "forced zone", src: collection(deg), o: PlaceOptions{CRS: "EPSG:32632"}, epsg: 32632, side: 15},
		{name: "metres, no member", src: collection(metres), warn: "has no crs member", side: 20},
		{name: "local", src: collection(metres), o: PlaceOptions{LotsCRS: "local"}, side: 20},
		{name: "null member", src: withCRS(`null`, metres), side: 20},
		{name: "UTM member", src: withCRS(named("urn:ogc:def:crs:EPSG::32633"), utm), epsg: 32633, side: 15},
		{name: "draft EPSG member", src: withCRS(`{"type": "EPSG", "properties": {"code": 32633}}`, utm), epsg: 32633, side: 15},
		// Web Mercator is not conformal on the ellipsoid: its 24.64 m squares
		// are not square on the ground (GDAL agrees), so no side is checked.
		{name: "web mercator", src: withCRS(named("EPSG:3857"), web), epsg: 32633},
		{name: "degrees declared metres", src: withCRS(named("EPSG:32633"), deg), epsg: 32633, warn: "look like longitude/latitude degrees"},
		{name: "degrees declared local", src: collection(deg), o: PlaceOptions{LotsCRS: "local"}, warn: "declared local metres"},
		{name: "unsupported", src: withCRS(named("EPSG:2154"), metres), err: "l.geojson:1:38: crs member: EPSG:2154 is not supported"},
		{name: "link", src: withCRS(`{"type": "link", "properties": {"href": "a.prj"}}`, metres), err: `l.geojson:1:38: crs member of type "link"`},
		{name: "no name", src: withCRS(`{"type": "name", "properties": {}}`, metres), err: "names no CRS"},
		{name: "bad member", src: withCRS(`[1]`, metres), err: "l.geojson:1:38: crs member: want"},
		{name: "override unsupported member", src: withCRS(named("EPSG:2154"), metres), o: PlaceOptions{LotsCRS: "local"}, side: 20},
		{name: "crs on local", src: collection(metres), o: PlaceOptions{LotsCRS: "local", CRS: "EPSG:32633"}, err: "needs lots with a CRS"},
		{name: "datums", src: withCRS(named("EPSG:25833"), utm), o: PlaceOptions{CRS: "EPSG:32633"}, err: "ETRS89 and WGS 84 datums"},
		{name: "ETRS89 kept", src: withCRS(named("EPSG:25833"), utm), epsg: 25833, side: 15},
		{name: "far from meridian", src: collection(deg), o: PlaceOptions{CRS: "EPSG:32620"}, err: `feature 0 (id "d"): vertex 0 at longitude 13.400000 is 76.4° from EPSG:32620`},
		{name: "polar", src: collection(polygon(`1`, `{}`, squareLonLat(10, 85, 15))), err: "outside UTM's 80°S to 84°N"},
		{name: "lat 90 declared", src: withCRS(named("EPSG:4326"), polygon(`1`, `{}`, `[[[0,89.99],[1,89.99],[1,90],[0,89.99]]]`)), o: PlaceOptions{CRS: "EPSG:32631"}, err: "latitude 90 is not on the globe"},
	} {
		lf, err := ParseLotsFile("l.geojson", c.src)
		if err != nil {
			if c.err == "" || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: parse: %v", c.name, err)
			}
			continue
		}
		gr, warns, err := PlaceLots("l.geojson", lf, c.o)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if (gr == nil) != (c.epsg == 0) || gr != nil && gr.CRS.EPSG != c.epsg {
			t.Errorf("%s: georef %+v, want EPSG %d", c.name, gr, c.epsg)
		}
		if got := strings.Join(warns, "\n"); c.warn == "" && got != "" || !strings.Contains(got, c.warn) {
			t.Errorf("%s: warnings %q, want %q", c.name, got, c.warn)
		}
		if c.side > 0 {
			// Lots in degrees become grid metres: ground metres times the
			// scale factor (0.9996 on a zone's meridian, 1.0007 4.4° off).
			want := c.side
			if gr != nil && gr.SourceCRS != nil {
				want *= gr.Origin.ScaleFactor
			}
			if s := lf.Lots[0].Bounds().Size; math.Abs(s[0]-want) > 1e-3 || math.Abs(s[1]-want) > 1e-3 {
				t.Errorf("%s: lot %v m wide, want %g", c.name, s, want)
			}
		}
	}
}
