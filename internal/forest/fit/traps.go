package fit

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Trap is one seed trap or quadrat: its centre (m, in the stem map's
// coordinates), its area (m^2), the seeds (or seedlings) counted in it and,
// when the file has a species column, whose they are.
type Trap struct {
	X, Y, Area float64
	Count      int64
	Species    string
	Line       int
}

// maxCount bounds one trap's count: a count beyond it is a unit or column
// mistake, and lgamma(count+1) stays exact well past it.
const maxCount = 1 << 40

// trapColumns are the accepted header names of each column, in the order
// x, y, area, count, species (compared case-insensitively).
var trapColumns = [5][]string{
	{"x", "gx", "x_m"},
	{"y", "gy", "y_m"},
	{"area", "area_m2", "trap_area", "size"},
	{"count", "seeds", "n", "seedlings", "recruits"},
	{"species", "sp", "spp", "code"},
}

// ReadTraps reads a trap file: CSV with a header naming x, y, area (m^2),
// count and optionally species. Errors name file:line:col (col: the field,
// counted from 1).
func ReadTraps(r io.Reader, file string) ([]Trap, bool, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.Comment = '#'
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, false, fmt.Errorf("%s: empty file: want a header x,y,area,count[,species]", file)
	}
	if err != nil {
		return nil, false, csvError(file, err)
	}
	cols, err := trapHeader(header, file)
	if err != nil {
		return nil, false, err
	}
	hasSpecies := cols[4] >= 0
	var traps []Trap
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false, csvError(file, err)
		}
		line, _ := cr.FieldPos(0)
		t, err := trapRow(rec, cols, file, line)
		if err != nil {
			return nil, false, err
		}
		traps = append(traps, t)
	}
	if len(traps) == 0 {
		return nil, false, fmt.Errorf("%s: no traps: want one row per trap after the header", file)
	}
	return traps, hasSpecies, nil
}

func trapHeader(header []string, file string) ([5]int, error) {
	cols := [5]int{-1, -1, -1, -1, -1}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		for role, names := range trapColumns {
			for _, n := range names {
				if h == n && cols[role] < 0 {
					cols[role] = i
				}
			}
		}
	}
	for role, what := range []string{"x (m)", "y (m)", "area (m^2)", "count"} {
		if cols[role] < 0 {
			return cols, fmt.Errorf("%s:1: no %s column: the header must name x, y, area and count "+
				"(and optionally species), e.g. x,y,area,count,species; it has %s", file, what,
				strings.Join(header, ","))
		}
	}
	return cols, nil
}

func trapRow(rec []string, cols [5]int, file string, line int) (Trap, error) {
	t := Trap{Line: line}
	field := func(role int) (string, int, error) {
		c := cols[role]
		if c >= len(rec) {
			return "", 0, fmt.Errorf("%s:%d: %d fields, want at least %d (the %s column)", file, line, len(rec), c+1,
				trapColumns[role][0])
		}
		return strings.TrimSpace(rec[c]), c + 1, nil
	}
	num := func(role int, what string, ok func(float64) bool) (float64, error) {
		s, col, err := field(role)
		if err != nil {
			return 0, err
		}
		v, perr := strconv.ParseFloat(s, 64)
		if perr != nil || !ok(v) {
			return 0, fmt.Errorf("%s:%d:%d: %s %q: want %s", file, line, col, trapColumns[role][0], s, what)
		}
		return v, nil
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	var err error
	if t.X, err = num(0, "a coordinate in m", finite); err != nil {
		return t, err
	}
	if t.Y, err = num(1, "a coordinate in m", finite); err != nil {
		return t, err
	}
	if t.Area, err = num(2, "the trap's area in m^2, above 0", func(v float64) bool { return v > 0 && finite(v) }); err != nil {
		return t, err
	}
	c, err := num(3, fmt.Sprintf("a whole number of seeds, 0 to %d", int64(maxCount)), func(v float64) bool {
		return v >= 0 && v <= maxCount && v == math.Trunc(v)
	})
	if err != nil {
		return t, err
	}
	t.Count = int64(c)
	if cols[4] >= 0 {
		s, col, err := field(4)
		if err != nil {
			return t, err
		}
		if s == "" {
			return t, fmt.Errorf("%s:%d:%d: empty species: want the species the count is of", file, line, col)
		}
		t.Species = s
	}
	return t, nil
}

// csvError names file:line:col for encoding/csv's syntax errors.
func csvError(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d:%d: %v", file, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: %w", file, err)
}
