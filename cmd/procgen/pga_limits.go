package main

import (
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/output"
)

// maxPgaDepth bounds --max-depth: the CPU evaluator recurses once per rule
// application, and 20,000 levels stay far inside Go's stack limit (400,000
// overflowed it).
const maxPgaDepth = 20_000

// maxPgaShapes bounds --max-shapes where the shape counter and the terminal
// indices stay 32-bit on the GPU.
const maxPgaShapes = 1 << 31

// pgaShapeBytes is the memory one shape can cost at the peak of a run that
// writes geometry: the terminal record (216 bytes), its sort key, and a box's
// share of the OBJ text or GLB mesh (24 corners, normals and 36 indices).
const pgaShapeBytes = 1024

// pgaShapeCap is --max-shapes, lowered to what --max-memory can hold: the
// evaluation then stops with the limit error, naming the rule, before the
// machine runs out of memory.
func (a *app) pgaShapeCap(o pgaOptions) int {
	byMemory := a.memoryLimit() / pgaShapeBytes
	if byMemory < uint64(o.MaxShapes) {
		a.log.Debugf("pga: at most %d shapes (--max-memory)", byMemory)
		return int(byMemory)
	}
	return o.MaxShapes
}

// pgaFormat is the format an output is written in: its extension, or
// --format for standard output.
func pgaFormat(out string, o pgaOptions) string {
	if out == output.Stdout || isStream(out) {
		return o.stdoutFormat
	}
	return strings.ToLower(filepath.Ext(out))
}

// pgaPlannedPaths are the files a run writes: every -o and, beside each
// .obj file unless only statistics are written, its material library.
func pgaPlannedPaths(outs []string, o pgaOptions) []string {
	paths := append([]string(nil), outs...)
	for _, out := range outs {
		if out != output.Stdout && !o.StatsOnly && strings.EqualFold(filepath.Ext(out), ".obj") {
			paths = append(paths, output.MTLPath(out))
		}
	}
	return paths
}
