package pga

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// LotError is a lot that cannot be used, named by its feature index and id.
type LotError struct {
	File  string
	Index int
	ID    string
	Msg   string
}

func (e *LotError) Error() string {
	lot := fmt.Sprintf("feature %d", e.Index)
	if e.ID != "" {
		lot += fmt.Sprintf(" (id %q)", e.ID)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, lot, e.Msg)
}

type geoFeature struct {
	Type       string          `json:"type"`
	ID         json.RawMessage `json:"id"`
	Properties map[string]any  `json:"properties"`
	Geometry   *struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	} `json:"geometry"`
}

// maxLotVertices bounds a lot's vertices, all rings together: the
// self-intersection test and ear clipping are quadratic or worse.
const maxLotVertices = 1024

// floorHeight turns a "floors" property into metres.
const floorHeight = 3.0

// ParseLots reads a GeoJSON FeatureCollection of Polygon features, each a
// simple footprint, concave or with holes (interior rings), and
// MultiPolygon features (a lot per part), in the coordinates of the file (see
// ParseLotsFile and PlaceLots for its CRS). Numeric properties (numbers, or
// strings that are numbers, as OpenStreetMap writes tags: lots_osm.go)
// become lot attributes: "height" (metres) or "floors" (3 m each; else
// OpenStreetMap's "building:levels") set the lot's height, "attr" its
// ShapeCustomAttribute(). Every problem names the feature.
func ParseLots(file string, src []byte) ([]Lot, error) {
	lf, err := ParseLotsFile(file, src)
	if err != nil {
		return nil, err
	}
	return lf.Lots, nil
}

