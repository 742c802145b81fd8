package pga

import (
	"fmt"
	"strconv"
)

// Pos is a place in a grammar source, 1-based.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// SyntaxError is a problem in grammar source, located at file:line:col.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string { return e.Pos.String() + ": " + e.Msg }

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tPunct  // ( ) { } | : ; , = + - * / < > <= >= == !=
	tString // "..." on one line, no escapes: a texture file or a colour (texture.go)
)

type token struct {
	kind tokKind
	text string
	num  float64
	pos  Pos
}

// describe names a token the way "expected X, found Y" messages show it.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return fmt.Sprintf("identifier %q", t.text)
	case tNumber:
		return fmt.Sprintf("number %s", t.text)
	case tString:
		return fmt.Sprintf("string %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// lex splits src into tokens; comments (// and /* */) and white space vanish.
func lex(file string, src []byte) ([]token, error) {
	var toks []token
	line, col := 1, 1
	i := 0
	advance := func(n int) {
		for k := 0; k < n && i < len(src); k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		pos := Pos{file, line, col}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
			advance(1)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				advance(1)
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			advance(2)
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				advance(1)
			}
			if i >= len(src) {
				return nil, &SyntaxError{pos, "unterminated comment"}
			}
			advance(2)
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				j++
			}
			if j >= len(src) || src[j] != '"' {
				return nil, &SyntaxError{pos, "unterminated string (a string ends on its line)"}
			}
			toks = append(toks, token{kind: tString, text: string(src[i+1 : j]), pos: pos})
			advance(j + 1 - i)
		case isLetter(c):
			j := i
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: string(src[i:j]), pos: pos})
			advance(j - i)
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			j := i
			for j < len(src) && (isDigit(src[j]) || src[j] == '.') {
				j++
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				k := j + 1
				if k < len(src) && (src[k] == '+' || src[k] == '-') {
					k++
				}
				if k < len(src) && isDigit(src[k]) {
					for k < len(src) && isDigit(src[k]) {
						k++
					}
					j = k
				}
			}
			text := string(src[i:j])
			v, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return nil, &SyntaxError{pos, fmt.Sprintf("malformed number %q", text)}
			}
			toks = append(toks, token{kind: tNumber, text: text, num: v, pos: pos})
			advance(j - i)
		default:
			if i+1 < len(src) {
				two := string(src[i : i+2])
				switch two {
				case "<=", ">=", "==", "!=", "&&", "||":
					toks = append(toks, token{kind: tPunct, text: two, pos: pos})
					advance(2)
					continue
				}
			}
			switch c {
			case '(', ')', '{', '}', '|', ':', ';', ',', '=', '+', '-', '*', '/', '<', '>', '%':
				toks = append(toks, token{kind: tPunct, text: string(c), pos: pos})
				advance(1)
			default:
				return nil, &SyntaxError{pos, fmt.Sprintf("unexpected character %q", rune(c))}
			}
		}
	}
	toks = append(toks, token{kind: tEOF, pos: Pos{file, line, col}})
	return toks, nil
}

func isLetter(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
