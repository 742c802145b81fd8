package rules

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Golly's run-length encoded patterns (RLE), for the board of a program
// (BoardOf): `#` comment lines, a header `x = W, y = H[, rule = ...]`, then
// runs `<count><tag>` with the count optional (1): `b` or `.` a dead cell
// (0), `o` a live one (1), `A`..`X` states 1..24 and `pA`..`yO` states
// 25..255 (Golly's multi-state cells), `$` the end of a row, `!` the end of
// the pattern. A pattern smaller than the board lands in its top-left
// corner; the rest of the board is 0.

// MaxRLEState is the largest cell state RLE writes.
const MaxRLEState = 255

// ReadStatesRLE reads one state from an RLE pattern: the board from the
// pattern, every other field its default (a field without one is an
// error).
func ReadStatesRLE(r io.Reader, name string, p *Program) (*States, error) {
	b, err := BoardOf(p)
	if err != nil {
		return nil, err
	}
	for fi, f := range p.Fields {
		if fi != b.Field && !f.HasDef {
			return nil, fmt.Errorf("%s: field %q has no default value: an RLE pattern sets only the board %q (give a JSON or CSV state file)",
				name, f.Name, p.Fields[b.Field].Name)
		}
	}
	cells, w, h, err := parseRLE(r, name, b.W, b.H)
	if err != nil {
		return nil, err
	}
	st := NewStates(p, 1)
	f := p.Fields[b.Field]
	dst := st.State(0)[f.Off : f.Off+f.Size]
	for k := range dst {
		dst[k] = 0
	}
	for y := range h {
		for x := range w {
			dst[y*b.W+x] = uint32(cells[y*w+x])
		}
	}
	return st, nil
}

// rleReader reads an RLE file byte by byte, knowing the line and column.
type rleReader struct {
	br        *bufio.Reader
	name      string
	line, col int
}

func (r *rleReader) errorf(line, col int, format string, a ...any) error {
	return &Error{File: r.name, Pos: Pos{Line: line, Col: col}, Msg: fmt.Sprintf(format, a...)}
}

// next returns the next byte and its position; 0 at the end.
func (r *rleReader) next() (byte, int, int, error) {
	c, err := r.br.ReadByte()
	if err == io.EOF {
		return 0, r.line, r.col + 1, nil
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %w", r.name, err)
	}
	if c == '\n' {
		r.line, r.col = r.line+1, 0
		return c, r.line - 1, 0, nil
	}
	r.col++
	return c, r.line, r.col, nil
}

// parseRLE returns the pattern's cells, w x h (row-major), checked to fit
// a board of bw x bh.
func parseRLE(in io.Reader, name string, bw, bh int) ([]uint8, int, int, error) {
	r := &rleReader{br: bufio.NewReader(in), name: name, line: 1}
	// Comment lines, then the header.
	var header string
	for {
		line, err := r.br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, 0, 0, fmt.Errorf("%s: %w", name, err)
		}
		t := strings.TrimSpace(line)
		if t == "" && err == io.EOF {
			return nil, 0, 0, r.errorf(r.line, 1, "no header: want \"x = W, y = H\"")
		}
		if t != "" && !strings.HasPrefix(t, "#") {
			header = t
			r.line++
			break
		}
		r.line++
	}
	w, h, _, err := parseRLEHeader(header)
	if err != nil {
		return nil, 0, 0, r.errorf(r.line-1, 1, "%v", err)
	}
	if w > bw || h > bh {
		return nil, 0, 0, r.errorf(r.line-1, 1, "the pattern is %dx%d, larger than the board of %dx%d", w, h, bw, bh)
	}
	cells := make([]uint8, w*h)
	x, y, count := 0, 0, 0
	countLine, countCol := 0, 0
	for {
		c, line, col, err := r.next()
		if err != nil {
			return nil, 0, 0, err
		}
		switch {
		case c >= '0' && c <= '9':
			if count == 0 {
				countLine, countCol = line, col
			}
			if count = count*10 + int(c-'0'); count > bw*bh+bh {
				return nil, 0, 0, r.errorf(countLine, countCol, "run of %d is longer than the board", count)
			}
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			if count != 0 && c != '\n' && c != '\r' {
				return nil, 0, 0, r.errorf(line, col, "space inside a run count")
			}
			continue
		case c == 0:
			return nil, 0, 0, r.errorf(line, col, "the pattern ends without '!'")
		case c == '!':
			if count != 0 {
				return nil, 0, 0, r.errorf(line, col, "a run count before '!' (want a cell or '$')")
			}
			return cells, w, h, nil
		}
		n := max(count, 1)
		count = 0
		if c == '$' {
			if y += n; y > h {
				return nil, 0, 0, r.errorf(line, col, "row %d is past the pattern's height %d", y+1, h)
			}
			x = 0
			continue
		}
		state, err := r.cellState(c, line, col)
		if err != nil {
			return nil, 0, 0, err
		}
		if y >= h || x+n > w {
			return nil, 0, 0, r.errorf(line, col, "cells past the pattern's %dx%d (row %d, column %d)", w, h, y+1, x+n)
		}
		for k := range n {
			cells[y*w+x+k] = state
		}
		x += n
	}
}

