package flame

import (
	"math"
	"testing"
)

// TestNearOneOpacity: an opacity that interpolation left a few ulps below 1
// is full opacity; a written one a little below 1 is not.
func TestNearOneOpacity(t *testing.T) {
	for _, tc := range []struct {
		opacity, want float64
	}{
		{1, 1},
		{0.9999999999999978, 1}, // a Catmull-Rom spline through knots of 1
		{math.Nextafter(1, 2), 1},
		{0.9999999, math.Pow(10, -math.Log(1/0.9999999)/math.Log(2))},
		{0.5, math.Pow(10, -1)},
		{0, 0},
	} {
		if got := visAdjusted(tc.opacity); got != tc.want {
			t.Errorf("visAdjusted(%v) = %v, want %v", tc.opacity, got, tc.want)
		}
	}
}
