package forest

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Stem is one row of a stem map, in the model's units.
type Stem struct {
	X, Y    float64 // m
	Species string
	DBH     float64 // cm
	Line    int
}

// StemOptions say how to read a stem map.
type StemOptions struct {
	// Column names; "" finds them among the usual names (SORTIE's X, Y,
	// Species, Diam; ForestGEO's gx, gy, sp, dbh; PX, PY, Mnemonic ...).
	X, Y, Species, DBH string
	// DBHUnit is "cm" (the default) or "mm".
	DBHUnit string
	// Girth: the DBH column holds the girth (circumference) at breast
	// height; DBH = girth / pi.
	Girth bool
	// Where keeps only the rows every condition holds for.
	Where []Condition
	// Delimiter: 0 detects it from the header (tab, comma, semicolon, else
	// runs of spaces); ' ' means runs of blanks.
	Delimiter rune
}

// StemMap is what ReadStems read.
type StemMap struct {
	Stems []Stem
	// Columns are the header names used for x, y, species and DBH.
	Columns [4]string
	// Rows is the number of data rows; Filtered how many --where dropped.
	Rows, Filtered int
	// Warnings say what looks wrong with the units of the stems read
	// (stems_check.go), each with the flag that fixes it.
	Warnings []string
}

// Species returns the distinct species names, sorted.
func (m *StemMap) Species() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range m.Stems {
		if !seen[s.Species] {
			seen[s.Species] = true
			out = append(out, s.Species)
		}
	}
	sort.Strings(out)
	return out
}

// Column aliases, compared case-insensitively, in order of preference.
var columnAliases = [4][]string{
	{"x", "gx", "px", "x_m", "xcoord", "x_coord"},
	{"y", "gy", "py", "y_m", "ycoord", "y_coord"},
	{"species", "sp", "spp", "mnemonic", "spcode", "species_code", "speciescode", "code"},
	{"dbh", "diam", "diameter", "dbh_cm", "dbh_mm"},
}

var columnRoles = [4]string{"x", "y", "species", "dbh"}
var columnFlags = [4]string{"--x-col", "--y-col", "--species-col", "--dbh-col"}

// maxStemLine bounds one line of a blank-separated stem map.
const maxStemLine = 1 << 20

// ReadStems reads a stem map (CSV, TSV or blank-separated, with a header).
// Errors name file:line; rows --where drops are not checked.
func ReadStems(r io.Reader, file string, o StemOptions) (*StemMap, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	delim := o.Delimiter
	if delim == 0 {
		head, err := br.Peek(1 << 16)
		if len(head) == 0 && err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			head = head[:i]
		}
		delim = detectDelimiter(head)
	}
	rows := newRowReader(br, delim)
	header, _, err := rows.next()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file: want a header line naming the columns", file)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	header = append([]string(nil), header...)
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	var cols [4]int
	names := [4]string{o.X, o.Y, o.Species, o.DBH}
	m := &StemMap{}
	for role := range cols {
		c, err := findColumn(header, names[role], role)
		if err != nil {
			return nil, fmt.Errorf("%s:1: %w", file, err)
		}
		cols[role] = c
		m.Columns[role] = header[c]
	}
	conds := make([]boundCondition, len(o.Where))
	for i, c := range o.Where {
		col, err := findColumn(header, c.Column, -1)
		if err != nil {
			return nil, fmt.Errorf("%s:1: --where %s: %w", file, c, err)
		}
		conds[i] = boundCondition{c, col}
	}
	scale := 1.0
	switch o.DBHUnit {
	case "", "cm":
	case "mm":
		scale = 0.1
	default:
		return nil, fmt.Errorf("unknown DBH unit %q: want cm or mm", o.DBHUnit)
	}
	if o.Girth {
		scale /= math.Pi
	}
	need := max(cols[0], cols[1], cols[2], cols[3]) + 1
	siteIdx := findSite(header, cols)
	var sites []string
	m.Stems = make([]Stem, 0, guessRows(r, br))
	for {
		rec, line, err := rows.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		m.Rows++
		if !keep(rec, conds) {
			m.Filtered++
			continue
		}
		if len(rec) < need {
			role := missingRole(cols, len(rec))
			return nil, fmt.Errorf("%s:%d: %d fields, but the %s column (%q) is field %d", file, line, len(rec),
				columnRoles[role], header[cols[role]], cols[role]+1)
		}
		if len(rec) > len(header) {
			return nil, fmt.Errorf("%s:%d: %d fields, but the header names %d: a field too many (a stray "+
				"separator?)%s", file, line, len(rec), len(header), delimiterHint(delim))
		}
		s := Stem{Species: strings.TrimSpace(rec[cols[2]]), Line: line}
		if s.Species == "" {
			return nil, fmt.Errorf("%s:%d: empty species (column %q)", file, line, header[cols[2]])
		}
		var vals [3]float64
		for i, role := range []int{0, 1, 3} {
			v, err := parseValue(rec[cols[role]])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s (column %q): %w%s", file, line, columnRoles[role], header[cols[role]], err,
					commaHint(rec[cols[role]], delim))
			}
			vals[i] = v
		}
		s.X, s.Y, s.DBH = vals[0], vals[1], vals[2]*scale
		if !(s.DBH > 0) || math.IsInf(s.DBH, 0) {
			return nil, fmt.Errorf("%s:%d: DBH %s (column %q) is not a positive size; drop such rows with "+
				"--where (e.g. --where '%s>0')", file, line, strings.TrimSpace(rec[cols[3]]), header[cols[3]], header[cols[3]])
		}
		m.Stems = append(m.Stems, s)
		if siteIdx >= 0 {
			site := ""
			if siteIdx < len(rec) {
				site = strings.TrimSpace(rec[siteIdx])
			}
			sites = append(sites, site)
		}
	}
	siteCol := ""
	if siteIdx >= 0 {
		siteCol = header[siteIdx]
	}
	m.Warnings = unitWarnings(m.Stems, o, m.Columns, sites, siteCol)
	return m, nil
}

