// Package pattern reads and writes the pattern files Golly's users
// exchange besides RLE (which package rules reads): LifeWiki's plain
// text .cells, Golly's Macrocell .mc (two-state and multi-state) and
// MCell's .mcl. A pattern is a grid of cell states 0..255 with the rule
// its file names; where it lands on a board is the job's to decide.
package pattern

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Pattern is a W x H grid of cells (row-major) and the rule its file
// names ("" when none), with the line that names it.
type Pattern struct {
	W, H     int
	Cells    []uint8
	Rule     string
	RuleLine int
	// Placed: the file fixes where the grid lies (a Macrocell's cells
	// keep Golly's coordinates, X0 and Y0 the grid's top-left); else the
	// grid's top-left is the board's.
	Placed bool
	X0, Y0 int64
	// Centred: the file's grid is centred on its board (MCell's #L
	// blocks are).
	Centred bool
}

// MaxState is the largest cell state the formats hold.
const MaxState = 255

// Error is a syntax error in a pattern file; Col 0 names the line only.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

func errorf(file string, line, col int, format string, a ...any) error {
	return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, a...)}
}

// Format is a pattern file's format by its extension: "cells", "mc",
// "mcl", or "" for another.
func Format(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cells":
		return "cells"
	case ".mc":
		return "mc"
	case ".mcl":
		return "mcl"
	}
	return ""
}

// lines splits data into lines without their "\r\n" or "\n".
func lines(data []byte) []string {
	s := strings.Split(string(data), "\n")
	if len(s) > 0 && s[len(s)-1] == "" {
		s = s[:len(s)-1]
	}
	for i := range s {
		s[i] = strings.TrimSuffix(s[i], "\r")
	}
	return s
}
