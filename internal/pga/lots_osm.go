package pga

import (
	"math"
	"strconv"
	"strings"
)

// OpenStreetMap exports (Overpass, osmium, QGIS) write every tag as a
// string: "building:levels": "3", "height": "12.5" or "12 m". A property
// whose text is a number, with or without a metre unit, is that number;
// and a feature with OpenStreetMap's "building:levels" and no "floors" of
// its own gets them as its floors (its height, without a "height", 3 m a
// level), so LotAttr(floors, 2) and the lot's height read real buildings.

// osmLevels is OpenStreetMap's tag for the storeys above ground.
const osmLevels = "building:levels"

// propNumber is property v as a number: a JSON number, or a string that
// is one (surrounding spaces and a trailing "m" allowed).
func propNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		s := strings.TrimSpace(x)
		s = strings.TrimSpace(strings.TrimSuffix(s, "m"))
		if s == "" {
			return 0, false
		}
		// A name such as "Nan" or "Inf" parses as a float but is no
		// number here.
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// osmFloors gives a lot with OpenStreetMap's building:levels and no floors
// of its own that many floors, and the height of that many storeys when it
// has none; fewer than one level (an open carport's 0) gives nothing.
func osmFloors(l *Lot) {
	v, ok := l.Attrs[osmLevels]
	if _, has := l.Attrs["floors"]; !ok || has || v < 1 {
		return
	}
	l.Attrs["floors"] = v
	if l.Height == 0 {
		l.Height = v * floorHeight
	}
}
