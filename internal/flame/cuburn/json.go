package cuburn

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads the JSON of cuburn's genome documents (nodes, edges and
// profiles) into a tree that remembers where every value stood, so that a
// bad value deep in an edge is reported as file:line:col. encoding/json
// gives only byte offsets for syntax errors and none for values; it also
// rejects Python's NaN and Infinity outright, which cuburn's json module
// writes, and which must be reported as a non-finite spline knot.

// ErrInvalid is wrapped by errors for cuburn documents (nodes, edges, profiles) that cannot be read or
// animated as written.
var ErrInvalid = errors.New("invalid cuburn document")

// jkind is the type of a JSON value.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

func (k jkind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "a list", "an object"}[k]
}

// jval is one JSON value and its byte offset in its document.
type jval struct {
	kind jkind
	pos  int
	num  float64
	str  string // string value; for a number, its text
	b    bool
	arr  []*jval
	keys []string // object keys in document order
	vals []*jval
	doc  *jdoc
}

// jdoc is a parsed document: its name and text, for positions.
type jdoc struct {
	name string
	data []byte
	root *jval
}

// maxJSONDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxJSONDepth = 64

// maxJSONBytes bounds one document.
const maxJSONBytes = 64 << 20

// lineCol turns a byte offset into a 1-based line and column (columns count
// characters, as editors do).
func lineCol(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	line = 1
	start := 0
	for i := 0; i < off; i++ {
		if data[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCount(data[start:off]) + 1
}

// errAt is an error about the value at byte offset off of document d.
func (d *jdoc) errAt(off int, format string, args ...any) error {
	line, col := lineCol(d.data, off)
	return fmt.Errorf("flame: %s:%d:%d: %w: %s", d.name, line, col, ErrInvalid, fmt.Sprintf(format, args...))
}

// errf is an error about v.
func (v *jval) errf(format string, args ...any) error {
	return v.doc.errAt(v.pos, format, args...)
}

// get returns the member named key of an object, or nil.
func (v *jval) get(key string) *jval {
	if v == nil || v.kind != jObj {
		return nil
	}
	for i := len(v.keys) - 1; i >= 0; i-- { // the last duplicate wins, as in Python
		if v.keys[i] == key {
			return v.vals[i]
		}
	}
	return nil
}

// parseJSON parses one document.
func parseJSON(data []byte, name string) (*jdoc, error) {
	d := &jdoc{name: name, data: data}
	if len(data) > maxJSONBytes {
		return nil, d.errAt(0, "document over %d MiB", maxJSONBytes>>20)
	}
	p := &jparser{d: d}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i < len(data) {
		return nil, d.errAt(p.i, "unexpected %s after the document: want the end of the file", p.near())
	}
	d.root = v
	return d, nil
}

type jparser struct {
	d *jdoc
	i int
}

func (p *jparser) ws() {
	for p.i < len(p.d.data) {
		switch p.d.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// near describes the input at the cursor for messages.
func (p *jparser) near() string {
	if p.i >= len(p.d.data) {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.d.data[p.i:])
	return strconv.QuoteRune(r)
}

func (p *jparser) value(depth int) (*jval, error) {
	if depth > maxJSONDepth {
		return nil, p.d.errAt(p.i, "nesting deeper than %d", maxJSONDepth)
	}
	data := p.d.data
	if p.i >= len(data) {
		return nil, p.d.errAt(p.i, "unexpected end of file: want a value")
	}
	v := &jval{pos: p.i, doc: p.d}
	switch c := data[p.i]; {
	case c == '{':
		v.kind = jObj
		p.i++
		p.ws()
		if p.i < len(data) && data[p.i] == '}' {
			p.i++
			return v, nil
		}
		for {
			p.ws()
			if p.i >= len(data) || data[p.i] != '"' {
				return nil, p.d.errAt(p.i, "unexpected %s: want a quoted key", p.near())
			}
			k, err := p.string()
			if err != nil {
				return nil, err
			}
			p.ws()
			if p.i >= len(data) || data[p.i] != ':' {
				return nil, p.d.errAt(p.i, "unexpected %s: want ':' after key %q", p.near(), k)
			}
			p.i++
			p.ws()
			e, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.keys, v.vals = append(v.keys, k), append(v.vals, e)
			p.ws()
			if p.i < len(data) && data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(data) && data[p.i] == '}' {
				p.i++
				return v, nil
			}
			return nil, p.d.errAt(p.i, "unexpected %s: want ',' or '}'", p.near())
		}
	case c == '[':
		v.kind = jArr
		p.i++
		p.ws()
		if p.i < len(data) && data[p.i] == ']' {
			p.i++
			return v, nil
		}
		for {
			p.ws()
			e, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, e)
			p.ws()
			if p.i < len(data) && data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(data) && data[p.i] == ']' {
				p.i++
				return v, nil
			}
			return nil, p.d.errAt(p.i, "unexpected %s: want ',' or ']'", p.near())
		}
	case c == '"':
		v.kind = jStr
		s, err := p.string()
		v.str = s
		return v, err
	case c == '-' || c >= '0' && c <= '9' || c == 'N' || c == 'I':
		return p.number(v)
	default:
		for _, lit := range []struct {
			word string
			kind jkind
			b    bool
		}{{"true", jBool, true}, {"false", jBool, false}, {"null", jNull, false}} {
			if strings.HasPrefix(string(data[p.i:min(len(data), p.i+5)]), lit.word) {
				p.i += len(lit.word)
				v.kind, v.b = lit.kind, lit.b
				return v, nil
			}
		}
	}
	return nil, p.d.errAt(p.i, "unexpected %s: want a value", p.near())
}

// number reads a JSON number. Python's NaN, Infinity and -Infinity, and
// numbers too large for a float64, are refused: a genome value must be
// finite.
func (p *jparser) number(v *jval) (*jval, error) {
	data := p.d.data
	start := p.i
	for _, w := range []string{"NaN", "Infinity", "-Infinity"} {
		if strings.HasPrefix(string(data[start:min(len(data), start+len(w))]), w) {
			return nil, p.d.errAt(start, "%s is not a finite number: every value and spline knot must be finite", w)
		}
	}
	if data[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(data) && data[p.i] >= '0' && data[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(data) && data[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, p.d.errAt(p.i, "unexpected %s: want a digit", p.near())
	}
	if p.i < len(data) && data[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.d.errAt(p.i, "unexpected %s: want a digit after '.'", p.near())
		}
	}
	if p.i < len(data) && (data[p.i] == 'e' || data[p.i] == 'E') {
		p.i++
		if p.i < len(data) && (data[p.i] == '+' || data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.d.errAt(p.i, "unexpected %s: want an exponent", p.near())
		}
	}
	v.kind, v.str = jNum, string(data[start:p.i])
	f, err := strconv.ParseFloat(v.str, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, p.d.errAt(start, "%s is not a finite number: every value and spline knot must be finite", v.str)
	}
	v.num = f
	return v, nil
}

func (p *jparser) string() (string, error) {
	data := p.d.data
	start := p.i
	p.i++ // opening quote
	var b strings.Builder
	for {
		if p.i >= len(data) {
			return "", p.d.errAt(start, "unterminated string")
		}
		c := data[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.d.errAt(p.i, "control character in a string")
		case c == '\\':
			if p.i+1 >= len(data) {
				return "", p.d.errAt(start, "unterminated string")
			}
			e := data[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if p.i+4 > len(data) {
					return "", p.d.errAt(p.i-2, "bad \\u escape")
				}
				n, err := strconv.ParseUint(string(data[p.i:p.i+4]), 16, 32)
				if err != nil {
					return "", p.d.errAt(p.i-2, "bad \\u escape")
				}
				p.i += 4
				b.WriteRune(rune(n))
			default:
				return "", p.d.errAt(p.i-2, "bad escape \\%c", e)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}