// guessRows guesses the rows of a stem map read from a regular file from
// its size and the lines in br's buffered head, a little high, so that
// the stems are read into one allocation instead of a slice grown (and
// copied) step by step; 0 where it cannot tell. It is bounded: a file of
// shorter rows further on still grows the slice as before.
func guessRows(r io.Reader, br *bufio.Reader) int {
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return 0
	}
	fi, err := st.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	head, _ := br.Peek(br.Size())
	lines := bytes.Count(head, []byte{'\n'})
	if lines < 2 {
		return 0
	}
	guess := float64(fi.Size()) / float64(len(head)) * float64(lines)
	return int(min(guess*1.05+16, 1<<22))
}

// parseValue parses a finite number; NA, NULL and empty fields are missing.
func parseValue(s string) (float64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToUpper(s) {
	case "", "NA", "NULL", "NAN", "N/A", "-":
		if s == "" {
			return 0, errors.New("missing value")
		}
		return 0, fmt.Errorf("missing value %q (filter such rows out with --where)", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

// findColumn finds a column by its name (exact, then case-insensitive), or
// for role >= 0 and no name, among the role's usual names.
func findColumn(header []string, name string, role int) (int, error) {
	if name != "" {
		for i, h := range header {
			if h == name {
				return i, nil
			}
		}
		for i, h := range header {
			if strings.EqualFold(h, name) {
				return i, nil
			}
		}
		flag := ""
		if role >= 0 {
			flag = " (" + columnFlags[role] + ")"
		}
		return 0, fmt.Errorf("no column %q%s in the header: %s", name, flag, quoteList(header, 40))
	}
	for _, alias := range columnAliases[role] {
		for i, h := range header {
			if strings.EqualFold(h, alias) {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("no %s column: name it with %s (the header has %s)", columnRoles[role], columnFlags[role],
		quoteList(header, 40))
}

// missingRole is the role whose column comes first among those a record
// of n fields lacks.
func missingRole(cols [4]int, n int) int {
	best := -1
	for role, c := range cols {
		if c >= n && (best < 0 || c < cols[best]) {
			best = role
		}
	}
	return max(best, 0)
}

// detectDelimiter picks the header's most frequent separator.
func detectDelimiter(header []byte) rune {
	best, n := ' ', 0
	for _, d := range []rune{'\t', ',', ';'} {
		if c := bytes.Count(header, []byte(string(d))); c > n {
			best, n = d, c
		}
	}
	return best
}

// rowReader yields records and their line numbers, from encoding/csv for a
// delimiter, or from blank-separated fields.
type rowReader struct {
	csv  *csv.Reader
	sc   *bufio.Scanner
	line int
}

func newRowReader(r io.Reader, delim rune) *rowReader {
	if delim == ' ' {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), maxStemLine)
		return &rowReader{sc: sc}
	}
	c := csv.NewReader(r)
	c.Comma = delim
	c.FieldsPerRecord = -1
	c.LazyQuotes = true
	c.ReuseRecord = true
	return &rowReader{csv: c}
}

func (r *rowReader) next() ([]string, int, error) {
	if r.csv != nil {
		rec, err := r.csv.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, pe.Line, fmt.Errorf("line %d: %w", pe.Line, pe.Err)
			}
			return nil, 0, err
		}
		line, _ := r.csv.FieldPos(0)
		return rec, line, nil
	}
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return nil, r.line + 1, fmt.Errorf("line %d: longer than %d bytes", r.line+1, maxStemLine)
			}
			return nil, r.line, err
		}
		return nil, r.line, io.EOF
	}
	r.line++
	f := strings.Fields(r.sc.Text())
	if len(f) == 0 {
		f = []string{""}
	}
	return f, r.line, nil
}
