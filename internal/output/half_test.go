package output

import (
	"math"
	"testing"
)

// halfValue decodes binary16 bits: the definition, not the encoder's code.
func halfValue(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * m * math.Pow(2, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * (1 + m/1024) * math.Pow(2, float64(e-15))
}

// Every half converts back to itself, and every value between two
// neighbouring halves goes to the nearer one, the even one on a tie.
func TestHalfBits(t *testing.T) {
	checked := 0
	for h := 0; h < 1<<16; h++ {
		v := halfValue(uint16(h))
		if math.IsNaN(v) {
			if got := halfBits(float32(v)); halfValue(got) == halfValue(got) {
				t.Fatalf("NaN %#04x -> %#04x, not a NaN", h, got)
			}
			continue
		}
		if got := halfBits(float32(v)); got != uint16(h) {
			t.Fatalf("half %#04x (%g) -> %#04x", h, v, got)
		}
		if h&0x7fff >= 0x7bff { // the largest finite half and beyond: no next neighbour
			continue
		}
		next := halfValue(uint16(h + 1))
		mid := (v + next) / 2
		want := uint16(h)
		if h&1 == 1 {
			want = uint16(h + 1)
		}
		if got := halfBits(float32(mid)); got != want && !(v == 0 && next == 0) {
			t.Fatalf("midpoint of %#04x and %#04x (%g) -> %#04x, want %#04x", h, h+1, mid, got, want)
		}
		if below := math.Nextafter32(float32(mid), float32(v)); float64(below) != mid && halfBits(below) != uint16(h) {
			t.Fatalf("just below the midpoint after %#04x -> %#04x", h, halfBits(below))
		}
		checked++
	}
	if checked < 60000 {
		t.Fatalf("checked only %d halves", checked)
	}
	for _, c := range []struct {
		f    float32
		want uint16
	}{{65504, 0x7bff}, {65520, 0x7c00}, {1e6, 0x7c00}, {-1e6, 0xfc00}, {1e-9, 0}, {1, 0x3c00}, {-2, 0xc000}} {
		if got := halfBits(c.f); got != c.want {
			t.Errorf("halfBits(%g) = %#04x, want %#04x", c.f, got, c.want)
		}
	}
}
