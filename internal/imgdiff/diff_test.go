package imgdiff

import (
	"image"
	"image/color"
	"math"
	"testing"
)

func TestDiffImage(t *testing.T) {
	base := color.NRGBA{100, 100, 100, 255}
	a := flat(image.Pt(5, 1), base)
	b := flat(image.Pt(5, 1), base)
	b.SetNRGBA(1, 0, color.NRGBA{101, 100, 99, 255})  // one level in R and B
	b.SetNRGBA(2, 0, color.NRGBA{140, 100, 100, 255}) // saturates
	b.SetNRGBA(3, 0, color.NRGBA{100, 100, 100, 10})  // alpha only: invisible
	b.SetNRGBA(4, 0, color.NRGBA{90, 105, 100, 255})

	tests := []struct {
		name string
		gain float64
		want []color.NRGBA
	}{
		{"default gain", 0, []color.NRGBA{{0, 0, 0, 255}, {8, 0, 8, 255}, {255, 0, 0, 255}, {0, 0, 0, 255}, {80, 40, 0, 255}}},
		{"negative means default", -3, []color.NRGBA{{0, 0, 0, 255}, {8, 0, 8, 255}, {255, 0, 0, 255}, {0, 0, 0, 255}, {80, 40, 0, 255}}},
		{"gain 1", 1, []color.NRGBA{{0, 0, 0, 255}, {1, 0, 1, 255}, {40, 0, 0, 255}, {0, 0, 0, 255}, {10, 5, 0, 255}}},
		{"gain 2.5 rounds", 2.5, []color.NRGBA{{0, 0, 0, 255}, {3, 0, 3, 255}, {100, 0, 0, 255}, {0, 0, 0, 255}, {25, 13, 0, 255}}},
		{"infinite gain", math.Inf(1), []color.NRGBA{{0, 0, 0, 255}, {255, 0, 255, 255}, {255, 0, 0, 255}, {0, 0, 0, 255}, {255, 255, 0, 255}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := DiffImage(a, b, tt.gain)
			if d.Bounds() != image.Rect(0, 0, 5, 1) {
				t.Fatalf("bounds %v", d.Bounds())
			}
			for x, want := range tt.want {
				if got := d.NRGBAAt(x, 0); got != want {
					t.Errorf("pixel %d = %v, want %v", x, got, want)
				}
			}
			if other := DiffImage(b, a, tt.gain); string(other.Pix) != string(d.Pix) {
				t.Error("DiffImage is not symmetric")
			}
		})
	}
}

func TestDiffImageSizes(t *testing.T) {
	tests := []struct {
		name string
		a, b image.Rectangle
		want image.Rectangle
	}{
		{"same", image.Rect(0, 0, 40, 30), image.Rect(0, 0, 40, 30), image.Rect(0, 0, 40, 30)},
		{"offset bounds", image.Rect(3, 4, 43, 34), image.Rect(0, 0, 40, 30), image.Rect(0, 0, 40, 30)},
		{"overlap", image.Rect(0, 0, 40, 20), image.Rect(0, 0, 30, 35), image.Rect(0, 0, 30, 20)},
		{"empty", image.Rect(0, 0, 0, 20), image.Rect(0, 0, 30, 35), image.Rect(0, 0, 0, 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := image.NewNRGBA(tt.a)
			b := image.NewRGBA(tt.b)
			d := DiffImage(a, b, 1)
			if d.Bounds().Size() != tt.want.Size() || d.Bounds().Min != (image.Point{}) {
				t.Fatalf("bounds %v, want %v", d.Bounds(), tt.want)
			}
			for i := 3; i < len(d.Pix); i += 4 {
				if d.Pix[i] != 255 {
					t.Fatal("diff image is not opaque")
				}
			}
		})
	}
}
