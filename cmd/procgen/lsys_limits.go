package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
	"github.com/procgen-dev/procgen/internal/output"
)

// maxLsysSteps bounds -n (and a system's own derivation length): per-step
// statistics are kept for every step, and a million steps of a string that
// stops growing already take minutes.
const maxLsysSteps = 1_000_000

// lsysPixelBytes is the preview's memory per pixel: the 8-bit image and the
// rasteriser's float coverage band, plus the encoder's copy.
const lsysPixelBytes = 12

// lsysModuleBytes is the memory one module of the derived string costs at
// the peak of a step: the string being read and the one being written, each
// a symbol byte, a parameter offset and on average about two float64
// parameters' worth of slots, plus the interpreter's geometry when asked.
const lsysModuleBytes = 48

// lsysModuleCap is --max-modules, lowered where --max-memory could not hold
// that many modules: the derivation then stops with the limit error before
// it allocates, instead of running the machine out of memory.
func (a *app) lsysModuleCap(o lsysOptions) int64 {
	byMemory := a.memoryLimit() / lsysModuleBytes
	if byMemory < o.MaxModules {
		a.log.Debugf("lsys: at most %d modules a step (--max-memory)", byMemory)
		return int64(byMemory)
	}
	return int64(o.MaxModules)
}

// checkLsysParse refuses, before it is read, a source whose parse (most of
// it the axiom's modules) would not fit in --max-memory.
func (a *app) checkLsysParse(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil // reading it reports the error
	}
	return a.checkMemory(fmt.Sprintf("lsys: parsing %s (%d bytes)", path, fi.Size()),
		syntax.ParseMemory(fi.Size()), "the input's size (a shorter axiom)")
}

// checkLsysMeshMemory refuses a GLB output whose tubes would not fit in
// --max-memory, once the geometry is known and before the mesh is built.
func (a *app) checkLsysMeshMemory(g *turtle.Geometry, outs []string, o lsysOptions) error {
	for _, out := range outs {
		if lsysFormat(out, o) == ".glb" {
			what := fmt.Sprintf("lsys: a GLB of %d segments and %d polygons", len(g.Segments), len(g.Polygons))
			return a.checkMemory(what, turtle.GLBMemory(g, o.Cylinders, true), "-n or --cylinders")
		}
	}
	return nil
}

// lsysFormat is the format an output is written in: its extension, or
// --format for standard output.
func lsysFormat(out string, o lsysOptions) string {
	if out == output.Stdout || isStream(out) {
		return o.stdoutFormat
	}
	return strings.ToLower(filepath.Ext(out))
}
