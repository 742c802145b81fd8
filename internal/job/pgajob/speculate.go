package pgajob

import (
	"context"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/pga"
)

// jobName is the cost model that weighs the city under auto: a city
// written only as GLB has that built on the device, which is its own model.
func (c *city) jobName() string {
	if c.o.onlyGLB(c.outs) {
		return "pga-glb"
	}
	return "pga"
}

// speculate guesses the city's work from a few of its lots' bounding
// rectangles, before the lots stand on their polygons (footprints), the
// memory estimate and auto's own probe run, and starts opening the GPU
// when that guess already puts the run there (device.Policy.PrefetchFor):
// under auto the driver's start-up then overlaps that preparation, as it
// overlaps all of it under cuda. The decision stays evaluate's.
func (c *city) speculate(ctx context.Context, g *pga.Grammar, kind pga.ShapeKind, lots []pga.Lot) {
	env, job := c.env, c.jobName()
	if !env.Dev.WeighsJob(job) || len(lots) <= device.PGAProbeLots/2 {
		return
	}
	k := min(len(lots), device.PGAProbeLots)
	sample := make([]pga.Lot, k)
	for i := range sample {
		sample[i] = lots[i*len(lots)/k]
	}
	opt := pga.Options{Axiom: c.rep.Axiom, MaxShapes: c.o.MaxShapes, MaxDepth: c.o.MaxDepth,
		LotAttrs: pga.LotAttrValues(sample), Context: ctx}
	// The package's LotAxioms frames each lot by its bounding rectangle and
	// registers no footprint in g.
	work := device.PGAWork(g, pga.LotAxioms(kind, sample, env.Seed, c.o.Height), opt) / float64(k) * float64(len(lots))
	if env.Dev.PrefetchFor(job, work, pga.KernelFamily) {
		env.Log.Debugf("pga: about %.3g terminals by %d lots' bounding rectangles: opening the GPU ahead", work, k)
	}
}
