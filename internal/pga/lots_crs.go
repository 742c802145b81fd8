package pga

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/geo"
)

// LotsFile is a parsed --lots file: its lots, in the file's coordinates,
// and its legacy crs member (nil when it has none).
type LotsFile struct {
	Lots []Lot
	CRS  *CRSMember
}

// CRSMember is GeoJSON 2008's crs member, which RFC 7946 dropped but
// cadastre and GIS exports still write.
type CRSMember struct {
	Name string // the CRS's name, e.g. "urn:ogc:def:crs:EPSG::32633"
	Null bool   // "crs": null: the producer says there is no CRS
	Pos  string // file:line:col of the member's value, for errors
}

// parseCRSMember reads the crs member's two legacy forms: named
// ({"type": "name", "properties": {"name": "EPSG:32633"}}) and the draft's
// {"type": "EPSG", "properties": {"code": 32633}}. A linked CRS (a .prj
// file) is refused: procgen reads no other file.
func parseCRSMember(file string, src []byte, raw json.RawMessage) (*CRSMember, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	line, col := memberPos(src, "crs")
	m := &CRSMember{Pos: fmt.Sprintf("%s:%d:%d", file, line, col)}
	if string(raw) == "null" {
		m.Null = true
		return m, nil
	}
	var c struct {
		Type       string `json:"type"`
		Properties struct {
			Name string          `json:"name"`
			Code json.RawMessage `json:"code"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf(`%s: crs member: want {"type": "name", "properties": {"name": "EPSG:CODE"}}`, m.Pos)
	}
	switch c.Type {
	case "name":
		m.Name = c.Properties.Name
	case "EPSG":
		var code int
		if json.Unmarshal(c.Properties.Code, &code) != nil {
			return nil, fmt.Errorf(`%s: crs member of type "EPSG": want an integer "code"`, m.Pos)
		}
		m.Name = fmt.Sprintf("EPSG:%d", code)
	case "link":
		return nil, fmt.Errorf("%s: crs member of type \"link\": a CRS in another file is not read; name it instead (\"type\": \"name\", EPSG:CODE)", m.Pos)
	default:
		return nil, fmt.Errorf(`%s: crs member of type %q: want "name"`, m.Pos, c.Type)
	}
	if m.Name == "" {
		return nil, fmt.Errorf("%s: crs member names no CRS", m.Pos)
	}
	return m, nil
}

// memberPos is the line and column (1-based, in bytes) of a top-level
// member's value; 1, 1 if it cannot be found. Only errors call it.
func memberPos(src []byte, key string) (line, col int) {
	dec := json.NewDecoder(bytes.NewReader(src))
	off := 0
	if _, err := dec.Token(); err == nil {
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				break
			}
			if k == key {
				off = int(dec.InputOffset())
				for off < len(src) && bytes.IndexByte([]byte(" \t\r\n:"), src[off]) >= 0 {
					off++
				}
				break
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				break
			}
		}
	}
	line, col = 1, 1
	for _, b := range src[:min(off, len(src))] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// PlaceOptions say how lots are placed: LotsCRS is "auto" (the file's crs
// member; without one RFC 7946's WGS 84 longitude/latitude), "local" (metres
// as given, no CRS) or a CRS name that overrides the member; CRS is the
// frame the model is built in, "auto" (a projected input's own CRS, else
// the WGS 84 UTM zone of the lots' centre) or a UTM CRS name.
type PlaceOptions struct {
	LotsCRS, CRS string
}

// maxLotDegrees is the widest lot taken as longitude/latitude without a
// crs member: about 5.5 km. A lot wider than that is a file in metres that
// says nothing of its CRS, as files made before this option were.
const maxLotDegrees = 0.05

// maxFromMeridian bounds how far from the frame's central meridian lots
// may lie: Krüger's series holds to nanometres within 3900 km of it, and
// grid metres then still stay within 1 % of ground metres.
const maxFromMeridian = 12.0

// PlaceLots projects geographic lots into a metric frame around a point
// of the data (the bounding box centre of the lots, rounded to the metre),
// in place, and says where that frame is. It returns nil for lots taken in
// local metres (as given), and warnings to log.
func PlaceLots(file string, lf *LotsFile, o PlaceOptions) (*geo.Georef, []string, error) {
	src, local, warns, err := sourceCRS(file, lf, o.LotsCRS)
	if err != nil {
		return nil, nil, err
	}
	if (local || src.Metric()) && looksLikeDegrees(lf.Lots) {
		what := "local metres (--lots-crs local)"
		if !local {
			what = fmt.Sprintf("%s (%s, metres)", src, src.Name)
		}
		warns = append(warns, fmt.Sprintf("%s: the coordinates look like longitude/latitude degrees (all within ±180, ±90, spanning under a degree) but are declared %s: the buildings will be tiny; drop the crs member or give --lots-crs EPSG:4326 if they are degrees", file, what))
	}
	if local {
		if o.CRS != "" && o.CRS != "auto" {
			return nil, nil, fmt.Errorf("%s: --crs %s needs lots with a CRS, and these are in local metres", file, o.CRS)
		}
		return nil, warns, nil
	}
	dst, err := frameCRS(file, lf.Lots, src, o.CRS)
	if err != nil {
		return nil, nil, err
	}
	if err := project(file, lf.Lots, src, dst); err != nil {
		return nil, nil, err
	}
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, l := range lf.Lots {
		for _, p := range l.Polygon {
			lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
			hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
		}
	}
	e0, n0 := math.Round((lo[0]+hi[0])/2), math.Round((lo[1]+hi[1])/2)
	for _, l := range lf.Lots {
		for _, ring := range append([][][2]float64{l.Polygon}, l.Holes...) {
			for j := range ring {
				ring[j][0] -= e0
				ring[j][1] -= n0
			}
		}
	}
	g := &geo.Georef{CRS: dst.Ref(), Origin: dst.OriginAt(e0, n0), Axes: geo.Axes}
	if src.EPSG != dst.EPSG {
		r := src.Ref()
		g.SourceCRS = &r
	}
	return g, warns, nil
}

// sourceCRS is the CRS the file's coordinates are in, or local.
func sourceCRS(file string, lf *LotsFile, lotsCRS string) (geo.CRS, bool, []string, error) {
	switch {
	case lotsCRS == "local":
		return geo.CRS{}, true, nil, nil
	case lotsCRS != "" && lotsCRS != "auto":
		c, err := geo.ParseCRS(lotsCRS)
		if err != nil {
			return c, false, nil, fmt.Errorf("--lots-crs: %w", err)
		}
		return c, false, nil, nil
	case lf.CRS != nil && lf.CRS.Null:
		return geo.CRS{}, true, nil, nil
	case lf.CRS != nil:
		c, err := geo.ParseCRS(lf.CRS.Name)
		if err != nil {
			return c, false, nil, fmt.Errorf("%s: crs member: %w", lf.CRS.Pos, err)
		}
		return c, false, nil, nil
	}
	if i, why := notDegrees(lf.Lots); i >= 0 {
		return geo.CRS{}, true, []string{fmt.Sprintf("%s has no crs member, so RFC 7946 says longitude/latitude, but feature %d %s: taken as local metres as given (--lots-crs local says so without this warning)",
			file, i, why)}, nil
	}
	return geo.LonLat(), false, nil, nil
}

// notDegrees finds a lot that cannot be longitude/latitude: outside the
// ranges, or wider than any building lot in degrees; -1 when none.
func notDegrees(lots []Lot) (int, string) {
	for i, l := range lots {
		lo, hi := l.Polygon[0], l.Polygon[0]
		for _, p := range l.Polygon {
			if math.Abs(p[0]) > 180 || math.Abs(p[1]) > 90 {
				return i, fmt.Sprintf("has a vertex at %g, %g, beyond longitude ±180 or latitude ±90", p[0], p[1])
			}
			lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
			hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
		}
		if w := math.Max(hi[0]-lo[0], hi[1]-lo[1]); w > maxLotDegrees {
			return i, fmt.Sprintf("spans %g, more than the %g degrees (about 5.5 km) of a plausible lot", w, maxLotDegrees)
		}
	}
	return -1, ""
}

// looksLikeDegrees: every coordinate within longitude and latitude ranges
// and the whole set under a degree wide (a town in degrees; in metres it
// would be one room).
func looksLikeDegrees(lots []Lot) bool {
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, l := range lots {
		for _, p := range l.Polygon {
			if math.Abs(p[0]) > 180 || math.Abs(p[1]) > 90 {
				return false
			}
			lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
			hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
		}
	}
	return hi[0]-lo[0] < 1 && hi[1]-lo[1] < 1
}

// frameCRS is the CRS the model is built in: --crs, a UTM input's own
// zone, or the WGS 84 UTM zone of the lots' centre.
func frameCRS(file string, lots []Lot, src geo.CRS, name string) (geo.CRS, error) {
	if name != "" && name != "auto" {
		c, err := geo.ParseCRS(name)
		if err != nil {
			return c, fmt.Errorf("--crs: %w", err)
		}
		if c.Kind != geo.UTM {
			return c, fmt.Errorf("--crs %s: want a UTM zone to build in (EPSG:326zz north, 327zz south)", c)
		}
		if src.Datum != c.Datum {
			return c, fmt.Errorf("%s: lots in %s (%s) cannot be built in %s: converting between the %s and %s datums is not supported", file, src, src.Name, c, src.Datum, c.Datum)
		}
		return c, nil
	}
	if src.Kind == geo.UTM {
		return src, nil
	}
	// The centre of the lots' longitudes and latitudes; across the
	// antimeridian, of longitudes taken in 0..360.
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	lo360, hi360 := math.Inf(1), math.Inf(-1)
	for _, l := range lots {
		for _, p := range l.Polygon {
			lon, lat := src.ToLonLat(p[0], p[1])
			lo = [2]float64{math.Min(lo[0], lon), math.Min(lo[1], lat)}
			hi = [2]float64{math.Max(hi[0], lon), math.Max(hi[1], lat)}
			l360 := math.Mod(lon+360, 360)
			lo360, hi360 = math.Min(lo360, l360), math.Max(hi360, l360)
		}
	}
	clon, clat := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	if hi360-lo360 < hi[0]-lo[0] {
		clon = (lo360 + hi360) / 2
	}
	if !(clat >= -80 && clat <= 84) {
		return geo.CRS{}, fmt.Errorf("%s: the lots' centre is at latitude %.4g, outside UTM's 80°S to 84°N (polar stereographic is not supported)", file, clat)
	}
	return geo.UTMOf(clon, clat), nil
}

// project takes every vertex from src to dst, in place.
func project(file string, lots []Lot, src, dst geo.CRS) error {
	if src.EPSG == dst.EPSG {
		return nil
	}
	p := dst.Projector()
	lon0 := float64(dst.Zone)*6 - 183
	for _, l := range lots {
		// Holes lie inside the outer ring, so its checks hold for them too.
		for _, ring := range append([][][2]float64{l.Polygon}, l.Holes...) {
			if err := projectRing(file, l, ring, src, dst, p, lon0); err != nil {
				return err
			}
		}
	}
	return nil
}

// projectRing takes a ring of lot l from src to dst (p is dst's
// projector, lon0 its central meridian), in place.
func projectRing(file string, l Lot, ring [][2]float64, src, dst geo.CRS, p func(lon, lat float64) (x, y float64), lon0 float64) error {
	for j, v := range ring {
		lon, lat := src.ToLonLat(v[0], v[1])
		if !(math.Abs(lat) < 90) || math.IsInf(lon, 0) {
			return &LotError{File: file, Index: l.Index, ID: l.ID, Msg: fmt.Sprintf("vertex %d: latitude %g is not on the globe (%s)", j, lat, src)}
		}
		if d := math.Mod(math.Mod(lon-lon0, 360)+540, 360) - 180; math.Abs(d) > maxFromMeridian {
			return &LotError{File: file, Index: l.Index, ID: l.ID,
				Msg: fmt.Sprintf("vertex %d at longitude %.6f is %.1f° from %s's central meridian (at most %g°): give the lots of each region separately, or another --crs", j, lon, math.Abs(d), dst, maxFromMeridian)}
		}
		ring[j][0], ring[j][1] = p(lon, lat)
	}
	return nil
}
