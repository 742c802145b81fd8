package turtle

import (
	"fmt"
	"math"
	"strings"
)

// WidthUnits says what the turtle's widths ('!' and System.Width) measure
// when they are drawn.
type WidthUnits uint8

const (
	// WidthsWorld: world units, as the segments' lengths.
	WidthsWorld WidthUnits = iota
	// WidthsPixels: pixels of the preview, as cpfg draws 2D lines (world
	// units in OBJ and glTF tubes).
	WidthsPixels
	// WidthsRelative: hundredths of the length of the drawing's longest
	// segment (Geometry.RelativeWidthUnit), so a width of 10 on a trunk
	// segment of length 1 draws a trunk a tenth as wide as it is long.
	WidthsRelative
)

func (u WidthUnits) String() string {
	switch u {
	case WidthsPixels:
		return "pixels"
	case WidthsRelative:
		return "relative"
	}
	return "world"
}

// ParseWidthUnits reads "world", "pixels" or "relative"; "auto" (auto
// true) leaves the choice to AutoWidths.
func ParseWidthUnits(s string) (u WidthUnits, auto bool, err error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto":
		return WidthsWorld, true, nil
	case "world":
		return WidthsWorld, false, nil
	case "pixels":
		return WidthsPixels, false, nil
	case "relative":
		return WidthsRelative, false, nil
	}
	return 0, false, fmt.Errorf("turtle: line widths %q: want auto, world, pixels or relative", s)
}

// AutoWidths picks the units that give a drawing the look of the book's
// figures. A string that never sets a width (setsWidth false) draws hairlines
// whose default width means nothing in the drawing's units: pixels. One that
// does is drawn in world units when its widest line is at most half as wide
// as its longest segment is long (ABOP L-system 2.3's pipe-model trunks),
// and relative to that length otherwise: ABOP's L-systems 2.1 and 2.2 start
// a trunk of length 1 at width 10, and fig. 1.25 draws segments of length 1
// from width 1 down, widths that cpfg draws in pixels.
func AutoWidths(g *Geometry, setsWidth bool) WidthUnits {
	if !setsWidth {
		return WidthsPixels
	}
	var wmax float32
	for i := range g.Segments {
		wmax = max(wmax, g.Segments[i].Width)
	}
	if float64(wmax) <= g.longestSegment()/2 {
		return WidthsWorld
	}
	return WidthsRelative
}

// RelativeWidthUnit is the world length of one WidthsRelative unit: a
// hundredth of the longest segment's length (1 when there is none).
func (g *Geometry) RelativeWidthUnit() float64 {
	if l := g.longestSegment(); l > 0 {
		return l / 100
	}
	return 1
}

// WorldWidthScale is what the turtle's widths are multiplied by to give
// world widths in units u (tubes: pixels count as world units).
func (g *Geometry) WorldWidthScale(u WidthUnits) float64 {
	if u == WidthsRelative {
		return g.RelativeWidthUnit()
	}
	return 1
}

func (g *Geometry) longestSegment() float64 {
	var l2 float64
	for i := range g.Segments {
		s := &g.Segments[i]
		var d float64
		for k := range 3 {
			x := float64(s.B[k]) - float64(s.A[k])
			d += x * x
		}
		l2 = max(l2, d)
	}
	return math.Sqrt(l2)
}
