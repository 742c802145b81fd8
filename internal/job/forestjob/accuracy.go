package forestjob

import "github.com/procgen-dev/procgen/internal/forest"

// accuracyOf is a layer's accuracy block in summary.json, in the words
// of the engine's own statement (forest.Accuracy.Statement): the total's
// comes from forest.Total, which carries the largest species estimate or
// says "mixed", never counts more exact cells than the grid, and gives
// multires no estimate (null).
func accuracyOf(a forest.Accuracy, cells int) summaryAccuracy {
	s := summaryAccuracy{Statement: a.Statement(cells), AppliesAbove: a.Floor, MaxAbsolute: a.MaxAbs,
		TailMass: a.TailMass, ExactCells: a.ExactCells}
	if v, ok := a.Estimate(); ok {
		s.MaxRelative = &v
	}
	return s
}
