package geo

import (
	"bytes"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// refPoints are UTM coordinates of landmarks as PROJ computes them (GDAL
// 3.6.2: echo LON LAT | gdaltransform -s_srs EPSG:4326 -t_srs EPSG:326zz
// -output_xy). PROJ's transverse Mercator is an independent implementation
// (Poder/Engsager), accurate to well under a millimetre in a zone.
var refPoints = []struct {
	lon, lat float64
	epsg     int
	e, n     float64
}{
	{15, 52, 32633, 500000, 5761038.21259042},                     // on the central meridian
	{13.4050, 52.5200, 32633, 391779.25925275, 5820072.15921103},  // Berlin
	{-74.0445, 40.6892, 32618, 580735.87070326, 4504695.16521893}, // New York harbour
	{151.2153, -33.8568, 32756, 334900.569652264, 6252288.75288829},
	{2.2945, 48.8584, 32631, 448252.001375365, 5411954.90994727},
	{17.9, 0.5, 32633, 822823.962553249, 55336.3775656807}, // 2.9° off the meridian on the equator
	{12.01, -79.9, 32733, 441488.077185196, 1128072.24274564},
}

func TestUTMReferencePoints(t *testing.T) {
	for _, p := range refPoints {
		c := UTMOf(p.lon, p.lat)
		if c.EPSG != p.epsg {
			t.Errorf("%g, %g: zone %v, want EPSG:%d", p.lon, p.lat, c, p.epsg)
			continue
		}
		e, n := c.Projector()(p.lon, p.lat)
		if math.Abs(e-p.e) > 1e-4 || math.Abs(n-p.n) > 1e-4 {
			t.Errorf("%v %g, %g: %.6f %.6f, want %.6f %.6f", c, p.lon, p.lat, e, n, p.e, p.n)
		}
	}
}

// The northing of the pole on the central meridian is k0 times the
// quarter meridian of WGS 84, 10,001,965.7293 m (a textbook value).
func TestQuarterMeridian(t *testing.T) {
	_, n := NewUTM(WGS84, 33, false).Forward(15, 90)
	if want := 0.9996 * 10_001_965.7293; math.Abs(n-want) > 1e-3 {
		t.Errorf("pole northing %.4f, want %.4f", n, want)
	}
}

// Points across each zone (and 3° beyond it) come back from Inverse to
// 1e-9 degrees, and mirror in the central meridian.
func TestUTMRoundTrip(t *testing.T) {
	worst := 0.0
	for i := uint64(0); i < 20000; i++ {
		u := func(s uint64) float64 { return rng.Float64(rng.Key(i, s)) }
		zone := 1 + int(u(0)*60)
		lat := -80 + 164*u(1)
		lon := float64(zone)*6 - 183 + (u(2)-0.5)*12
		for _, el := range []Ellipsoid{WGS84, GRS80} {
			tm := NewUTM(el, zone, lat < 0)
			e, n := tm.Forward(lon, lat)
			lo, la := tm.Inverse(e, n)
			d := math.Max(math.Abs(normLon(lo-lon)), math.Abs(la-lat))
			worst = math.Max(worst, d)
			if d > 1e-9 {
				t.Fatalf("zone %d %g, %g -> %.4f, %.4f -> %.12f, %.12f", zone, lon, lat, e, n, lo, la)
			}
			em, nm := tm.Forward(2*(float64(zone)*6-183)-lon, lat)
			if math.Abs(em-(1_000_000-e)) > 1e-6 || math.Abs(nm-n) > 1e-6 {
				t.Fatalf("zone %d %g, %g: not symmetric about the meridian", zone, lon, lat)
			}
		}
	}
	t.Logf("worst round trip %.3g degrees", worst)
}

// The same points through GDAL, when gdaltransform is installed (Debian's
// gdal-bin): UTM and Web Mercator agree to a tenth of a millimetre.
func TestAgainstGDAL(t *testing.T) {
	exe, err := exec.LookPath("gdaltransform")
	if err != nil {
		t.Skip("gdaltransform not installed (Debian: gdal-bin): skipped")
	}
	type pt struct{ lon, lat float64 }
	var pts []pt
	for i := uint64(0); i < 200; i++ {
		pts = append(pts, pt{9 + 12*rng.Float64(rng.Key(i, 1)), -79 + 162*rng.Float64(rng.Key(i, 2))})
	}
	for _, c := range []CRS{UTMOf(15, 1), UTMOf(15, -1), {EPSG: 3857, Kind: WebMercator}} {
		var in bytes.Buffer
		for _, p := range pts {
			fmt.Fprintf(&in, "%.12f %.12f\n", p.lon, p.lat)
		}
		cmd := exec.Command(exe, "-s_srs", "EPSG:4326", "-t_srs", c.String(), "-output_xy")
		cmd.Stdin = &in
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("gdaltransform %v: %v", c, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != len(pts) {
			t.Fatalf("gdaltransform %v: %d lines for %d points", c, len(lines), len(pts))
		}
		proj := c.Projector()
		for i, p := range pts {
			var ge, gn float64
			if _, err := fmt.Sscan(lines[i], &ge, &gn); err != nil {
				t.Fatalf("gdaltransform line %q: %v", lines[i], err)
			}
			e, n := proj(p.lon, p.lat)
			if math.Abs(e-ge) > 1e-4 || math.Abs(n-gn) > 1e-4 {
				t.Errorf("%v %.9f, %.9f: %.5f %.5f, GDAL %.5f %.5f", c, p.lon, p.lat, e, n, ge, gn)
			}
			lo, la := c.ToLonLat(e, n)
			if math.Abs(lo-p.lon) > 1e-9 || math.Abs(la-p.lat) > 1e-9 {
				t.Errorf("%v %.9f, %.9f: back to %.12f, %.12f", c, p.lon, p.lat, lo, la)
			}
		}
	}
}

func TestParseCRS(t *testing.T) {
	for _, c := range []struct {
		name string
		epsg int
		kind Kind
		want string
	}{
		{"EPSG:32633", 32633, UTM, "WGS 84 / UTM zone 33N"},
		{"urn:ogc:def:crs:EPSG::32718", 32718, UTM, "WGS 84 / UTM zone 18S"},
		{"urn:ogc:def:crs:EPSG:6.6:4326", 4326, Geographic, "WGS 84"},
		{"urn:ogc:def:crs:OGC:1.3:CRS84", 4326, Geographic, "WGS 84"},
		{"http://www.opengis.net/def/crs/EPSG/0/3857", 3857, WebMercator, "WGS 84 / Pseudo-Mercator"},
		{"EPSG:900913", 3857, WebMercator, "WGS 84 / Pseudo-Mercator"},
		{"epsg:25832", 25832, UTM, "ETRS89 / UTM zone 32N"},
		{"32760", 32760, UTM, "WGS 84 / UTM zone 60S"},
	} {
		got, err := ParseCRS(c.name)
		if err != nil || got.EPSG != c.epsg || got.Kind != c.kind || got.Name != c.want {
			t.Errorf("%q: %+v, %v; want EPSG:%d %q", c.name, got, err, c.epsg, c.want)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"EPSG:2154", "EPSG:2154 is not supported"},
		{"EPSG:32661", "EPSG:32661 is not supported"},
		{"EPSG:32600", "not supported"},
		{"local", `unknown CRS "local"`},
		{"", "unknown CRS"},
		{"EPSG:-3", "unknown CRS"},
	} {
		if _, err := ParseCRS(c.name); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestUTMZone(t *testing.T) {
	for _, c := range []struct {
		lon  float64
		zone int
	}{{-180, 1}, {-174.0001, 1}, {-174, 2}, {0, 31}, {-0.0001, 30}, {179.999, 60}, {180, 1}, {183, 1}, {-183, 60}} {
		if z := UTMZone(c.lon); z != c.zone {
			t.Errorf("lon %g: zone %d, want %d", c.lon, z, c.zone)
		}
	}
}
