package turtle

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// View is an orthographic camera: Dir is the direction it looks along.
// Screen up is the projection of +Y, or of -Z when looking straight up or
// down, so "top" shows +X to the right and -Z up.
type View struct{ Dir [3]float64 }

// namedView returns a named view. "front" looks along -Z at the XY plane,
// where 2D systems lie.
func namedView(name string) (View, bool) {
	v, ok := map[string]View{
		"front":  {[3]float64{0, 0, -1}},
		"back":   {[3]float64{0, 0, 1}},
		"side":   {[3]float64{-1, 0, 0}}, // from +X
		"right":  {[3]float64{-1, 0, 0}},
		"left":   {[3]float64{1, 0, 0}},
		"top":    {[3]float64{0, -1, 0}},
		"bottom": {[3]float64{0, 1, 0}},
	}[name]
	return v, ok
}

// ParseView reads a view name (front, back, side, right, left, top, bottom)
// or a direction "x,y,z" to look along.
func ParseView(s string) (View, error) {
	if v, ok := namedView(strings.ToLower(strings.TrimSpace(s))); ok {
		return v, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return View{}, fmt.Errorf("turtle: view %q: want front, back, side, left, right, top, bottom or x,y,z", s)
	}
	var v View
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return View{}, fmt.Errorf("turtle: view %q: component %q is not a finite number", s, p)
		}
		v.Dir[i] = f
	}
	if v.Dir == [3]float64{} {
		return View{}, fmt.Errorf("turtle: view %q: zero direction", s)
	}
	return v, nil
}

// basis returns the screen's right and up directions in world space.
func (v View) basis() (right, up vec3) {
	d := vec3{v.Dir[0], v.Dir[1], v.Dir[2]}
	if n := math.Sqrt(dot(d, d)); n > 0 {
		d = d.scale(1 / n)
	} else {
		d = vec3{0, 0, -1}
	}
	hint := vec3{0, 1, 0}
	if math.Abs(d.y) > 0.999 {
		hint = vec3{0, 0, -1}
		if d.y > 0 {
			hint = vec3{0, 0, 1}
		}
	}
	right = cross(d, hint)
	right = right.scale(1 / math.Sqrt(dot(right, right)))
	return right, cross(right, d)
}
