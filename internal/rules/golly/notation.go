// Package golly reads the rule notations of Golly (B/S and S/B strings,
// Generations, Larger than Life, isotropic non-totalistic Hensel
// notation, with Golly's bounded-grid suffixes) and writes each as
// rules-language source (docs/rules-language.md), so that a rule given on
// the command line runs on every backend and through the generated
// kernels like any rule file, and compiles the @TABLE of Golly's .rule
// files the same way (table.go).
package golly

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the family a notation belongs to.
type Kind int

const (
	// Totalistic is the Life-like family (and Generations when States >
	// 2) on the Moore, von Neumann or hexagonal neighbourhood, letters
	// allowed on the Moore neighbourhood (Hensel notation).
	Totalistic Kind = iota
	// LargerThanLife is Evans's and Griffeath's family: a range R, count
	// intervals for birth and survival.
	LargerThanLife
)

// Neighbourhood is the set of cells a cell counts.
type Neighbourhood byte

const (
	Moore      Neighbourhood = 'M'
	VonNeumann Neighbourhood = 'N' // Golly's "V" suffix, LtL's "NN"
	Hexagonal  Neighbourhood = 'H' // Moore without NE and SW (Golly's emulation)
	Circular   Neighbourhood = 'C' // LtL only: Euclidean distance below R+0.5
)

// Topology is the grid: Golly's :T (torus) or :P (bounded plane) suffix.
// Without a suffix Golly's grid is unbounded; a procgen board is not, so
// it is a bounded plane of the board's size (W x H constants).
type Topology struct {
	Torus bool
	W, H  int // 0: not given (the board's W and H)
}

// Rule is a parsed notation.
type Rule struct {
	Kind  Kind
	Neigh Neighbourhood
	// States: 2 for two-state rules; Generations and LtL's C above 2 add
	// the dying states 2..States-1.
	States int
	// Totalistic: per neighbour count, the letters allowed (a bit per
	// letter of henselLetters[n]; all bits = every configuration).
	Birth, Survive [9]uint16
	// LargerThanLife.
	Range                  int
	Middle                 bool
	SMin, SMax, BMin, BMax int
	Topo                   Topology
}

// Limits of what procgen runs.
const (
	MaxStates = 256
	MaxBoard  = 1 << 12 // per side of a pattern read (.cells, .mc, .mcl)
	// MaxGrid is the most cells a side of a :T or :P grid may have: a
	// board of MaxGrid x MaxGrid cells is the largest field (2^31 - 1 cells)
	// the rules language holds.
	MaxGrid     = 46340
	MaxLtLCells = 121 // cells of a Larger-than-Life neighbourhood (R5 Moore): the code of a plane with dying states must fit rules.MaxCode
)

// Error is a notation that cannot be read; Col counts from 1.
type Error struct {
	Notation string
	Col      int
	Msg      string
}

func (e *Error) Error() string {
	return fmt.Sprintf("rule %q: column %d: %s", e.Notation, e.Col, e.Msg)
}

// Parse reads a Golly rule notation.
func Parse(s string) (Rule, error) {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' { // byte offsets are columns only in ASCII
			return Rule{}, &Error{s, i + 1, fmt.Sprintf("byte %#x: a rule is printable ASCII", s[i])}
		}
	}
	body, suffix, hasSuffix := strings.Cut(s, ":")
	var r Rule
	var err error
	trimmed := strings.TrimSpace(body)
	switch {
	case trimmed == "":
		return Rule{}, &Error{s, 1, "empty rule: want B3/S23, S23/B3, 23/3, /2/3 (Generations), R2,C0,M1,S2..3,B3..3,NM or Hensel letters (B2-a/S12)"}
	case strings.ContainsAny(trimmed, ",") || (len(trimmed) > 1 && (trimmed[0] == 'R' || trimmed[0] == 'r') && isDigit(trimmed[1])):
		r, err = parseLtL(s, trimmed)
	default:
		r, err = parseBS(s, trimmed)
	}
	if err != nil {
		return Rule{}, err
	}
	if hasSuffix {
		if r.Topo, err = parseTopology(s, len(body)+1, suffix); err != nil {
			return Rule{}, err
		}
		if r.Kind == LargerThanLife && (r.Topo.W < 2*r.Range || r.Topo.H < 2*r.Range) {
			return Rule{}, &Error{s, len(body) + 2, fmt.Sprintf("a %dx%d grid is smaller than twice the range %d", r.Topo.W, r.Topo.H, r.Range)}
		}
	}
	return r, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseTopology reads the part after ':' (col is its column - 1).
