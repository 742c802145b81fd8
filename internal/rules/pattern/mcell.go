package pattern

import (
	"fmt"
	"strconv"
	"strings"
)

// MCell's format (.mcl): a "#MCell" line, then '#' lines: "#GAME" the
// family, "#RULE" its rule in MCell's form, "#BOARD WxH" and "#WRAP 0|1"
// the board, "#L" lines of the pattern, "#D" and others ignored. The #L
// lines join into one run-length encoding: an optional count, then '.'
// (state 0), 'A'..'X' (states 1..24), a prefix 'a'..'j' and 'A'..'X'
// (states 24k+1.., as Golly's RLE writes 'p'..'y'), or '$' (the end of
// a row). The pattern is centred on the board.

// mcellGame reports whether procgen runs the MCell family game, and its
// default rule ("" for none). Golly's notation reads the #RULE of each
// as it stands: MCell's Life rule is S/B, Generations S/B/C and Larger
// than Life Golly's own form.
func mcellGame(game string) (string, bool) {
	switch game {
	case "life":
		return "23/3", true
	case "generations", "larger than life":
		return "", true
	}
	return "", false
}

// ReadMCell reads an MCell file. Its Rule is Golly's notation of the
// #GAME and #RULE lines, with ":T" (#WRAP 1) or ":P" and the #BOARD size
// as Golly reads them; the grid must fit maxW x maxH.
func ReadMCell(data []byte, file string, maxW, maxH int) (*Pattern, error) {
	ls := lines(data)
	if len(ls) == 0 || !strings.HasPrefix(ls[0], "#MCell") {
		return nil, errorf(file, 1, 1, "not an MCell file: want a first line starting with #MCell")
	}
	game, gameLine, rule, ruleLine, board, wrap := "life", 0, "", 0, "", false
	var body []byte
	var where [][2]int // the line and column of each byte of body
	for i, ln := range ls[1:] {
		lineNo := i + 2
		key, val, _ := strings.Cut(ln, " ")
		val = strings.TrimSpace(val)
		switch key {
		case "#GAME":
			game, gameLine = strings.ToLower(val), lineNo
		case "#RULE":
			rule, ruleLine = val, lineNo
		case "#BOARD":
			board = val
		case "#WRAP":
			wrap = val == "1"
		case "#P":
			return nil, errorf(file, lineNo, 1, "#P blocks are not supported (give the pattern as #L lines from its top-left)")
		case "#L":
			for k := 3; k < len(ln); k++ {
				if ln[k] != ' ' && ln[k] != '\t' && ln[k] != '\r' {
					body = append(body, ln[k])
					where = append(where, [2]int{lineNo, k + 1})
				}
			}
		default:
			if !strings.HasPrefix(ln, "#") && strings.TrimSpace(ln) != "" {
				return nil, errorf(file, lineNo, 1, "want a line starting with '#' (#GAME, #RULE, #BOARD, #WRAP, #L, #D)")
			}
		}
	}
	def, ok := mcellGame(game)
	if !ok {
		return nil, errorf(file, gameLine, 7, "#GAME %s: procgen runs MCell's Life, Generations and Larger than Life", game)
	}
	if rule == "" {
		if def == "" {
			return nil, errorf(file, len(ls), 0, "no #RULE line")
		}
		rule = def
	}
	if board != "" {
		w, h, ok := strings.Cut(board, "x")
		wn, e1 := strconv.Atoi(w)
		hn, e2 := strconv.Atoi(h)
		if !ok || e1 != nil || e2 != nil || wn < 1 || hn < 1 {
			return nil, errorf(file, len(ls), 0, "#BOARD %s: want WIDTHxHEIGHT", board)
		}
		suffix := ":P"
		if wrap {
			suffix = ":T"
		}
		rule += fmt.Sprintf("%s%d,%d", suffix, wn, hn)
	}
	p, err := mcellBody(body, where, file, maxW, maxH)
	if err != nil {
		return nil, err
	}
	p.Rule, p.RuleLine, p.Centred = rule, max(ruleLine, 1), true
	return p, nil
}

// mcellBody decodes the joined #L lines.
func mcellBody(body []byte, where [][2]int, file string, maxW, maxH int) (*Pattern, error) {
	type run struct {
		x, y, n int
		v       uint8
	}
	var runs []run
	x, y, w, count := 0, 0, 0, 0
	for i := 0; i < len(body); i++ {
		c := body[i]
		pos := where[i]
		switch {
		case c >= '0' && c <= '9':
			if count = count*10 + int(c-'0'); count > maxW*maxH+maxH {
				return nil, errorf(file, pos[0], pos[1], "run of %d is longer than the board", count)
			}
			continue
		case c == '$':
			y += max(count, 1)
			x, count = 0, 0
			if y >= maxH {
				return nil, errorf(file, pos[0], pos[1], "the pattern is taller than the board's %d rows", maxH)
			}
			continue
		}
		var v int
		switch {
		case c == '.':
		case c >= 'A' && c <= 'X':
			v = int(c-'A') + 1
		case c >= 'a' && c <= 'j' && i+1 < len(body) && body[i+1] >= 'A' && body[i+1] <= 'X':
			i++
			if v = 24*int(c-'a'+1) + int(body[i]-'A') + 1; v > MaxState {
				return nil, errorf(file, pos[0], pos[1], "state %d: want at most %d", v, MaxState)
			}
		default:
			return nil, errorf(file, pos[0], pos[1], "unexpected %q: want a count, '.', 'A'..'X', 'a'..'j' then 'A'..'X', or '$'", c)
		}
		n := max(count, 1)
		count = 0
		if x+n > maxW {
			return nil, errorf(file, pos[0], pos[1], "the pattern is wider than the board's %d cells", maxW)
		}
		if v != 0 {
			runs = append(runs, run{x, y, n, uint8(v)})
		}
		x += n
		w = max(w, x)
	}
	h := 0
	for _, r := range runs {
		h = max(h, r.y+1)
	}
	p := &Pattern{W: w, H: h, Cells: make([]uint8, w*h)}
	for _, r := range runs {
		for k := range r.n {
			p.Cells[r.y*w+r.x+k] = r.v
		}
	}
	return p, nil
}
