package forestjob

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/forest"
)

// checkMemory refuses a grid whose layers, method workspace and outputs
// would not fit in --max-memory, before the engine allocates them.
func (r *run) checkMemory() error {
	est, err := forest.MemoryEstimate(r.grid, r.trees, r.res.Species,
		forest.Options{Method: forest.Method(r.o.Method), Boundary: r.o.boundary()}, r.o.Realize)
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	what := fmt.Sprintf("forest: %dx%d cells of %g m for %d species", r.grid.NX, r.grid.NY, r.grid.Cell, len(r.res.Species))
	return r.env.CheckMemory(what, est, "--bounds or raise --cell")
}
