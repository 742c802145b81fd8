package geo

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is how a CRS's coordinates relate to the ground.
type Kind uint8

const (
	// Geographic: longitude and latitude in degrees, longitude first (as
	// GeoJSON and GIS tools order them, whatever EPSG:4326's own axis
	// order says).
	Geographic Kind = iota + 1
	// UTM: easting and northing in metres of a transverse Mercator zone.
	UTM
	// WebMercator: EPSG:3857, metres on a sphere that are 1/cos(latitude)
	// times ground metres.
	WebMercator
)

// CRS is a coordinate reference system procgen can project from or to.
type CRS struct {
	EPSG  int
	Name  string // EPSG's name, e.g. "WGS 84 / UTM zone 33N"
	Kind  Kind
	Datum string // "WGS 84" or "ETRS89"
	Zone  int    // UTM only
	South bool   // UTM only
}

func (c CRS) String() string { return fmt.Sprintf("EPSG:%d", c.EPSG) }

// Metric says the coordinates are metres (projected), not degrees.
func (c CRS) Metric() bool { return c.Kind != Geographic }

// tm is the projection of a UTM CRS.
func (c CRS) tm() *TM {
	el := WGS84
	if c.Datum == "ETRS89" {
		el = GRS80
	}
	return NewUTM(el, c.Zone, c.South)
}

// ToLonLat takes a point of c to longitude and latitude on c's datum.
func (c CRS) ToLonLat(x, y float64) (lon, lat float64) {
	switch c.Kind {
	case UTM:
		return c.tm().Inverse(x, y)
	case WebMercator:
		return webMercatorInverse(x, y)
	}
	return x, y
}

// Projector is c's projection from longitude and latitude, built once for
// many points.
func (c CRS) Projector() func(lon, lat float64) (x, y float64) {
	switch c.Kind {
	case UTM:
		return c.tm().Forward
	case WebMercator:
		return webMercatorForward
	}
	return func(lon, lat float64) (float64, float64) { return lon, lat }
}

// UTMOf is the WGS 84 UTM zone of a point (degrees): EPSG:326zz north of
// the equator, 327zz south.
func UTMOf(lon, lat float64) CRS {
	return utmCRS(32600, "WGS 84", UTMZone(lon), lat < 0)
}

func utmCRS(base int, datum string, zone int, south bool) CRS {
	hemi := "N"
	if south {
		base += 100
		hemi = "S"
	}
	return CRS{EPSG: base + zone, Name: fmt.Sprintf("%s / UTM zone %d%s", datum, zone, hemi),
		Kind: UTM, Datum: datum, Zone: zone, South: south}
}

// Supported says which CRSs ParseCRS knows, for error messages.
const Supported = "WGS 84 longitude/latitude (EPSG:4326, OGC:CRS84), WGS 84 / UTM (EPSG:32601-32660, 32701-32760), " +
	"ETRS89 / UTM (EPSG:25828-25838) or Web Mercator (EPSG:3857)"

// ParseCRS reads a CRS name as GeoJSON's legacy crs member and GIS tools
// write it: "EPSG:32633", "urn:ogc:def:crs:EPSG::32633" (with or without a
// version), "http://www.opengis.net/def/crs/EPSG/0/32633", the CRS84 URNs,
// or a bare code.
func ParseCRS(name string) (CRS, error) {
	s := strings.ToLower(strings.TrimSpace(name))
	switch s {
	case "urn:ogc:def:crs:ogc:1.3:crs84", "urn:ogc:def:crs:ogc::crs84", "ogc:crs84", "crs84",
		"http://www.opengis.net/def/crs/ogc/1.3/crs84", "https://www.opengis.net/def/crs/ogc/1.3/crs84":
		return lonLat, nil
	}
	code := ""
	for _, p := range []string{"urn:ogc:def:crs:epsg:", "http://www.opengis.net/def/crs/epsg/",
		"https://www.opengis.net/def/crs/epsg/", "epsg:"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			// What follows is [version]:code or [version]/code.
			code = rest[strings.LastIndexAny(rest, ":/")+1:]
			break
		}
	}
	if code == "" && s != "" && strings.Trim(s, "0123456789") == "" {
		code = s
	}
	n, err := strconv.Atoi(code)
	if err != nil || n <= 0 {
		return CRS{}, fmt.Errorf("unknown CRS %q: want an EPSG code such as EPSG:32633", name)
	}
	return FromEPSG(n)
}

// lonLat is WGS 84 longitude/latitude, GeoJSON's only CRS since RFC 7946.
var lonLat = CRS{EPSG: 4326, Name: "WGS 84", Kind: Geographic, Datum: "WGS 84"}

// LonLat is WGS 84 longitude/latitude (RFC 7946's CRS).
func LonLat() CRS { return lonLat }

// FromEPSG is the CRS of an EPSG code, or an error naming what is
// supported.
func FromEPSG(code int) (CRS, error) {
	switch {
	case code == 4326:
		return lonLat, nil
	case code == 3857 || code == 3785 || code == 900913 || code == 102100:
		// The older codes of the same projection, still in old files.
		return CRS{EPSG: 3857, Name: "WGS 84 / Pseudo-Mercator", Kind: WebMercator, Datum: "WGS 84"}, nil
	case code >= 32601 && code <= 32660:
		return utmCRS(32600, "WGS 84", code-32600, false), nil
	case code >= 32701 && code <= 32760:
		return utmCRS(32600, "WGS 84", code-32700, true), nil
	case code >= 25828 && code <= 25838:
		return utmCRS(25800, "ETRS89", code-25800, false), nil
	}
	return CRS{}, fmt.Errorf("EPSG:%d is not supported: want %s (reproject other data first, e.g. ogr2ogr -t_srs EPSG:4326)", code, Supported)
}
