package pga

import (
	"fmt"
	"math"
	"strings"
)

// OperatorGraph's Sphere (include/pga/core/Sphere.cuh). Its compiler keeps
// a Sphere a Sphere through every operator but CompSplit and Extrude, which
// it refuses (Operator::nextShapeType), and the SetAs operators, which make
// a polygon or a right prism of any shape. procgen's own face operators
// (Roof, Setback, Offset) need a Quad or a Box and refuse it too. In
// context queries and snap lines a Sphere is the box of its size, as
// OperatorGraph's bounding volume of a sphere is.

// sphereSlices is OperatorGraph's NumSphereSlices: a Sphere terminal is a
// grid of sphereSlices × sphereSlices points (longitude × latitude, the
// seam and the poles repeated) and two triangles per cell.
const sphereSlices = 30

const (
	sphereCorners   = sphereSlices * sphereSlices
	sphereTriangles = 2 * (sphereSlices - 1) * (sphereSlices - 1)
)

// sphereTakes reports whether OperatorGraph applies op to a Sphere.
func sphereTakes(k OpKind) bool {
	switch k {
	case OpCompSplit, OpExtrude, OpRoof, OpSetback, OpOffset:
		return false
	}
	return true
}

// sphereError is the error for operator k of rule at pos applied to a
// Sphere (both backends).
func sphereError(rule, pos string, k OpKind) error {
	return fmt.Errorf("rule %q at %s: %s of a Sphere: a Sphere has no faces (only the SetAs operators make it a polygon or a prism)", rule, pos, k)
}

// setAsKind is the kind a SetAs operator makes of a Sphere: a polygon (a
// Quad with a profile) or a right prism (a Box with one).
func setAsKind(op *Op) ShapeKind {
	if strings.Contains(op.Name, "Polygon") {
		return Quad
	}
	return Box
}

// sphereUnit is corner k of OperatorGraph's sphere mesh (ShapeGenerator
// for Sphere): a unit vector in world axes, longitude theta from +X towards
// +Z, latitude phi from the -Y pole.
func sphereUnit(k int) Vec3 {
	i, j := k/sphereSlices, k%sphereSlices
	theta := 2 * math.Pi * float64(i) / (sphereSlices - 1)
	phi := math.Pi * float64(j) / (sphereSlices - 1)
	st, ct := math.Sincos(theta)
	sp, cp := math.Sincos(phi)
	return Vec3{-sp * ct, -cp, -sp * st}
}

// sphereSolid is a Sphere terminal as OperatorGraph draws it: centred on
// the shape's position with radius size X (OperatorGraph's getRadius; Y and
// Z are not read), its axes the world's whatever the shape's rotation (the
// corners are given in the local frame that m turns back into world axes).
func sphereSolid(m Mat4, size Vec3) solid {
	sd := solid{corners: make([]Vec3, sphereCorners), faces: make([][]int, 0, sphereTriangles)}
	r := size[0]
	for k := range sd.corners {
		u := sphereUnit(k)
		w := Vec3{u[0] * r, u[1] * r, u[2] * r}
		// The transpose of m's rotation takes world axes to local ones.
		for a := 0; a < 3; a++ {
			sd.corners[k][a] = m[a]*w[0] + m[4+a]*w[1] + m[8+a]*w[2]
		}
	}
	for i := 0; i < sphereSlices-1; i++ {
		for j := 0; j < sphereSlices-1; j++ {
			b := i*sphereSlices + j
			sd.faces = append(sd.faces, []int{b, b + sphereSlices + 1, b + sphereSlices}, []int{b, b + 1, b + sphereSlices + 1})
		}
	}
	return sd
}
