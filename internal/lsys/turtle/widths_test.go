package turtle

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// configGeometry derives configs/lsys/<file> for steps steps and interprets it.
func configGeometry(t *testing.T, file string, steps int) (*Geometry, bool) {
	t.Helper()
	sys, err := syntax.ParseFile("../../../configs/lsys/" + file)
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: steps, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := lsys.ApplyHomomorphism(context.Background(), sys, d.String, 0)
	if err != nil {
		t.Fatal(err)
	}
	return interpret(t, sys, s, 0), bytes.ContainsAny(s.Syms, "!#")
}

// TestBookLook: ABOP L-system 2.1 (trunk width 10 on a segment of length 1)
// is drawn relative to its segments, not as a solid disc, and the drawing
// with its widths fits inside the margins whatever the units; L-system 2.3's
// pipe-model widths stay in world units; hairline systems use pixels.
func TestBookLook(t *testing.T) {
	mono, sets := configGeometry(t, "monopodial-tree.l", 10)
	if u := AutoWidths(mono, sets); u != WidthsRelative {
		t.Errorf("monopodial tree: %v widths, want relative", u)
	}
	if tree, sets := configGeometry(t, "tree3d.l", 6); AutoWidths(tree, sets) != WidthsWorld {
		t.Errorf("tree3d: %v widths, want world", AutoWidths(tree, sets))
	}
	if bush, sets := configGeometry(t, "bush-fig125.l", 5); AutoWidths(bush, sets) != WidthsRelative {
		t.Errorf("bush-fig125: %v widths, want relative", AutoWidths(bush, sets))
	}
	if plant, sets := configGeometry(t, "plant2d.l", 3); AutoWidths(plant, sets) != WidthsPixels {
		t.Errorf("plant2d: %v widths, want pixels", AutoWidths(plant, sets))
	}
	const side, margin = 200, 10
	for _, tc := range []struct {
		units   WidthUnits
		maxInk  float64
		minSpan int // the drawing's larger side, in pixels
	}{
		{WidthsRelative, 0.25, side - 2*margin - 2},
		{WidthsWorld, 1, side - 2*margin - 2}, // a disc, but a whole one
		{WidthsPixels, 0.25, side - 2*margin - 12},
	} {
		img := render(t, mono, RenderOptions{Width: side, Height: side, Margin: margin, View: mustView("front"),
			Background: white, Foreground: black, Units: tc.units})
		x0, x1, y0, y1, n := inked(img)
		frac := float64(n) / side / side
		t.Logf("%v: %.1f%% inked, x %d..%d y %d..%d", tc.units, 100*frac, x0, x1, y0, y1)
		if frac > tc.maxInk || x0 < margin-1 || y0 < margin-1 || x1 > side-margin || y1 > side-margin ||
			max(x1-x0, y1-y0) < tc.minSpan {
			t.Errorf("%v: %.0f%% inked, ink x %d..%d y %d..%d in a %d px image with %d px margins",
				tc.units, 100*frac, x0, x1, y0, y1, side, margin)
		}
	}
	// Tubes take the same units.
	unit := mono.RelativeWidthUnit()
	if want := 0.01; math.Abs(unit-want) > 1e-6 {
		t.Errorf("relative unit %g, want %g (a hundredth of the trunk's first segment)", unit, want)
	}
}

func TestOBJWidthScale(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1, Width: 10}
	g := interpret(t, sys, parseModules(t, sys, "F"), 1)
	for _, scale := range []float64{0, 0.01} {
		var b strings.Builder
		if err := writeOBJ(context.Background(), &b, g, objOptions{Sides: 4, WidthScale: scale}); err != nil {
			t.Fatal(err)
		}
		want := 5.0
		if scale != 0 {
			want = 10 * scale / 2
		}
		for _, line := range strings.Split(b.String(), "\n") {
			var x, y, z float64
			if n, _ := fmtSscan(line, &x, &y, &z); n == 3 {
				if r := math.Hypot(x, z); math.Abs(r-want) > 1e-5 {
					t.Fatalf("scale %g: vertex %q at radius %g, want %g", scale, line, r, want)
				}
			}
		}
	}
}

// TestViewUp: --up names the world direction shown upwards.
func TestViewUp(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1}
	g := interpret(t, sys, parseModules(t, sys, "FFFF"), 1) // along +Y
	for _, tc := range []struct {
		up   string
		wide bool
	}{{"", false}, {"y", false}, {"-x", true}, {"1,0,0", true}, {"0,0,1", false}} {
		u, err := ParseUp(tc.up)
		if err != nil {
			t.Fatal(err)
		}
		img := render(t, g, RenderOptions{Width: 64, Height: 64, Margin: 4, View: View{Dir: [3]float64{0, 0, -1}, Up: u},
			Background: white, Foreground: black})
		x0, x1, y0, y1, _ := inked(img)
		if wide := x1-x0 > y1-y0; wide != tc.wide {
			t.Errorf("up %q: ink x %d..%d y %d..%d", tc.up, x0, x1, y0, y1)
		}
	}
	for _, bad := range []string{"w", "front", "1,2", "0,0,0", "--x"} {
		if _, err := ParseUp(bad); err == nil {
			t.Errorf("ParseUp(%q) accepted", bad)
		}
	}
}

// fmtSscan reads an OBJ vertex line "v x y z".
func fmtSscan(line string, x, y, z *float64) (int, error) {
	if !strings.HasPrefix(line, "v ") {
		return 0, nil
	}
	return fmt.Sscan(line[2:], x, y, z)
}
