package flame

// jwf11RefCases are the cases of the variations whose JWildfire classes
// need more than the first harness builds: waves2b (colt's Bessel J1),
// joukowski (JWildfire's GLSL vec2), plane_wf (its map holders, here
// without maps) and sym_ng15 and maurer_rose's lines (Math.random, pointed
// at the scripted draws by scripts/jwf-harness.sh), and JWildfire's two
// symmetry post variations.
func jwf11RefCases() [][]jwfTerm {
	w2b := func(fx, fy, pwx, pwy, sx, six, sy, siy, unity, jacok float64) []jwfParam {
		return []jwfParam{{PWaves2bFreqx, "freqx", fx}, {PWaves2bFreqy, "freqy", fy}, {PWaves2bPwx, "pwx", pwx},
			{PWaves2bPwy, "pwy", pwy}, {PWaves2bScalex, "scalex", sx}, {PWaves2bScaleinfx, "scaleinfx", six},
			{PWaves2bScaley, "scaley", sy}, {PWaves2bScaleinfy, "scaleinfy", siy}, {PWaves2bUnity, "unity", unity},
			{PWaves2bJacok, "jacok", jacok}}
	}
	jk := func(p1, p2, inv float64) []jwfParam {
		return []jwfParam{{PJoukowskiP1, "P1", p1}, {PJoukowskiP2, "P2", p2}, {PJoukowskiInverse, "inverse", inv}}
	}
	pw := func(pos, size, axis float64) []jwfParam {
		return []jwfParam{{PPlaneWfPosition, "position", pos}, {PPlaneWfSize, "size", size}, {PPlaneWfAxis, "axis", axis}}
	}
	sym := func(r, sx, sy float64) []jwfParam {
		return []jwfParam{{PSymNg15Radius, "radius", r}, {PSymNg15Stepx, "stepx", sx}, {PSymNg15Stepy, "stepy", sy}}
	}
	mrl := func(kn, kd, c, off, count, th float64) []jwfParam {
		return []jwfParam{{PMaurerRoseKn, "kn", kn}, {PMaurerRoseKd, "kd", kd}, {PMaurerRoseC, "c", c},
			{PMaurerRoseLineOffsetDegrees, "line_offset_degrees", off}, {PMaurerRoseLineCount, "line_count", count},
			{PMaurerRoseShowLines, "show_lines", 1}, {PMaurerRoseShowPoints, "show_points", 0},
			{PMaurerRoseShowCurve, "show_curve", 0}, {PMaurerRoseLineThickness, "line_thickness", th}}
	}
	axs := func(axis, cx, cy, cz, rot float64) []jwfParam {
		return []jwfParam{{PAxisSymmetryWfAxis, "axis", axis}, {PAxisSymmetryWfCentreX, "centre_x", cx},
			{PAxisSymmetryWfCentreY, "centre_y", cy}, {PAxisSymmetryWfCentreZ, "centre_z", cz}, {PAxisSymmetryWfRotation, "rotation", rot}}
	}
	pts := func(cx, cy, order float64) []jwfParam {
		return []jwfParam{{PPointSymmetryWfCentreX, "centre_x", cx}, {PPointSymmetryWfCentreY, "centre_y", cy},
			{PPointSymmetryWfOrder, "order", order}}
	}
	return [][]jwfTerm{
		// post_axis_symmetry_wf about each axis, turned and not, and
		// post_point_symmetry_wf of several orders, on the sum before them.
		{{id: VarLinear3D, w: 0.9}, {id: VarAxisSymmetryWf, w: 1, post: true, params: axs(0, 0.2, -0.1, 0, 0)}},
		{{id: VarLinear3D, w: 1.1}, {id: VarAxisSymmetryWf, w: 0.7, post: true, params: axs(1, -0.3, 0.4, 0.2, 30)}},
		{{id: VarLinear3D, w: 0.8}, {id: VarAxisSymmetryWf, w: 1.2, post: true, params: axs(2, 0.1, 0.5, -0.6, -45)}},
		{{id: VarJulia3D, w: 0.6, params: []jwfParam{{PJulia3DPower, "power", 2}}}, {id: VarAxisSymmetryWf, w: 1, post: true, params: axs(0, 0.5, 0, 0, 90)}},
		{{id: VarLinear3D, w: 1}, {id: VarPointSymmetryWf, w: 1, post: true, params: pts(0, 0, 3)}},
		{{id: VarLinear3D, w: 0.7}, {id: VarPointSymmetryWf, w: 0.8, post: true, params: pts(0.3, -0.2, 6)}},
		{{id: VarSpherical3D, w: 0.5}, {id: VarPointSymmetryWf, w: 1.3, post: true, params: pts(-0.4, 0.1, 11)}},
		// waves2b: the sine power (pw >= 1e-4), the tanh (pw < -1e-4), the
		// Jacobi sn (0 <= pw < 1e-4) and colt's Bessel J1 (-1e-4 < pw < 0)
		// on each axis, with and without the unity blend.
		{{id: VarWaves2b, w: 1, params: w2b(2.1, 1.3, 2, 3.5, 0.4, 0.1, 0.6, -0.2, 1, 0.25)}},
		{{id: VarWaves2b, w: 0.8, params: w2b(1.7, 0.9, -2, -0.5, 0.5, 0.3, -0.3, 0.2, 0.4, 0.6)}},
		{{id: VarWaves2b, w: 1.2, params: w2b(1.4, 2.6, 0, 5e-5, 0.7, -0.1, 0.5, 0.05, 1, -0.7)}},
		{{id: VarWaves2b, w: 0.9, params: w2b(3.2, 1.1, -5e-5, -2e-5, 0.45, 0.2, -0.6, 0.1, 0.7, 0.3)}},
		{{id: VarWaves2b, w: 1.1, params: w2b(0.8, 2.2, 5e-5, -5e-5, 0.3, 0, 0.9, -0.4, 0, 1)}},
		{{id: VarLinear3D, w: 0.5}, {id: VarWaves2b, w: 0.7, params: w2b(2, 2, -5e-5, 1.5, 0.6, 0.1, 0.3, 0.1, 1, 0.25)}},
		// joukowski: the map and its inverse (both roots' branches), with
		// the default and shifted centres.
		{{id: VarJoukowski, w: 1, params: jk(2.5, 0, 0)}},
		{{id: VarJoukowski, w: 0.7, params: jk(1.7, 0.3, 0)}},
		{{id: VarJoukowski, w: 1.3, params: jk(1.7, 0.3, 1)}},
		{{id: VarJoukowski, w: 0.9, params: jk(0.6, -0.8, 1)}},
		// plane_wf on each axis, without maps.
		{{id: VarPlaneWf, w: 1.5, params: pw(0.7, 4, 0)}},
		{{id: VarPlaneWf, w: 0.8, params: pw(-1.2, 2.5, 1)}},
		{{id: VarPlaneWf, w: 1.1, params: pw(0.3, 7, 2)}},
		{{id: VarLinear3D, w: 0.4}, {id: VarPlaneWf, w: 0.6, params: pw(2, 1.5, 0)}},
		// sym_ng15: the twelve maps come from the draw, which differs
		// between cases and points.
		{{id: VarSymNg15, w: 1.5, params: sym(0.5, 1.6, -0.4)}},
		{{id: VarSymNg15, w: 0.9, params: sym(1.3, -0.7, 2.1)}},
		{{id: VarSymNg15, w: 1.2, params: sym(0, 0, 0)}},
		// maurer_rose's lines, with and without thickness.
		{{id: VarMaurerRose, w: 1.3, params: mrl(3, 2, 0.1, 53, 200, 2)}},
		{{id: VarMaurerRose, w: 0.8, params: mrl(5, 1, -0.3, 71, 360, 0)}},
		{{id: VarMaurerRose, w: 1, params: mrl(7, 3, 0.4, 97, 120, 0.5)}},
	}
}

// jwfMaurerLines reports whether a maurer_rose term draws only lines: then
// JWildfire takes its draws as the mode, the distance along the line and
// the two jitters, where procgen's stream holds the mode, the jitters and
// the distance (TestJWF10MaurerRose), so jwfCase gives JWildfire procgen's
// draws in its order.
func jwfMaurerLines(tm jwfTerm) bool {
	if tm.id != VarMaurerRose {
		return false
	}
	show := map[string]float64{}
	for _, p := range tm.params {
		show[p.name] = p.v
	}
	return show["show_lines"] == 1 && show["show_points"] == 0 && show["show_curve"] == 0
}
