package main

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/forest"
)

// checkForestMemory refuses a grid whose layers, method workspace and
// outputs would not fit in --max-memory, before the engine allocates them.
func (a *app) checkForestMemory(r *forestRun) error {
	boundary := forest.Open
	if r.o.Boundary == "torus" {
		boundary = forest.Torus
	}
	est, err := forest.MemoryEstimate(r.grid, r.trees, r.res.Species,
		forest.Options{Method: forest.Method(r.o.Method), Boundary: boundary}, r.o.Realize)
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	what := fmt.Sprintf("forest: %dx%d cells of %g m for %d species", r.grid.NX, r.grid.NY, r.grid.Cell, len(r.res.Species))
	return a.checkMemory(what, est, "--bounds or raise --cell")
}
