package pgajob

import (
	"errors"
	"fmt"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output/mesh/preview"
	"github.com/procgen-dev/procgen/internal/pga"
)

// checkMemory evaluates a sample of the lots (pga.EstimateMemory) and
// refuses, before the work, a city whose shapes would pass --max-shapes or
// whose terminals, meshes and text would pass --max-memory. It returns the
// shape cap the evaluation runs under: --max-shapes, lowered to the shapes
// --max-memory holds at the sample's bytes per shape, so lots that grow
// more than the sample's stop the run (exit 1, naming the flag) before the
// machine runs out of memory.
func (c *city) checkMemory(g *pga.Grammar, axioms []pga.Shape, opt pga.Options) (int, error) {
	env, o := c.env, &c.o
	var mo pga.MemoryOutputs
	previews := 0.0 // a PNG's image, at its tallest (the model's aspect is not known yet)
	for _, out := range c.outs {
		switch o.format(out) {
		case ".obj":
			mo.OBJ = !o.StatsOnly
		case ".png": // the terminals kept, built a chunk at a time as for OBJ
			mo.OBJ = !o.StatsOnly
			if !o.StatsOnly {
				previews = max(previews, preview.MaxMemory(preview.DefaultWidth))
			}
		case ".glb":
			mo.GLB = !o.StatsOnly
		}
	}
	fp, err := g.EstimateMemory(axioms, opt, mo)
	if err != nil {
		return 0, limitError(c.path, err, opt.MaxShapes, o.MaxShapes, env.MaxMemory)
	}
	if !fp.Sampled {
		env.Log.Debugf("pga: %s for %d lots (statistics only: the evaluation itself checks --max-shapes)", job.FormatBytes(fp.Bytes), fp.Lots)
	} else {
		env.Log.Debugf("pga: an estimated %.0f shapes, %.0f terminals, %s (from a sample of the lots)", fp.Shapes, fp.Terminals, job.FormatBytes(fp.Bytes))
	}
	if fp.Shapes > float64(o.MaxShapes) {
		return 0, job.Usagef("pga: %d lots make an estimated %.0f shapes, over --max-shapes %d: raise --max-shapes or use fewer lots",
			fp.Lots, fp.Shapes, o.MaxShapes)
	}
	what := fmt.Sprintf("pga: %d lots (an estimated %.0f terminals)", fp.Lots, fp.Terminals)
	if previews > 0 {
		what += fmt.Sprintf(" and a %d-pixel-wide PNG preview", preview.DefaultWidth)
	}
	if err := env.CheckMemory(what, fp.Bytes+previews, "--grid or --lots, or write --stats-only"); err != nil {
		return 0, err
	}
	if !mo.OBJ && !mo.GLB || fp.Shapes == 0 {
		return o.MaxShapes, nil // statistics only: the terminals are counted, not kept
	}
	byMemory := fp.Shapes * float64(env.MaxMemory) / fp.Bytes
	if byMemory < float64(o.MaxShapes) {
		env.Log.Debugf("pga: at most %.0f shapes (--max-memory)", byMemory)
		return int(byMemory), nil
	}
	return o.MaxShapes, nil
}

// limitError says which flag to raise when an evaluation ran into a limit:
// a failure found while working (exit 1), since how far a grammar grows
// shows only as it is expanded.
func limitError(path string, err error, capped, maxShapes int, memLimit uint64) error {
	if !errors.Is(err, pga.ErrLimit) {
		return fmt.Errorf("%s: %w", path, err)
	}
	if capped < maxShapes && strings.Contains(err.Error(), "MaxShapes") {
		return fmt.Errorf("%s: %w (--max-memory %s caps the shapes at %d: raise --max-memory, or lower --max-depth if the grammar is not meant to grow this far)",
			path, err, job.FormatBytes(float64(memLimit)), capped)
	}
	if strings.Contains(err.Error(), "MaxDepth") {
		return fmt.Errorf("%s: %w (raise --max-depth if the grammar is meant to grow this far)", path, err)
	}
	return fmt.Errorf("%s: %w (raise --max-shapes if the grammar is meant to grow this far)", path, err)
}