// ParseLotsFile is ParseLots that also reads the legacy crs member. The
// features' coordinates are decoded and checked on every core (a city's
// parcels run to hundreds of megabytes, and the self-intersection test is
// quadratic in a ring's vertices); an error names the first bad feature.
func ParseLotsFile(file string, src []byte) (*LotsFile, error) {
	var fc struct {
		Type     string          `json:"type"`
		Features []geoFeature    `json:"features"`
		CRS      json.RawMessage `json:"crs"`
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&fc); err != nil {
		return nil, fmt.Errorf("%s: invalid GeoJSON: %w", file, err)
	}
	if fc.Type != "FeatureCollection" {
		return nil, fmt.Errorf("%s: want a GeoJSON FeatureCollection, found type %q", file, fc.Type)
	}
	if len(fc.Features) == 0 {
		return nil, fmt.Errorf("%s: no features", file)
	}
	byFeature := make([][]Lot, len(fc.Features))
	errs := make([]error, len(fc.Features))
	parallel.For(len(fc.Features), 64, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			ls, err := parseFeature(fc.Features[i])
			if err != nil {
				errs[i] = &LotError{File: file, Index: i, ID: featureID(fc.Features[i].ID), Msg: err.Error()}
			}
			byFeature[i] = ls
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// A MultiPolygon feature gives a lot per part: lots are numbered (and
	// seeded) by their place in the file, part after part.
	var lots []Lot
	for _, ls := range byFeature {
		for _, l := range ls {
			l.Index = len(lots)
			lots = append(lots, l)
		}
	}
	crs, err := parseCRSMember(file, src, fc.CRS)
	if err != nil {
		return nil, err
	}
	return &LotsFile{Lots: lots, CRS: crs}, nil
}

// parseFeature is the lots of one feature: a Polygon's one, or one per
// part of a MultiPolygon (multiPolygonLots).
func parseFeature(f geoFeature) ([]Lot, error) {
	l := Lot{ID: featureID(f.ID)}
	if f.Type != "Feature" {
		return nil, fmt.Errorf("want type \"Feature\", found %q", f.Type)
	}
	if f.Geometry == nil {
		return nil, fmt.Errorf("no geometry")
	}
	switch f.Geometry.Type {
	case "Polygon":
	case "MultiPolygon":
		return multiPolygonLots(l, f.Geometry.Coordinates, f.Properties)
	default:
		return nil, fmt.Errorf("geometry is a %s, want a Polygon or a MultiPolygon", f.Geometry.Type)
	}
	var rings [][][]float64
	if err := json.Unmarshal(f.Geometry.Coordinates, &rings); err != nil {
		return nil, fmt.Errorf("polygon coordinates: want [[[x, y], ...]] numbers in metres")
	}
	if err := polygonLot(&l, rings, f.Properties); err != nil {
		return nil, err
	}
	return []Lot{l}, nil
}

// polygonLot gives l one polygon's rings (checked) and the feature's
// properties.
func polygonLot(l *Lot, rings [][][]float64, props map[string]any) error {
	if len(rings) == 0 {
		return fmt.Errorf("polygon has no ring")
	}
	if err := lotRings(l, rings); err != nil {
		return err
	}
	return lotProperties(l, props)
}

func featureID(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func lotProperties(l *Lot, props map[string]any) error {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, ok := propNumber(props[k])
		if !ok {
			if k == "height" || k == "floors" || k == "attr" {
				return fmt.Errorf("property %q: want a number, found %v", k, props[k])
			}
			continue // names, tags: not attributes
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("property %q is not finite", k)
		}
		switch k {
		case "height":
			if v <= 0 {
				return fmt.Errorf("height %g: want a positive number of metres", v)
			}
			l.Height = v
		case "floors":
			if v < 1 {
				return fmt.Errorf("floors %g: want 1 or more", v)
			}
			if l.Height == 0 {
				l.Height = v * floorHeight
			}
		case "attr":
			a := v
			l.Attr = &a
		}
		if l.Attrs == nil {
			l.Attrs = map[string]float64{}
		}
		l.Attrs[k] = v
	}
	osmFloors(l)
	return nil
}

// validRing checks a closed GeoJSON ring and returns it open, without
// repeated consecutive vertices.
func validRing(ring [][]float64) ([][2]float64, error) {
	pts := make([][2]float64, 0, len(ring))
	for j, p := range ring {
		if len(p) < 2 {
			return nil, fmt.Errorf("vertex %d has %d coordinates, want x, y", j, len(p))
		}
		for _, c := range p[:2] {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				return nil, fmt.Errorf("vertex %d is not finite (NaN or infinity)", j)
			}
		}
		v := [2]float64{p[0], p[1]}
		if len(pts) > 0 && pts[len(pts)-1] == v && j != len(ring)-1 {
			continue
		}
		pts = append(pts, v)
	}
	if len(pts) < 2 || pts[0] != pts[len(pts)-1] {
		return nil, fmt.Errorf("ring not closed: the last vertex must repeat the first")
	}
	pts = pts[:len(pts)-1]
	for len(pts) > 1 && pts[len(pts)-1] == pts[0] {
		pts = pts[:len(pts)-1]
	}
	if len(pts) < 3 {
		return nil, fmt.Errorf("%d distinct vertices, want at least 3", len(pts))
	}
	if len(pts) > maxLotVertices {
		return nil, fmt.Errorf("%d vertices, more than the %d a lot may have", len(pts), maxLotVertices)
	}
	// The ring's extent, not its distance from 0: projected coordinates
	// (UTM northings of millions of metres) must not blur small lots.
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
		hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
	}
	scale := math.Max(hi[0]-lo[0], hi[1]-lo[1])
	// A triangle that doubles back has no area, and says so below.
	if j, ok := spike(pts, 1e-12*math.Max(1, scale*scale)); ok && len(pts) > 3 {
		return nil, fmt.Errorf("doubles back on itself at vertex %d", j)
	}
	if i, j, ok := selfIntersection(pts); ok {
		return nil, fmt.Errorf("self-intersecting: edges %d and %d cross", i, j)
	}
	area := ringArea(pts)
	if math.Abs(area)/2 <= 1e-12*math.Max(1, scale*scale) {
		return nil, fmt.Errorf("zero area")
	}
	return pts, nil
}

func cross(o, a, b [2]float64) float64 {
	return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
}

// selfIntersection finds two non-adjacent edges that touch or cross.
func selfIntersection(p [][2]float64) (int, int, bool) {
	n := len(p)
	for i := 0; i < n; i++ {
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue // adjacent through the closing edge
			}
			if segmentsMeet(p[i], p[(i+1)%n], p[j], p[(j+1)%n]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

func segmentsMeet(a, b, c, d [2]float64) bool {
	d1, d2 := cross(c, d, a), cross(c, d, b)
	d3, d4 := cross(a, b, c), cross(a, b, d)
	if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return true
	}
	on := func(p, q, r [2]float64, cr float64) bool {
		return cr == 0 && math.Min(p[0], q[0]) <= r[0] && r[0] <= math.Max(p[0], q[0]) &&
			math.Min(p[1], q[1]) <= r[1] && r[1] <= math.Max(p[1], q[1])
	}
	return on(c, d, a, d1) || on(c, d, b, d2) || on(a, b, c, d3) || on(a, b, d, d4)
}
