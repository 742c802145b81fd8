package skeleton

import (
	"errors"
	"math"
)

// Outset is the polygon grown by d > 0 (Offset(-d)) and the strip each edge
// sweeps on its way out: strips[e] is edge e's face of the outside's
// skeleton below d (nil where it has none), edges numbered as Inset numbers
// them (outer ring counter-clockwise first, then the holes clockwise). The
// polygon and the strips tile the grown polygons; holes shrink and close,
// and parts of the outer ring that grow into each other make new holes.
func Outset(outer [][2]float64, holes [][][2]float64, d float64) ([]Polygon, [][][2]float64, error) {
	if !(d > 0) || math.IsInf(d, 0) {
		return nil, nil, errors.New("skeleton: outset distance must be positive and finite")
	}
	// Each ring turned around (the outer one clockwise, the holes
	// counter-clockwise) has the outside on its left, so the wavefront
	// moves out of the polygon (as in Offset for d < 0).
	rings := [][][2]float64{orient(outer, false)}
	for _, h := range holes {
		rings = append(rings, orient(h, true))
	}
	front, faces, err := sweep(rings, nil, d)
	if err != nil {
		return nil, nil, err
	}
	// Edge j of a turned ring of n vertices runs from the oriented ring's
	// vertex n-1-j to n-2-j: it is edge n-2-j (mod n) as Inset numbers it.
	strips := make([][][2]float64, len(faces))
	at := 0
	for _, r := range rings {
		n := len(r)
		for j := range r {
			strips[at+((n-2-j)%n+n)%n] = faces[at+j]
		}
		at += n
	}
	for k, r := range front {
		front[k] = reversed(r)
	}
	return group(front), strips, nil
}

// reversed is ring r run the other way round (a new slice).
func reversed(r [][2]float64) [][2]float64 {
	q := make([][2]float64, len(r))
	for i, p := range r {
		q[len(r)-1-i] = p
	}
	return q
}