// cellState decodes the cell tag c (and, after a prefix p..y, the letter
// that follows).
func (r *rleReader) cellState(c byte, line, col int) (uint8, error) {
	switch {
	case c == 'b' || c == '.':
		return 0, nil
	case c == 'o':
		return 1, nil
	case c >= 'A' && c <= 'X':
		return c - 'A' + 1, nil
	case c >= 'p' && c <= 'y':
		d, _, _, err := r.next()
		if err != nil {
			return 0, err
		}
		s := 24*int(c-'p'+1) + int(d-'A') + 1
		if d < 'A' || d > 'X' || s > MaxRLEState {
			return 0, r.errorf(line, col, "bad multi-state cell %q (want p..y then A..X, at most state %d)", string([]byte{c, d}), MaxRLEState)
		}
		return uint8(s), nil
	}
	return 0, r.errorf(line, col, "unexpected %q: want a run count, b, o, ., A-X, pA-yO, $ or !", c)
}

// parseRLEHeader reads `x = W, y = H[, rule = RULE]`: the rule is the
// rest of the line (Golly's rules hold commas: R2,C0,...; :T40,40), other
// keys are ignored.
func parseRLEHeader(s string) (int, int, string, error) {
	w, h, rule := -1, -1, ""
	head := s
	if i := strings.Index(s, "rule"); i > 0 && strings.HasSuffix(strings.TrimSpace(s[:i]), ",") {
		k, v, _ := strings.Cut(s[i:], "=")
		if strings.TrimSpace(k) == "rule" {
			head, rule = strings.TrimSuffix(strings.TrimSpace(s[:i]), ","), strings.TrimSpace(v)
		}
	}
	for _, part := range strings.Split(head, ",") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return 0, 0, "", fmt.Errorf("header %q: want \"x = W, y = H\"", s)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k != "x" && k != "y" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1<<20 {
			return 0, 0, "", fmt.Errorf("header: %s = %q: want a size 0..%d", k, v, 1<<20)
		}
		if k == "x" {
			w = n
		} else {
			h = n
		}
	}
	if w < 0 || h < 0 {
		return 0, 0, "", fmt.Errorf("header %q: want \"x = W, y = H\"", s)
	}
	return w, h, rule, nil
}

// RLERule returns the rule of an RLE pattern's header ("" when it has
// none) and the header's line, to name in messages.
func RLERule(in io.Reader, name string) (string, int, error) {
	br := bufio.NewReader(in)
	for line := 1; ; line++ {
		s, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return "", 0, fmt.Errorf("%s: %w", name, err)
		}
		t := strings.TrimSpace(s)
		if t != "" && !strings.HasPrefix(t, "#") {
			_, _, rule, herr := parseRLEHeader(t)
			if herr != nil {
				return "", 0, &Error{File: name, Pos: Pos{Line: line, Col: 1}, Msg: herr.Error()}
			}
			return rule, line, nil
		}
		if err == io.EOF {
			return "", 0, &Error{File: name, Pos: Pos{Line: line, Col: 1}, Msg: "no header: want \"x = W, y = H\""}
		}
	}
}
