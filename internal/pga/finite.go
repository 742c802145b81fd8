package pga

import (
	"errors"
	"fmt"
	"math"
)

// ErrNonFinite is wrapped by the error of a terminal whose position or size
// is NaN or infinite: an operator's argument such as 0/0 or 1/0. OBJ would
// carry "NaN" vertices and GLB cannot hold them, so the run fails instead.
var ErrNonFinite = errors.New("non-finite geometry")

// finite says whether s's transform and size are finite numbers.
func finite(s *Shape) error {
	// The fast path, one branch for all values: v*0 is 0 for every finite
	// v and NaN for NaN and ±Inf, so the sum is 0 exactly when all are
	// finite (this runs once per terminal).
	var z float64
	for _, v := range s.Transform {
		z += v * 0
	}
	for _, v := range s.Size {
		z += v * 0
	}
	if z == 0 {
		return nil
	}
	for _, v := range s.Transform {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("position or rotation %v: %w (an operator's argument was NaN or infinite, such as 0/0 or 1/0)", v, ErrNonFinite)
		}
	}
	for _, v := range s.Size {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("size %v: %w (an operator's argument was NaN or infinite, such as 0/0 or 1/0)", v, ErrNonFinite)
		}
	}
	return nil
}

// CheckFinite fails on the first terminal of ts whose geometry is not
// finite, naming it: for terminals that come from the GPU, which does not
// check them as the CPU evaluator does.
func (g *Grammar) CheckFinite(ts []TerminalShape) error {
	for i := range ts {
		if err := finite(&ts[i].Shape); err != nil {
			return fmt.Errorf("pga: lot %d: terminal %s: %w", ts[i].Lot, g.TermName(&ts[i]), err)
		}
	}
	return nil
}
