package cpfg

import (
	"math"
	"strings"
	"testing"
)

// ramp.map holds colour i = (i, 255-i, i/2).
func TestReadColorMap(t *testing.T) {
	pal, err := ReadColorMap("ramp.map", readTestdata(t, "ramp.map"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pal) != 256 {
		t.Fatalf("%d colours, want 256", len(pal))
	}
	for _, i := range []int{0, 1, 100, 255} {
		want := [3]float64{float64(i) / 255, float64(255-i) / 255, float64(i/2) / 255}
		if pal[i] != want {
			t.Errorf("colour %d = %v, want %v", i, pal[i], want)
		}
	}
	for _, n := range []int{0, 767, 769, 3} {
		_, err := ReadColorMap("c.map", make([]byte, n))
		if err == nil || !strings.Contains(err.Error(), "c.map:") || !strings.Contains(err.Error(), "is 768 bytes") {
			t.Errorf("%d bytes: err = %v", n, err)
		}
	}
}

// FuzzReadColorMap: any input is refused or read as 256 colours in 0..1.
func FuzzReadColorMap(f *testing.F) {
	f.Add(readTestdata(f, "ramp.map"))
	f.Add([]byte("255 0 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pal, err := ReadColorMap("f.map", data)
		if err != nil {
			return
		}
		if len(pal) != MapColors {
			t.Fatalf("%d colours", len(pal))
		}
		for i, c := range pal {
			for k, v := range c {
				if !(v >= 0 && v <= 1) || math.Round(v*255) != float64(data[3*i+k]) {
					t.Fatalf("colour %d = %v from bytes %v", i, c, data[3*i:3*i+3])
				}
			}
		}
	})
}
