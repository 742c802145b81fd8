package main

import (
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/pga"
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

// pgaSphereBytes is what a Sphere terminal can cost instead: OperatorGraph's
// 30x30-point sphere, 1682 triangles written flat (three corners, each with
// a normal, per triangle) in the GLB mesh or the OBJ text.
const pgaSphereBytes = 1682 * 3 * 2 * 12

// pgaShapeCap is --max-shapes, lowered to what --max-memory can hold: the
// evaluation then stops with the limit error, naming the rule, before the
// machine runs out of memory. Only a Sphere axiom makes Spheres (every
// operator keeps a shape's kind, and only SetAs changes a Sphere's).
func (a *app) pgaShapeCap(o pgaOptions, kind pga.ShapeKind) int {
	per := uint64(pgaShapeBytes)
	if kind == pga.Sphere {
		per = pgaSphereBytes
	}
	byMemory := a.memoryLimit() / per
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
