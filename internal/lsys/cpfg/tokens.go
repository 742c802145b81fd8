// Package cpfg reads the file formats of cpfg (the L-system plant modeller
// of the University of Calgary's virtual laboratory, vlab/L-studio) that a
// plant brings along beside its .l file: surface files (.s, bicubic Bézier
// patches placed by ~) and colour maps (.map).
package cpfg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// token is one whitespace-separated word of a text file and where it
// starts (1-based line and column, in bytes).
type token struct {
	text      string
	line, col int
}

// tokens splits data into words. cpfg reads surface files with scanf, so
// line breaks are whitespace like any other; a word ending in ':' is cut
// after it ("X:1.5" is "X:" and "1.5"), as scanf matches the literal and
// then the number.
func tokenize(data []byte) []token {
	var out []token
	line, col := 1, 1
	i := 0
	for i < len(data) {
		c := data[i]
		switch c {
		case '\n':
			line, col = line+1, 1
			i++
			continue
		case ' ', '\t', '\r', '\v', '\f':
			col++
			i++
			continue
		}
		j := i
		for j < len(data) && !isSpace(data[j]) {
			j++
			if data[j-1] == ':' {
				break
			}
		}
		out = append(out, token{string(data[i:j]), line, col})
		col += j - i
		i = j
	}
	return out
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// scanner walks the tokens of one file; errors name file:line:col.
type scanner struct {
	name string
	toks []token
	at   int
	// end is where the file ends, for errors about a missing word.
	endLine, endCol int
}

func newScanner(name string, data []byte) *scanner {
	s := &scanner{name: name, toks: tokenize(data), endLine: 1, endCol: 1}
	for _, c := range data {
		if c == '\n' {
			s.endLine, s.endCol = s.endLine+1, 1
		} else {
			s.endCol++
		}
	}
	return s
}

func (s *scanner) done() bool { return s.at >= len(s.toks) }

// peek is the next token, or an empty one at the end of the file.
func (s *scanner) peek() token {
	if s.done() {
		return token{line: s.endLine, col: s.endCol}
	}
	return s.toks[s.at]
}

func (s *scanner) errorf(t token, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", s.name, t.line, t.col, fmt.Sprintf(format, args...))
}

// found describes t for an error: the word, or the end of the file.
func found(t token) string {
	if t.text == "" {
		return "the end of the file"
	}
	return strconv.Quote(t.text)
}

// word is the next token, which must exist; what says what was expected.
func (s *scanner) word(what string) (token, error) {
	t := s.peek()
	if s.done() {
		return t, s.errorf(t, "expected %s, found the end of the file", what)
	}
	s.at++
	return t, nil
}

// literal consumes the words of lit (space-separated), each exactly.
func (s *scanner) literal(lit string) error {
	for _, w := range strings.Fields(lit) {
		t := s.peek()
		if t.text != w {
			return s.errorf(t, "expected %q, found %s", lit, found(t))
		}
		s.at++
	}
	return nil
}

// number is the next word as a finite number; what names it for errors.
func (s *scanner) number(what string) (float64, token, error) {
	t := s.peek()
	v, err := strconv.ParseFloat(t.text, 64)
	if s.done() || err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, t, s.errorf(t, "expected %s (a finite number), found %s", what, found(t))
	}
	s.at++
	return v, t, nil
}

// integer is the next word as an integer in lo..hi.
func (s *scanner) integer(what string, lo, hi int) (int, error) {
	t := s.peek()
	v, err := strconv.Atoi(t.text)
	if s.done() || err != nil {
		return 0, s.errorf(t, "expected %s (an integer), found %s", what, found(t))
	}
	if v < lo || v > hi {
		return 0, s.errorf(t, "%s %d: want %d..%d", what, v, lo, hi)
	}
	s.at++
	return v, nil
}

// labelled reads "L1 x L2 y L3 z" (e.g. "X: 1 Y: 2 Z: 3"): a number after
// each label.
func (s *scanner) labelled(what string, labels ...string) ([]float64, error) {
	out := make([]float64, len(labels))
	for i, l := range labels {
		if err := s.literal(l); err != nil {
			return nil, err
		}
		v, _, err := s.number(what + " " + strings.TrimSuffix(l, ":"))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
