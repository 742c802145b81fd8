package rulesjob

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/rules/golly"
	"github.com/procgen-dev/procgen/internal/rules/pattern"
)

// readPattern reads a .cells, .mc or .mcl pattern, at most maxW x maxH.
func readPattern(data []byte, path string, maxW, maxH int) (*pattern.Pattern, error) {
	switch pattern.Format(path) {
	case "cells":
		return pattern.ReadCells(data, path, maxW, maxH)
	case "mc":
		return pattern.ReadMacrocell(data, path, maxW, maxH)
	}
	return pattern.ReadMCell(data, path, maxW, maxH)
}

// readPatternStates puts a pattern on the board of prog as one state,
// every other field its default: a Macrocell's cells where Golly's
// coordinates put them when they lie on the board, an MCell pattern
// centred, else the pattern's top-left at the board's (as an RLE's).
func readPatternStates(data []byte, path string, prog *rules.Program) (*rules.States, error) {
	b, err := rules.BoardOf(prog)
	if err != nil {
		return nil, err
	}
	for fi, f := range prog.Fields {
		if fi != b.Field && !f.HasDef {
			return nil, fmt.Errorf("%s: field %q has no default value: a pattern sets only the board %q (give a JSON or CSV state file)",
				path, f.Name, prog.Fields[b.Field].Name)
		}
	}
	p, err := readPattern(data, path, b.W, b.H)
	if err != nil {
		return nil, err
	}
	x0, y0 := 0, 0
	switch {
	case p.Placed && p.X0 >= 0 && p.Y0 >= 0 && p.X0+int64(p.W) <= int64(b.W) && p.Y0+int64(p.H) <= int64(b.H):
		x0, y0 = int(p.X0), int(p.Y0)
	case p.Centred:
		x0, y0 = (b.W-p.W)/2, (b.H-p.H)/2
	}
	st := rules.NewStates(prog, 1)
	f := prog.Fields[b.Field]
	dst := st.State(0)[f.Off : f.Off+f.Size]
	clear(dst)
	for y := range p.H {
		for x := range p.W {
			dst[(y+y0)*b.W+x+x0] = uint32(p.Cells[y*p.W+x])
		}
	}
	return st, nil
}

// patternFileRule is the rule a .cells, .mc or .mcl file names ("" for
// none) and its line.
func patternFileRule(data []byte, path string) (string, int, error) {
	p, err := readPattern(data, path, golly.MaxBoard, golly.MaxBoard)
	if err != nil {
		return "", 0, err
	}
	return p.Rule, p.RuleLine, nil
}

// patternWrite is the -o board.cells or board.mc write of the first
// state's board; rule (Golly's name of the rule that ran, or "") goes in
// a Macrocell's #R line, multi asks for multi-state Macrocell leaves.
func patternWrite(out, format string, prog *rules.Program, st *rules.States, rule string, multi bool) output.Write {
	return output.Write{Path: out, Func: func(w io.Writer) error {
		b, err := rules.BoardOf(prog)
		if err != nil {
			return err
		}
		f := prog.Fields[b.Field]
		cells := st.State(0)[f.Off : f.Off+f.Size]
		if format == "cells" {
			return pattern.WriteCells(w, cells, b.W, b.H, strings.TrimSuffix(filepath.Base(out), filepath.Ext(out)))
		}
		return pattern.WriteMacrocell(w, cells, b.W, b.H, rule, multi)
	}}
}

// tableTopology is the grid of a .rule file's run: the suffix of the
// pattern's rule line when it names the rule (WireWorld:T64,64), else a
// bounded plane of the board (-D W, H).
func tableTopology(ruleName string, patternRule string) golly.Topology {
	name, suffix, ok := strings.Cut(patternRule, ":")
	if !ok || name != ruleName {
		return golly.Topology{}
	}
	// The B/S parser reads Golly's suffixes: lend it a rule to read one.
	if r, err := golly.Parse("B3/S23:" + suffix); err == nil {
		return r.Topo
	}
	return golly.Topology{}
}

func isTable(path string) bool { return strings.EqualFold(filepath.Ext(path), ".rule") }

// compileTable compiles a Golly .rule file's @TABLE or @TREE (the first).
func compileTable(src []byte, path, patternRule string, defines map[string]string) (*rules.Program, error) {
	rf, err := golly.ParseRule(src, path)
	if err != nil {
		return nil, job.AsUsage(fmt.Errorf("rules: %w", err))
	}
	prog, err := rf.Compile(tableTopology(rf.Name, patternRule), path, defines)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return prog, nil
}
