package syntax

import (
	"bytes"
	"fmt"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// source is the input prepared for parsing: checked for bad bytes, with
// comments blanked to spaces so that every offset still points at the same
// byte of the original (positions in errors stay exact).
type source struct {
	file  string
	text  []byte  // the input with comments (and a leading BOM) blanked
	lines []int   // offset of each line's first byte
	close []int32 // close[i]: for '(' at i, the offset of its ')' in the same statement, else -1
}

const (
	arrowRune = "\u2192" // ABOP's arrow, accepted for "->"
	omegaRune = "\u03c9" // ABOP's axiom name, accepted for "axiom"
	deltaRune = "\u03b4" // ABOP's angle name, accepted for "delta"
	degRune   = "\u00b0" // degree sign, accepted after ABOP's angle
)

func newSource(file string, src []byte) (*source, error) {
	s := &source{file: file, text: append([]byte(nil), src...), lines: []int{0}}
	for i, b := range src {
		if b == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	if bytes.HasPrefix(s.text, []byte("\xef\xbb\xbf")) {
		copy(s.text, "   ")
	}
	if err := s.checkBytes(); err != nil {
		return nil, err
	}
	if err := s.blankComments(); err != nil {
		return nil, err
	}
	normalizeBook(s.text)
	s.matchParens()
	return s, nil
}

// checkBytes rejects what cannot be a text file: invalid UTF-8 and control
// characters other than white space, even inside comments.
func (s *source) checkBytes() error {
	t := s.text
	for i := 0; i < len(t); {
		b := t[i]
		if b < utf8.RuneSelf {
			if (b < ' ' && !isSpace(b) && b != '\n') || b == 0x7f {
				return s.errorf(i, "control character U+%04X: expected text", b)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(t[i:])
		if r == utf8.RuneError && n == 1 {
			return s.errorf(i, "invalid UTF-8 (byte 0x%02X): expected UTF-8 text", b)
		}
		if unicode.IsControl(r) {
			return s.errorf(i, "control character U+%04X: expected text", r)
		}
		i += n
	}
	return nil
}

// blankComments replaces /* ... */ and // comments by spaces. A block
// comment is white space, newlines included, as in C; "//" starts a comment
// only at the start of a line or after white space, so that ABOP's "B//"
// (two roll modules) keeps its meaning.
func (s *source) blankComments() error {
	t := s.text
	for i := 0; i < len(t); {
		if t[i] != '/' || i+1 >= len(t) {
			i++
			continue
		}
		switch {
		case t[i+1] == '*':
			n := bytes.Index(t[i+2:], []byte("*/"))
			if n < 0 {
				return s.errorf(i, "unterminated comment: expected */ before the end of the file")
			}
			end := i + 2 + n + 2
			for k := i; k < end; k++ {
				t[k] = ' '
			}
			i = end
		case t[i+1] == '/' && (i == 0 || isSpace(t[i-1]) || t[i-1] == '\n'):
			for i < len(t) && t[i] != '\n' {
				t[i] = ' '
				i++
			}
		default:
			i++
		}
	}
	return nil
}

// matchParens pairs parentheses within each statement (line), so that
// finding the ')' of a "-(p)->" arrow costs O(1) however long the line.
func (s *source) matchParens() {
	s.close = make([]int32, len(s.text))
	var stack []int
	for i, b := range s.text {
		s.close[i] = -1
		switch b {
		case '\n':
			stack = stack[:0]
		case '(':
			stack = append(stack, i)
		case ')':
			if n := len(stack); n > 0 {
				s.close[stack[n-1]] = int32(i)
				stack = stack[:n-1]
			}
		}
	}
}

// statements calls f with the bounds of each line of the blanked text.
func (s *source) statements(f func(start, end int) error) error {
	for start := 0; start <= len(s.text); {
		end := bytes.IndexByte(s.text[start:], '\n')
		if end < 0 {
			end = len(s.text)
		} else {
			end += start
		}
		if err := f(start, end); err != nil {
			return err
		}
		start = end + 1
	}
	return nil
}

// pos converts a byte offset to a 1-based line and byte column.
func (s *source) pos(off int) lsys.Pos {
	line := sort.Search(len(s.lines), func(k int) bool { return s.lines[k] > off }) - 1
	if line < 0 {
		line = 0
	}
	return lsys.Pos{File: s.file, Line: line + 1, Col: off - s.lines[line] + 1}
}

func (s *source) hasPrefix(i, end int, prefix string) bool {
	return end-i >= len(prefix) && string(s.text[i:i+len(prefix)]) == prefix
}

// arrow is a successor arrow found in the text: "->", "-->", "→", or ABOP's
// stochastic "-(p)->" (also "--(p)-->"), whose probability lies between
// open and close (-1 when there is none).
type arrow struct {
	end, open, close int
}

// arrowAt reports whether a successor arrow starts at offset i. Arrows hold
// no white space outside the probability's parentheses: "-(x) -> F" is the
// module -(x) followed by an arrow, "F -(0.3)-> G" a stochastic arrow.
func (s *source) arrowAt(i, end int) (arrow, bool) {
	t := s.text
	if s.hasPrefix(i, end, arrowRune) {
		return arrow{end: i + len(arrowRune), open: -1, close: -1}, true
	}
	dashes := func(j int) int {
		n := 0
		for j+n < end && t[j+n] == '-' && n < 2 {
			n++
		}
		return n
	}
	d := dashes(i)
	if d == 0 {
		return arrow{}, false
	}
	j := i + d
	if j < end && t[j] == '>' {
		return arrow{end: j + 1, open: -1, close: -1}, true
	}
	if j >= end || t[j] != '(' || s.close[j] < 0 || int(s.close[j]) >= end {
		return arrow{}, false
	}
	open, cl := j, int(s.close[j])
	k := cl + 1
	if s.hasPrefix(k, end, arrowRune) {
		return arrow{end: k + len(arrowRune), open: open, close: cl}, true
	}
	if d2 := dashes(k); d2 > 0 && k+d2 < end && t[k+d2] == '>' {
		return arrow{end: k + d2 + 1, open: open, close: cl}, true
	}
	return arrow{}, false
}

// hasArrow reports whether the statement holds "->" or "→" anywhere: only
// such a line can be a production.
func (s *source) hasArrow(i, end int) bool {
	line := s.text[i:end]
	return bytes.Contains(line, []byte("->")) || bytes.Contains(line, []byte(arrowRune))
}

// describe names what stands at offset i, for "expected X, found Y".
func (s *source) describe(i, end int) string {
	if i >= end {
		return "end of line"
	}
	t := s.text
	if a, ok := s.arrowAt(i, end); ok {
		return fmt.Sprintf("arrow %q", t[i:a.end])
	}
	b := t[i]
	switch {
	case b >= utf8.RuneSelf:
		r, _ := utf8.DecodeRune(t[i:end])
		return fmt.Sprintf("%q (U+%04X)", r, r)
	case isIdentStart(b):
		j := i
		for j < end && isIdentPart(t[j]) {
			j++
		}
		if j-i > 1 {
			return quote(string(t[i:j]))
		}
	case isDigit(b):
		j := i
		for j < end && (isDigit(t[j]) || t[j] == '.') {
			j++
		}
		if j-i > 1 {
			return quote(string(t[i:j]))
		}
	}
	return fmt.Sprintf("%q", rune(b))
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\r' || b == '\v' || b == '\f'
}

func isLetter(b byte) bool     { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
func isDigit(b byte) bool      { return b >= '0' && b <= '9' }
func isIdentStart(b byte) bool { return isLetter(b) || b == '_' }
func isIdentPart(b byte) bool  { return isIdentStart(b) || isDigit(b) }

// isModule reports whether b can name a module: any printable ASCII
// character except the five that delimit productions and parameters.
func isModule(b byte) bool {
	if b <= ' ' || b >= 0x7f {
		return false
	}
	switch b {
	case '(', ')', '<', '>', ':':
		return false
	}
	return true
}
