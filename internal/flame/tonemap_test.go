package flame

import (
	"math"
	"testing"
)

// TestToneNegativeChannel: a filtered channel below 0 (a kernel with
// negative lobes) with vibrancy below 1 raises a negative number to a
// fractional power; the pixel's channel is 0, as the device's fmaxf makes
// it, not NaN, and the other channels are untouched.
func TestToneNegativeChannel(t *testing.T) {
	tp := toneParams{gamma: 1 / 4.0, linrange: 1, vibrancy: 0.5, highpow: -1}
	for _, transp := range []bool{false, true} {
		tp.transp = transp
		got := tp.tone([4]float64{-5, 40, 40, 100})
		for ch, v := range got {
			if math.IsNaN(v) {
				t.Fatalf("transparent %v: channel %d is NaN: %v", transp, ch, got)
			}
		}
		if got[0] != 0 || !(got[1] > 0) || got[1] != got[2] {
			t.Errorf("transparent %v: %v, want red 0 and equal green and blue above 0", transp, got)
		}
	}
	for _, c := range []struct{ in, want float64 }{{math.NaN(), 0}, {-1, 0}, {0, 0}, {17.5, 17.5}, {300, 255}, {math.Inf(1), 255}} {
		if got := clamp255(c.in); got != c.want {
			t.Errorf("clamp255(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
