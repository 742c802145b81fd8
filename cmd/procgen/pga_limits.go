package main

import (
	"errors"
	"fmt"
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

// checkPgaMemory evaluates a sample of the lots (pga.EstimateMemory) and
// refuses, before the work, a city whose shapes would pass --max-shapes or
// whose terminals, meshes and text would pass --max-memory. It returns the
// shape cap the evaluation runs under: --max-shapes, lowered to the shapes
// --max-memory holds at the sample's bytes per shape, so lots that grow
// more than the sample's stop the run (exit 1, naming the flag) before the
// machine runs out of memory.
func (a *app) checkPgaMemory(path string, g *pga.Grammar, axioms []pga.Shape, opt pga.Options, outs []string, o pgaOptions) (int, error) {
	var mo pga.MemoryOutputs
	for _, out := range outs {
		switch pgaFormat(out, o) {
		case ".obj":
			mo.OBJ = !o.StatsOnly
		case ".glb":
			mo.GLB = !o.StatsOnly
		}
	}
	fp, err := g.EstimateMemory(axioms, opt, mo)
	if err != nil {
		return 0, pgaLimitError(path, err, opt.MaxShapes, o.MaxShapes, a.memoryLimit())
	}
	a.log.Debugf("pga: an estimated %.0f shapes, %.0f terminals, %s (from a sample of the lots)", fp.Shapes, fp.Terminals, formatBytes(fp.Bytes))
	if fp.Shapes > float64(o.MaxShapes) {
		return 0, usageErrorf("pga: %d lots make an estimated %.0f shapes, over --max-shapes %d: raise --max-shapes or use fewer lots",
			fp.Lots, fp.Shapes, o.MaxShapes)
	}
	what := fmt.Sprintf("pga: %d lots (an estimated %.0f terminals)", fp.Lots, fp.Terminals)
	if err := a.checkMemory(what, fp.Bytes, "--grid or --lots, or write --stats-only"); err != nil {
		return 0, err
	}
	if !mo.OBJ && !mo.GLB || fp.Shapes == 0 {
		return o.MaxShapes, nil // statistics only: the terminals are counted, not kept
	}
	byMemory := fp.Shapes * float64(a.memoryLimit()) / fp.Bytes
	if byMemory < float64(o.MaxShapes) {
		a.log.Debugf("pga: at most %.0f shapes (--max-memory)", byMemory)
		return int(byMemory), nil
	}
	return o.MaxShapes, nil
}

// pgaLimitError says which flag to raise when an evaluation ran into a
// limit: a failure found while working (exit 1), since how far a grammar
// grows shows only as it is expanded.
func pgaLimitError(path string, err error, capped, maxShapes int, memLimit uint64) error {
	if !errors.Is(err, pga.ErrLimit) {
		return fmt.Errorf("%s: %w", path, err)
	}
	if capped < maxShapes && strings.Contains(err.Error(), "MaxShapes") {
		return fmt.Errorf("%s: %w (--max-memory %s caps the shapes at %d: raise --max-memory, or lower --max-depth if the grammar is not meant to grow this far)",
			path, err, formatBytes(float64(memLimit)), capped)
	}
	if strings.Contains(err.Error(), "MaxDepth") {
		return fmt.Errorf("%s: %w (raise --max-depth if the grammar is meant to grow this far)", path, err)
	}
	return fmt.Errorf("%s: %w (raise --max-shapes if the grammar is meant to grow this far)", path, err)
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
