package syntax

import (
	"errors"
	"strconv"
	"strings"
)

// cursor walks one statement, the bytes [i, end) of the blanked text.
type cursor struct {
	s   *source
	i   int
	end int
}

func (c *cursor) skip() {
	for c.i < c.end && isSpace(c.s.text[c.i]) {
		c.i++
	}
}

func (c *cursor) atEnd() bool { return c.i >= c.end }

// peek returns the byte at the cursor, 0 at the end of the statement.
func (c *cursor) peek() byte { return c.peekAt(0) }

func (c *cursor) peekAt(k int) byte {
	if c.i+k < c.end {
		return c.s.text[c.i+k]
	}
	return 0
}

func (c *cursor) has(prefix string) bool { return c.s.hasPrefix(c.i, c.end, prefix) }

func (c *cursor) arrow() (arrow, bool) { return c.s.arrowAt(c.i, c.end) }

// found names what stands at the cursor.
func (c *cursor) found() string { return c.s.describe(c.i, c.end) }

func (c *cursor) errorf(off int, format string, args ...any) *Error {
	return c.s.errorf(off, format, args...)
}

// expectEnd reports anything but white space left in the statement.
func (c *cursor) expectEnd(what string) error {
	c.skip()
	if !c.atEnd() {
		return c.errorf(c.i, "expected end of line after %s, found %s", what, c.found())
	}
	return nil
}

// ident reads an identifier at the cursor ("" when none starts there).
func (c *cursor) ident() string {
	start := c.i
	if c.i < c.end && isIdentStart(c.s.text[c.i]) {
		for c.i < c.end && isIdentPart(c.s.text[c.i]) {
			c.i++
		}
	}
	return string(c.s.text[start:c.i])
}

// number reads a decimal number: digits with an optional fraction and
// exponent, or a fraction alone (".5").
func (c *cursor) number() (float64, error) {
	start := c.i
	digits := func() {
		for c.i < c.end && isDigit(c.s.text[c.i]) {
			c.i++
		}
	}
	digits()
	if c.peek() == '.' {
		c.i++
		digits()
	}
	if b := c.peek(); b == 'e' || b == 'E' {
		k := 1
		if s := c.peekAt(1); s == '+' || s == '-' {
			k = 2
		}
		if isDigit(c.peekAt(k)) {
			c.i += k
			digits()
		}
	}
	text := string(c.s.text[start:c.i])
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, c.errorf(start, "number %s is out of range: expected at most about 1.8e308", quote(text))
		}
		return 0, c.errorf(start, "malformed number %s", quote(text))
	}
	return v, nil
}

// textOf returns the source text of [start, end) without surrounding space.
func (c *cursor) textOf(start, end int) string {
	return strings.TrimSpace(string(c.s.text[start:end]))
}

// fields splits [start, end) into the ranges of its values: at top-level
// commas when there is one (or always when commasOnly), else at white space
// ("tropism: 0 -1 0 0.2").
func (s *source) fields(start, end int, commasOnly bool) [][2]int {
	var out [][2]int
	depth, from, commas := 0, start, false
	for i := start; i < end; i++ {
		switch s.text[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				commas = true
				out = append(out, [2]int{from, i})
				from = i + 1
			}
		}
	}
	if commas || commasOnly {
		return append(out, [2]int{from, end})
	}
	out = out[:0]
	for i := start; i < end; {
		for i < end && isSpace(s.text[i]) {
			i++
		}
		if i == end {
			break
		}
		j := i
		for j < end && !isSpace(s.text[j]) {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}