func parseTopology(s string, col int, t string) (Topology, error) {
	if t == "" {
		return Topology{}, &Error{s, col, "empty suffix after ':': want :T<width>,<height> or :P<width>,<height>"}
	}
	var topo Topology
	switch t[0] {
	case 'T', 't':
		topo.Torus = true
	case 'P', 'p':
	case 'K', 'k', 'C', 'c', 'S', 's':
		return Topology{}, &Error{s, col + 1, fmt.Sprintf("Golly's %q topology (Klein bottle, cross-surface, sphere) is not supported: use :T (torus) or :P (plane)", strings.ToUpper(t[:1]))}
	default:
		return Topology{}, &Error{s, col + 1, fmt.Sprintf("unknown topology %q: want :T<width>,<height> (torus) or :P<width>,<height> (plane)", t[:1])}
	}
	ws, hs, two := strings.Cut(t[1:], ",")
	if !two {
		hs = ws // Golly reads :T20 as 20x20
	}
	var err error
	if topo.W, err = gridSide(s, col+2, ws); err != nil {
		return Topology{}, err
	}
	if topo.H, err = gridSide(s, col+3+len(ws), hs); err != nil {
		return Topology{}, err
	}
	return topo, nil
}

func gridSide(s string, col int, v string) (int, error) {
	if strings.ContainsAny(v, "+-*") {
		return 0, &Error{s, col, fmt.Sprintf("%q: shifted or twisted edges are not supported", v)}
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil:
		return 0, &Error{s, col, fmt.Sprintf("grid size %q: want a number of cells", v)}
	case n == 0:
		return 0, &Error{s, col, "a size of 0 (an infinite side) is not supported: a procgen board is finite"}
	case n < 1 || n > MaxGrid:
		return 0, &Error{s, col, fmt.Sprintf("grid size %d: want 1..%d", n, MaxGrid)}
	}
	return n, nil
}

// parseBS reads the B/S families: B3/S23, S23/B3, B3S23, 23/3 (S/B),
// B3_S23, Generations B2/S/C3, B2/S/3 and /2/3 (S/B/C), a trailing V or H
// for the von Neumann or hexagonal neighbourhood, Hensel letters.
func parseBS(s, t string) (Rule, error) {
	r := Rule{Kind: Totalistic, Neigh: Moore, States: 2}
	switch t[len(t)-1] {
	case 'V', 'v':
		r.Neigh, t = VonNeumann, t[:len(t)-1]
	case 'H', 'h':
		r.Neigh, t = Hexagonal, t[:len(t)-1]
	}
	t = strings.ReplaceAll(t, "_", "/")
	parts := strings.Split(t, "/")
	if len(parts) > 3 {
		return Rule{}, &Error{s, 1, "more than three '/'-separated parts: want B/S, S/B or Generations' B/S/C"}
	}
	lettered := strings.ContainsAny(strings.ToUpper(t), "BS")
	if lettered && len(parts) == 1 { // B3S23: split before the S (or the B)
		u := strings.ToUpper(t)
		if i := strings.IndexAny(u[1:], "BS"); i >= 0 {
			parts = []string{t[:i+1], t[i+1:]}
		}
	}
	var seenB, seenS bool
	col := 1
	for i, p := range parts {
		u := strings.ToUpper(p)
		var kind byte
		switch {
		case lettered && u != "" && (u[0] == 'B' || u[0] == 'S' || u[0] == 'C'):
			kind, p = u[0], p[1:]
		case lettered && u == "":
			return Rule{}, &Error{s, col, "an empty part: want B<digits>, S<digits> or C<states>"}
		case lettered && i == 2:
			kind = 'C' // B2/S/3
		case lettered:
			return Rule{}, &Error{s, col, fmt.Sprintf("%q: want B<digits>, S<digits> or C<states>", p)}
		default: // S/B/C
			kind = "SBC"[i]
		}
		var err error
		switch kind {
		case 'B':
			if seenB {
				return Rule{}, &Error{s, col, "B given twice"}
			}
			seenB = true
			r.Birth, err = parseCounts(s, col+len(parts[i])-len(p), p, r.Neigh)
		case 'S':
			if seenS {
				return Rule{}, &Error{s, col, "S given twice"}
			}
			seenS = true
			r.Survive, err = parseCounts(s, col+len(parts[i])-len(p), p, r.Neigh)
		default:
			r.States, err = parseStates(s, col+len(parts[i])-len(p), p)
		}
		if err != nil {
			return Rule{}, err
		}
		col += len(parts[i]) + 1
	}
	if lettered && (!seenB || !seenS) {
		return Rule{}, &Error{s, 1, "want both B (birth) and S (survival) counts, e.g. B3/S23"}
	}
	if !lettered && len(parts) < 2 {
		return Rule{}, &Error{s, 1, "want S/B counts separated by '/' (23/3) or B and S (B3/S23)"}
	}
	if r.Birth[0] != 0 {
		return Rule{}, &Error{s, 1, "B0 (birth with no live neighbour) is not supported: Golly emulates it by inverting the grid every generation"}
	}
	return r, nil
}

