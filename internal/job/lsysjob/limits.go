package lsysjob

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/lsys/cpfg"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
)

// MaxSteps bounds -n (and a system's own derivation length): per-step
// statistics are kept for every step, and a million steps of a string that
// stops growing already take minutes.
const MaxSteps = 1_000_000

// pixelBytes is the preview's memory per pixel: the 8-bit image and the
// rasteriser's float coverage band, plus the encoder's copy.
const pixelBytes = 12

// moduleBytes is the memory one module of the derived string costs at
// the peak of a step: the string being read and the one being written, each
// a symbol byte, a parameter offset and on average about two float64
// parameters' worth of slots, plus the interpreter's geometry when asked.
const moduleBytes = 48

// ModuleCap is --max-modules, lowered where memLimit (--max-memory) could
// not hold that many modules: the derivation then stops with the limit error
// before it allocates, instead of running the machine out of memory. It
// says whether the memory limit lowered it.
func ModuleCap(o Options, memLimit uint64) (n int64, byMemory bool) {
	if m := memLimit / moduleBytes; m < o.MaxModules {
		return int64(m), true
	}
	return int64(o.MaxModules), false
}

// moduleCap is ModuleCap for this run, logged where memory lowers it.
func moduleCap(env *job.Env, o Options) int64 {
	n, byMemory := ModuleCap(o, env.MaxMemory)
	if byMemory {
		env.Log.Debugf("lsys: at most %d modules a step (--max-memory)", n)
	}
	return n
}

// checkPreviewMemory refuses a PNG preview whose image would not fit in
// --max-memory.
func checkPreviewMemory(env *job.Env, o *Options) error {
	return env.CheckMemory(fmt.Sprintf("lsys: a %dx%d preview", o.ImageWidth, o.ImageHeight),
		float64(o.ImageWidth)*float64(o.ImageHeight)*pixelBytes, "--image-width/--image-height")
}

// checkParse refuses, before it is read, a source whose parse (most of
// it the axiom's modules) would not fit in --max-memory.
func checkParse(env *job.Env, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil // reading it reports the error
	}
	return env.CheckMemory(fmt.Sprintf("lsys: parsing %s (%d bytes)", path, fi.Size()),
		syntax.ParseMemory(fi.Size()), "the input's size (a shorter axiom)")
}

// checkMeshMemory refuses a GLB or PLY output (which hold the whole mesh
// until it is written; OBJ streams it) whose mesh would not fit in
// --max-memory, once the geometry is known and before the mesh is built.
func checkMeshMemory(env *job.Env, g *turtle.Geometry, outs []string, o *Options, setsWidth bool) error {
	for _, out := range outs {
		format := o.format(out)
		if format != ".glb" && format != ".ply" {
			continue
		}
		mo := meshOptions(format, g, o, setsWidth, nil)
		what := fmt.Sprintf("lsys: a %s of %d segments as %ss and %d polygons", strings.ToUpper(format[1:]),
			len(g.Segments), stems(format, g, o, setsWidth), len(g.Polygons))
		flags := "-n or --stems"
		if mo.Sides > 2 {
			flags = "-n, --cylinders or --stems"
		}
		if err := env.CheckMemory(what, turtle.MeshMemory(g, mo), flags); err != nil {
			return err
		}
	}
	return nil
}

// readColorMap reads --color-map (bounded as palettes are): a cpfg .map
// (binary) by its extension, else a text list of colours.
func readColorMap(ctx context.Context, path string) ([][3]float64, error) {
	data, err := input.ReadFile(ctx, path, input.Palette)
	if err != nil {
		return nil, fmt.Errorf("lsys: --color-map: %w", err)
	}
	parse := turtle.ParseColorMap
	if strings.EqualFold(filepathExt(path), ".map") {
		parse = cpfg.ReadColorMap
	}
	pal, err := parse(path, data)
	if err != nil {
		return nil, fmt.Errorf("lsys: --color-map: %w", err)
	}
	return pal, nil
}
