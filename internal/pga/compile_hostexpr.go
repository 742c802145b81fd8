package pga

// The host cuts a lot's polygon before the device runs (compile_footcut.go,
// compile_footslab.go) where it knows the cut's distance or sizes on every
// lot: expressions of numbers, the lot's attributes (LotAttr) and the
// shape's size in the polygon's plane, which is the footprint's size the
// cut table is made at (and which the device checks the shape against).

// cutEnv is what the host knows of a shape at a cut of its lot's polygon:
// the lot's values and the footprint's size, sx along X and sy along the
// plane's other axis (Y of a Quad, Z of a prism).
type cutEnv struct {
	vals   lotValues
	sx, sy float64
}

// env is the cutEnv of a shape standing on f.
func (f cutFootprint) env() cutEnv { return cutEnv{vals: f.vals, sx: f.size[0], sy: f.size[1]} }

// sizeAxes are the axes along which hostExpr may read ShapeSize.
type sizeAxes [3]bool

// allAxes is for evaluating what the footprint flow has let through.
var allAxes = sizeAxes{true, true, true}

// knownAxes are the axes of a shape in footprint state st whose size the
// host knows: X, and the polygon's other axis when every shape that may
// be there has the same one (Y where only Quads may be, Z where only
// prisms may; a prism's Y is its height, which the device alone knows).
func knownAxes(st footState) sizeAxes {
	return sizeAxes{true, st&onBox == 0, st&onQuad == 0}
}

// hostExpr is e's value on a shape standing on a footprint as env says
// when e is a number, a lot's attribute (LotAttr), the shape's size along
// an axis of axes (ShapeSize), or arithmetic on them. Anything else that
// reads the shape (its position, seed, queries, Rand) the host cannot know.
func hostExpr(e Expr, env cutEnv, axes sizeAxes) (float64, bool) {
	switch x := e.(type) {
	case Num:
		return float64(x), true
	case LotAttrRef:
		return env.vals.get(x.Name, x.Default), true
	case Attr:
		if x.Name != "ShapeSize" || x.Axis < AxisX || x.Axis > AxisZ || !axes[x.Axis] {
			return 0, false
		}
		if x.Axis == AxisX {
			return env.sx, true
		}
		return env.sy, true
	case Neg:
		v, ok := hostExpr(x.X, env, axes)
		return -v, ok
	case Binary:
		l, okL := hostExpr(x.L, env, axes)
		r, okR := hostExpr(x.R, env, axes)
		if !okL || !okR {
			return 0, false
		}
		return Binary{Op: x.Op, L: Num(l), R: Num(r)}.Eval(nil), true
	}
	return 0, false
}
