// Package syntax reads L-systems written in the notation of Prusinkiewicz and
// Lindenmayer, The Algorithmic Beauty of Plants (ABOP), and of cpfg's .l
// files, into an lsys.System ready for either derivation backend.
//
// configs/lsys/README.md describes the accepted notation for users; the
// comments here say why the lexing is shaped the way it is. The input is
// line oriented: one directive or production per line, where a block comment
// counts as white space (so it may join lines) and "//" starts a line comment
// only at the start of a line or after white space, because ABOP writes two
// roll modules as "//" at the end of a successor (3D Hilbert curve).
package syntax

import (
	"fmt"
	"unicode/utf8"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// Error is a syntax or semantic error in an L-system source. Msg says what
// was expected and what was found.
type Error struct {
	Pos lsys.Pos
	Msg string
}

// Error formats the error as file:line:col: msg.
func (e *Error) Error() string {
	return posString(e.Pos) + ": " + e.Msg
}

// posString formats a position as file:line:col.
func posString(p lsys.Pos) string {
	file := p.File
	if file == "" {
		file = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

// errorf builds an *Error at byte offset off of the source.
func (s *source) errorf(off int, format string, args ...any) *Error {
	return &Error{Pos: s.pos(off), Msg: fmt.Sprintf(format, args...)}
}

// quote quotes user text for a message, shortened to a readable excerpt.
func quote(s string) string {
	const max = 40
	if len(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q...", s[:cut])
}

// plural returns "1 parameter" or "n parameters".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
