package forest

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// Unit sanity: a stem map in the wrong units still parses, and then runs
// on a one-cell grid (degrees read as metres) or with trees 17 m across
// (DBH in mm read as cm). ReadStems checks what it read and returns
// warnings (StemMap.Warnings) that say what looks wrong and which flag
// fixes it; the caller prints them.
const (
	// minSpan: stems spanning less than this (m) in both x and y are not a plot.
	minSpan = 5.0
	// maxDBH (cm): the largest trees on record are about 1100 cm across
	// (a few baobabs and cypresses); a map with many above 500 cm is in mm.
	maxDBH = 500.0
)

// siteAliases name a column that tells plots apart in a file holding several.
var siteAliases = []string{"site", "plot", "plotname", "plot_name", "plotid", "plot_id", "plotcode", "siteid",
	"site_id", "sitename", "site_name", "stand", "standid", "stand_id"}

// decimalComma matches a number written with a decimal comma.
var decimalComma = regexp.MustCompile(`^\s*[-+]?[0-9]*,[0-9]+\s*$`)

// findSite returns the index of a site column that is none of cols (-1: none).
func findSite(header []string, cols [4]int) int {
	for _, alias := range siteAliases {
		for i, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), alias) && i != cols[0] && i != cols[1] && i != cols[2] && i != cols[3] {
				return i
			}
		}
	}
	return -1
}

// unitWarnings checks the stems read with o: coordinates that span less
// than a few metres or look like degrees, DBH beyond any tree, several
// plots on top of each other. sites holds each stem's site value ("" when
// the file has no site column), siteCol that column's name.
func unitWarnings(stems []Stem, o StemOptions, cols [4]string, sites []string, siteCol string) []string {
	if len(stems) == 0 {
		return nil
	}
	var w []string
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	var big int
	var largest float64
	fractional := false
	for _, s := range stems {
		x0, x1 = math.Min(x0, s.X), math.Max(x1, s.X)
		y0, y1 = math.Min(y0, s.Y), math.Max(y1, s.Y)
		if s.DBH > maxDBH {
			big++
		}
		largest = math.Max(largest, s.DBH)
		fractional = fractional || s.X != math.Trunc(s.X) || s.Y != math.Trunc(s.Y)
	}
	degrees := x0 >= -180 && x1 <= 180 && y0 >= -90 && y1 <= 90 && fractional && x1-x0 < 2 && y1-y0 < 2
	switch {
	case len(stems) > 1 && degrees:
		w = append(w, fmt.Sprintf("the coordinates (columns %q and %q: x %g..%g, y %g..%g) look like longitude and "+
			"latitude in degrees, not metres: the plot would be %.3g x %.3g m; name the columns of plot coordinates in "+
			"metres with --x-col and --y-col, or project the stems to metres (e.g. UTM) first",
			cols[0], cols[1], x0, x1, y0, y1, x1-x0, y1-y0))
	case len(stems) > 1 && x1-x0 < minSpan && y1-y0 < minSpan:
		w = append(w, fmt.Sprintf("the %d stems span only %.3g x %.3g m (columns %q and %q): are the coordinates "+
			"in metres? name the columns of plot coordinates in metres with --x-col and --y-col",
			len(stems), x1-x0, y1-y0, cols[0], cols[1]))
	}
	if big > 0 {
		fix := "give --dbh-unit mm"
		switch {
		case o.DBHUnit == "mm" && o.Girth:
			fix = "check --dbh-col"
		case o.DBHUnit == "mm":
			fix = "if the column is the girth, give --girth; else check --dbh-col"
		}
		w = append(w, fmt.Sprintf("%d stems have a DBH above %g cm (the largest %.4g cm, column %q): is the column "+
			"in millimetres? %s", big, maxDBH, largest, cols[3], fix))
	}
	if siteCol != "" {
		if msg := overlappingSites(stems, sites, siteCol); msg != "" {
			w = append(w, msg)
		}
	}
	return w
}

// overlappingSites says whether several sites' stems cover overlapping
// rectangles: separate plots in one file, which one grid would add up.
func overlappingSites(stems []Stem, sites []string, col string) string {
	type box struct {
		x0, y0, x1, y1 float64
		n              int
	}
	boxes := map[string]*box{}
	for i, s := range stems {
		b := boxes[sites[i]]
		if b == nil {
			b = &box{x0: s.X, y0: s.Y, x1: s.X, y1: s.Y}
			boxes[sites[i]] = b
		}
		b.x0, b.x1 = math.Min(b.x0, s.X), math.Max(b.x1, s.X)
		b.y0, b.y1 = math.Min(b.y0, s.Y), math.Max(b.y1, s.Y)
		b.n++
	}
	if len(boxes) < 2 {
		return ""
	}
	names := make([]string, 0, len(boxes))
	for k := range boxes {
		names = append(names, k)
	}
	sort.Strings(names)
	overlap := map[string]bool{}
	for i, a := range names {
		for _, b := range names[i+1:] {
			p, q := boxes[a], boxes[b]
			// Overlapping by more than half of the smaller one's extent in
			// both axes: the same coordinate frame, not adjacent plots.
			ox := math.Min(p.x1, q.x1) - math.Max(p.x0, q.x0)
			oy := math.Min(p.y1, q.y1) - math.Max(p.y0, q.y0)
			if ox > 0.5*math.Min(p.x1-p.x0, q.x1-q.x0) && oy > 0.5*math.Min(p.y1-p.y0, q.y1-q.y0) {
				overlap[a], overlap[b] = true, true
			}
		}
	}
	if len(overlap) == 0 {
		return ""
	}
	var over []string
	for _, k := range names {
		if overlap[k] {
			over = append(over, k)
		}
	}
	return fmt.Sprintf("the file holds %d plots (column %q: %s) whose coordinates overlap: one grid would add them "+
		"up; pick one with --where %s=%s", len(boxes), col, quoteList(over, 8), col, over[0])
}

// commaHint is advice for a field that is not a number because of a
// decimal comma ("" when that is not the likely cause).
func commaHint(field string, delim rune) string {
	if !decimalComma.MatchString(field) {
		return ""
	}
	return fmt.Sprintf(": it looks like a decimal comma; procgen reads decimal points: convert the file's "+
		"decimal commas to points%s", delimiterHint(delim))
}

// delimiterHint adds what to do when commas also separate the fields.
func delimiterHint(delim rune) string {
	if delim == ',' {
		return " (a file whose fields are separated by semicolons or tabs needs --delimiter semicolon or tab)"
	}
	return ""
}