func parseStates(s string, col int, p string) (int, error) {
	n, err := strconv.Atoi(p)
	if err != nil || n < 2 || n > MaxStates {
		return 0, &Error{s, col, fmt.Sprintf("number of states %q: want 2..%d", p, MaxStates)}
	}
	return n, nil
}

// parseCounts reads digits, each optionally followed by Hensel letters
// or '-' and the letters left out.
func parseCounts(s string, col int, p string, nb Neighbourhood) ([9]uint16, error) {
	var set [9]uint16
	maxN := map[Neighbourhood]int{Moore: 8, VonNeumann: 4, Hexagonal: 6}[nb]
	for i := 0; i < len(p); {
		c := p[i]
		if !isDigit(c) {
			return set, &Error{s, col + i, fmt.Sprintf("%q: want a neighbour count 0..%d", c, maxN)}
		}
		n := int(c - '0')
		if n > maxN {
			return set, &Error{s, col + i, fmt.Sprintf("%d neighbours: this neighbourhood has %d", n, maxN)}
		}
		if set[n] != 0 {
			return set, &Error{s, col + i, fmt.Sprintf("count %d given twice", n)}
		}
		i++
		all := uint16(1)<<max(len(henselLetters[n]), 1) - 1
		minus := i < len(p) && p[i] == '-'
		if minus {
			i++
		}
		var letters uint16
		for i < len(p) && p[i] >= 'a' && p[i] <= 'z' {
			k := strings.IndexByte(henselLetters[n], p[i])
			switch {
			case nb != Moore:
				return set, &Error{s, col + i, "Hensel letters need the Moore neighbourhood (no V or H suffix)"}
			case k < 0:
				return set, &Error{s, col + i, fmt.Sprintf("letter %q does not go with %d neighbours (allowed: %q)", p[i], n, henselLetters[n])}
			case letters&(1<<k) != 0:
				return set, &Error{s, col + i, fmt.Sprintf("letter %q given twice", p[i])}
			}
			letters |= 1 << k
			i++
		}
		switch {
		case minus && letters == 0:
			return set, &Error{s, col + i - 1, "'-' without letters after it"}
		case minus:
			letters = all &^ letters
		case letters == 0:
			letters = all
		}
		set[n] = letters
	}
	return set, nil
}

