package rules

import (
	"fmt"
	"image/color"
	"testing"
)

// A Life sheet shows each state's cells black on white at their grid
// place, scaled; a sandpile's four heights get four palette colours.
func TestBoardSheet(t *testing.T) {
	p := compileConfig(t, "life.rules", map[string]string{"W": "16", "H": "8"})
	b, err := BoardOf(p)
	if err != nil || b.W != 16 || b.H != 8 {
		t.Fatalf("board %+v, %v", b, err)
	}
	st := NewStates(p, 5)
	c := make([]int32, 128)
	c[3*16+5] = 1 // x 5, y 3
	setField(p, st, 2, "c", c)
	img, err := BoardSheet(p, st, b, 3)
	if err != nil {
		t.Fatal(err)
	}
	cols, rows, scale, w, h := sheetLayout(b, 3)
	if cols != 2 || rows != 2 || scale != 8 || img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Fatalf("layout %d x %d, scale %d, image %v", cols, rows, scale, img.Bounds())
	}
	// State 2 is the first of the second row.
	x0, y0 := 2, 2+8*8+2
	black, white := color.NRGBA{0, 0, 0, 255}, color.NRGBA{255, 255, 255, 255}
	if got := img.NRGBAAt(x0+5*8+7, y0+3*8+7); got != black {
		t.Errorf("live cell drawn %v", got)
	}
	if got := img.NRGBAAt(x0+6*8+1, y0+3*8+1); got != white {
		t.Errorf("dead cell drawn %v", got)
	}
	if got := img.NRGBAAt(1, 1); got != (color.NRGBA{128, 128, 128, 255}) {
		t.Errorf("gap drawn %v", got)
	}

	sp := compileConfig(t, "sandpile.rules", map[string]string{"W": "4", "H": "4"})
	sb, _ := BoardOf(sp)
	ss := NewStates(sp, 1)
	setField(sp, ss, 0, "s", []int32{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3})
	img, err = BoardSheet(sp, ss, sb, 4)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for x := range 4 {
		seen[fmt.Sprint(img.NRGBAAt(2+x*8+3, 5))] = true
	}
	if len(seen) != 4 {
		t.Errorf("4 heights drawn in %d colours", len(seen))
	}
	if _, err := BoardOf(compileSrc(t, "state { int a[7] }")); err == nil {
		t.Error("a 7-cell array taken for a board")
	}
	if _, err := BoardSheet(p, st, Board{0, 1 << 15, 1 << 14}, 4); err == nil {
		t.Error("an enormous sheet drawn")
	}
}
