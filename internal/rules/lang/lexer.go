package lang

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Error is a syntax, type or name error in a rule file.
type Error struct {
	File string
	Pos  bytecode.Pos
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tOp // punctuation and operators; text holds it
)

type token struct {
	kind tokKind
	text string
	pos  bytecode.Pos
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return fmt.Sprintf("name %q", t.text)
	case tInt, tFloat:
		return fmt.Sprintf("number %s", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// Operators, longest first so that "<=" wins over "<".
var operators = []string{"..", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
	"+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "(", ")", "[", "]", "{", "}", ",", ";"}

// lex splits src into tokens. '#' and '//' start comments to the end of the line.
func lex(file string, src []byte) ([]token, error) {
	var toks []token
	line, col := 1, 1
	i := 0
	adv := func(n int) {
		for k := 0; k < n; k++ {
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
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
			adv(1)
			continue
		case c == '#' || (c == '/' && i+1 < len(src) && src[i+1] == '/'):
			for i < len(src) && src[i] != '\n' {
				adv(1)
			}
			continue
		}
		pos := bytecode.Pos{Line: line, Col: col}
		switch {
		case c == '_' || c < utf8.RuneSelf && unicode.IsLetter(rune(c)):
			j := i
			for j < len(src) && (src[j] == '_' || src[j] < utf8.RuneSelf && (unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j])))) {
				j++
			}
			toks = append(toks, token{tIdent, string(src[i:j]), pos})
			adv(j - i)
		case c >= '0' && c <= '9':
			j := i
			kind := tInt
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			// A '.' makes a float unless it starts the range operator "..".
			if j < len(src) && src[j] == '.' && !(j+1 < len(src) && src[j+1] == '.') {
				kind = tFloat
				j++
				for j < len(src) && src[j] >= '0' && src[j] <= '9' {
					j++
				}
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				k := j + 1
				if k < len(src) && (src[k] == '+' || src[k] == '-') {
					k++
				}
				if k < len(src) && src[k] >= '0' && src[k] <= '9' {
					kind = tFloat
					j = k
					for j < len(src) && src[j] >= '0' && src[j] <= '9' {
						j++
					}
				}
			}
			if j < len(src) && (src[j] == '_' || src[j] < utf8.RuneSelf && unicode.IsLetter(rune(src[j]))) {
				return nil, &Error{file, bytecode.Pos{Line: line, Col: col + j - i}, fmt.Sprintf("unexpected %q after number %s", src[j], src[i:j])}
			}
			toks = append(toks, token{kind, string(src[i:j]), pos})
			adv(j - i)
		default:
			matched := ""
			for _, op := range operators {
				if strings.HasPrefix(string(src[i:min(i+2, len(src))]), op) {
					matched = op
					break
				}
			}
			if matched == "" {
				r, _ := utf8.DecodeRune(src[i:])
				return nil, &Error{file, pos, fmt.Sprintf("unexpected character %q", r)}
			}
			toks = append(toks, token{tOp, matched, pos})
			adv(len(matched))
		}
	}
	return append(toks, token{tEOF, "", bytecode.Pos{Line: line, Col: col}}), nil
}