// parseLtL reads Rr,Cc,Mm,Smin..max,Bmin..max,Nn (MCell's and Golly's)
// and Evans's r,bmin,bmax,smin,smax.
func parseLtL(s, t string) (Rule, error) {
	r := Rule{Kind: LargerThanLife, Neigh: Moore, States: 2}
	parts := strings.Split(t, ",")
	if len(parts) == 5 && isDigit(t[0]) { // Evans: the middle cell counts
		var v [5]int
		col := 1
		for i, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || n < 0 {
				return Rule{}, &Error{s, col, fmt.Sprintf("%q: want a number (Evans's r,bmin,bmax,smin,smax)", p)}
			}
			v[i] = n
			col += len(p) + 1
		}
		r.Range, r.BMin, r.BMax, r.SMin, r.SMax, r.Middle = v[0], v[1], v[2], v[3], v[4], true
		return r, checkLtL(s, r)
	}
	if len(parts) != 6 {
		return Rule{}, &Error{s, 1, "want Rr,Cc,Mm,Smin..max,Bmin..max,Nn (R2,C0,M1,S2..3,B3..3,NM) or r,bmin,bmax,smin,smax"}
	}
	col := 1
	for i, p := range parts {
		want := "RCMSBN"[i]
		if p == "" || (p[0]&^0x20) != want {
			return Rule{}, &Error{s, col, fmt.Sprintf("%q: want %c here (Rr,Cc,Mm,Smin..max,Bmin..max,Nn)", p, want)}
		}
		v := p[1:]
		var err error
		switch want {
		case 'R':
			r.Range, err = ltlNumber(s, col+1, v, 1, 500)
		case 'C':
			var c int
			if c, err = ltlNumber(s, col+1, v, 0, MaxStates); err == nil {
				r.States = max(c, 2) // C0 and C1 are C2
			}
		case 'M':
			var m int
			m, err = ltlNumber(s, col+1, v, 0, 1)
			r.Middle = m == 1
		case 'S', 'B':
			lo, hi, ok := strings.Cut(v, "..")
			if !ok {
				return Rule{}, &Error{s, col + 1, fmt.Sprintf("%q: want an interval min..max", v)}
			}
			var a, b int
			if a, err = ltlNumber(s, col+1, lo, 0, 1<<30); err == nil {
				b, err = ltlNumber(s, col+3+len(lo), hi, 0, 1<<30)
			}
			if want == 'S' {
				r.SMin, r.SMax = a, b
			} else {
				r.BMin, r.BMax = a, b
			}
		case 'N':
			switch strings.ToUpper(v) {
			case "M":
				r.Neigh = Moore
			case "N":
				r.Neigh = VonNeumann
			case "C":
				r.Neigh = Circular
			default:
				return Rule{}, &Error{s, col + 1, fmt.Sprintf("neighbourhood %q: want M (Moore), N (von Neumann) or C (circular)", v)}
			}
		}
		if err != nil {
			return Rule{}, err
		}
		col += len(p) + 1
	}
	return r, checkLtL(s, r)
}

func ltlNumber(s string, col int, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, &Error{s, col, fmt.Sprintf("%q: want a number %d..%d", v, lo, hi)}
	}
	return n, nil
}

// checkLtL checks the intervals against the neighbourhood's size and the
// size procgen generates code for.
func checkLtL(s string, r Rule) error {
	full := r
	full.Middle = true // Golly's limits count the middle cell whether or not it counts
	size := len(ltlOffsets(full))
	switch {
	case r.Range < 1:
		return &Error{s, 1, "range 0: want R of 1 or more"}
	case size > MaxLtLCells:
		return &Error{s, 1, fmt.Sprintf("a range-%d %s neighbourhood has %d cells: procgen generates code for at most %d (R5 Moore)", r.Range, r.Neigh.name(), size, MaxLtLCells)}
	case r.SMin > r.SMax || r.BMin > r.BMax:
		return &Error{s, 1, "an interval min..max with min above max"}
	case r.SMax > size || r.BMax > size:
		return &Error{s, 1, fmt.Sprintf("a count above the neighbourhood's %d cells", size)}
	case r.BMin == 0:
		return &Error{s, 1, "B0 (birth with no live neighbour) is not supported"}
	}
	return nil
}

func (n Neighbourhood) name() string {
	return map[Neighbourhood]string{Moore: "Moore", VonNeumann: "von Neumann", Hexagonal: "hexagonal", Circular: "circular"}[n]
}

// ltlOffsets are the cells a Larger-than-Life cell counts, itself
// included when Middle.
func ltlOffsets(r Rule) [][2]int {
	var out [][2]int
	R := r.Range
	if R > 30 { // more than MaxLtLCells in any neighbourhood; checkLtL refuses it
		return make([][2]int, MaxLtLCells+1)
	}
	for dy := -R; dy <= R; dy++ {
		for dx := -R; dx <= R; dx++ {
			switch {
			case dx == 0 && dy == 0 && !r.Middle:
				continue
			case r.Neigh == VonNeumann && abs(dx)+abs(dy) > R:
				continue
			case r.Neigh == Circular && 4*(dx*dx+dy*dy) >= (2*R+1)*(2*R+1): // distance < R + 0.5
				continue
			}
			out = append(out, [2]int{dx, dy})
		}
	}
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
