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
//
// Up, when not zero, is the world direction shown as screen up instead
// (projected onto the image plane): "--up -x" stands a row of trees that
// grows along +Y upright. One along Dir is ignored.
type View struct{ Dir, Up [3]float64 }

// namedView returns a named view. "front" looks along -Z at the XY plane,
// where 2D systems lie.
func namedView(name string) (View, bool) {
	v, ok := map[string]View{
		"front":  {Dir: [3]float64{0, 0, -1}},
		"back":   {Dir: [3]float64{0, 0, 1}},
		"side":   {Dir: [3]float64{-1, 0, 0}}, // from +X
		"right":  {Dir: [3]float64{-1, 0, 0}},
		"left":   {Dir: [3]float64{1, 0, 0}},
		"top":    {Dir: [3]float64{0, -1, 0}},
		"bottom": {Dir: [3]float64{0, 1, 0}},
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
	if up := (vec3{v.Up[0], v.Up[1], v.Up[2]}); dot(up, up) > 0 {
		if r := cross(d, up); dot(r, r) > 1e-12*dot(up, up) {
			right = r.scale(1 / math.Sqrt(dot(r, r)))
			return right, cross(right, d)
		}
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

// ParseUp reads a world direction for View.Up: an axis "x", "+y", "-z" ...
// or "x,y,z"; "" is none (the default up).
func ParseUp(s string) ([3]float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return [3]float64{}, nil
	}
	sign := 1.0
	switch {
	case strings.HasPrefix(t, "-"):
		sign, t = -1, t[1:]
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	}
	if k := strings.Index("xyz", t); len(t) == 1 && k >= 0 {
		var u [3]float64
		u[k] = sign
		return u, nil
	}
	v, err := ParseView(s)
	if err != nil || strings.Count(s, ",") != 2 {
		return [3]float64{}, fmt.Errorf("turtle: up %q: want x, y, z, -x, -y, -z or a direction x,y,z", s)
	}
	return v.Dir, nil
}
