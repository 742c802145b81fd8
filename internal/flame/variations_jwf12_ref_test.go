package flame

// jwf12RefCases are TestJWildfireReference's cases of JWildfire's elliptic
// with its mode and splits with its shears (variations_jwf12.go), and of
// waves2_3D, spherical3D_wf (its exponent's two forms, invert) and
// heart_wf (each half's scale, t clamped to T_MAX): mode 1
// with the draw's sign, mode 2 near the axis where it differs from the
// original formula's rounding, out-of-range modes clamped, and shears of
// each sign on each half plane, alone and after a partner. Elliptic in
// mode 2 draws nothing in JWildfire (procgen draws one it does not use):
// its cases put no drawing variation after it.
func jwf12RefCases() [][]jwfTerm {
	el := func(w, mode float64) jwfTerm {
		return jwfTerm{id: VarEllipticMode, w: w, params: []jwfParam{{PEllipticMode, "mode", mode}}}
	}
	sp := func(w, x, y, l, r, u, d float64) jwfTerm {
		return jwfTerm{id: VarSplitsShear, w: w, params: []jwfParam{{PSplitsX, "x", x}, {PSplitsY, "y", y},
			{PSplitsLshear, "lshear", l}, {PSplitsRshear, "rshear", r}, {PSplitsUshear, "ushear", u}, {PSplitsDshear, "dshear", d}}}
	}
	w23 := func(w, freq, scale float64) jwfTerm {
		return jwfTerm{id: VarWaves23D, w: w, params: []jwfParam{{PWaves23DFreq, "freq", freq}, {PWaves23DScale, "scale", scale}}}
	}
	s3 := func(w, invert, exponent float64) jwfTerm {
		return jwfTerm{id: VarSpherical3DWf, w: w, params: []jwfParam{{PSpherical3DWfInvert, "invert", invert},
			{PSpherical3DWfExponent, "exponent", exponent}}}
	}
	hw := func(w, sx, shift, left, right float64) jwfTerm {
		return jwfTerm{id: VarHeartWf, w: w, params: []jwfParam{{PHeartWfScaleX, "scale_x", sx}, {PHeartWfShiftT, "shift_t", shift},
			{PHeartWfScaleRLeft, "scale_r_left", left}, {PHeartWfScaleRRight, "scale_r_right", right}}}
	}
	lin := jwfTerm{id: VarLinear3D, w: 0.6}
	return [][]jwfTerm{
		{el(0.9, 1)},
		{el(-1.3, 1)},
		{el(1.1, 2)},
		{el(0.7, 5)}, // clamped to 2
		{el(0.8, 1.4)},
		{lin, el(0.5, 1)},
		{lin, el(0.5, 2)},
		{sp(0.9, 0.4, 0.6, 0.1, 0.2, 0.3, 0.4)},
		{sp(1.2, -0.3, 0.25, -0.5, 0.7, -0.2, 0.15)},
		{sp(0.7, 0, 0, 1.5, 0, 0, -1)},
		{lin, sp(0.4, 0.2, -0.1, 0.3, -0.3, 0.6, 0.2)},
		{w23(0.9, 2, 1)},
		{w23(1.2, -3.5, 0.4)},
		{lin, w23(0.5, 1.3, -0.8)},
		{s3(0.8, 0, 2)},
		{s3(1.1, 1, 2)},
		{s3(0.7, 0, 3.5)},
		{s3(-0.9, 2.6, 0.5)}, // FTOI(2.6) = 3: inverted
		{lin, s3(0.4, 0, 1)},
		{hw(0.9, 1, 0, 1, 1)},
		{hw(1.2, -0.6, 7, 2.5, 0.7)}, // shifted, the left half stretched
		{hw(0.8, 1.4, -12, 0.4, 3)},  // t past T_MAX on the right
		{lin, hw(0.5, 0.8, 3, 1.2, 1.1)},
	}
}

// frJwf12Cases are TestFractoriumReference's cases of Fractorium's waves2
// with its z wave and log with its base (variations_jwf12.go), alone and
// after julia. Fractorium's variations carry z (w z): the test maps these
// on the plane z = 0 (frKeepsZ).
func frJwf12Cases() [][]frTerm {
	P := func(id ParamID) float64 { return float64(id) }
	jul := frReg(VarJulia, 0.7)
	w2 := func(w, fx, sx, fy, sy, fz, sz float64) frTerm {
		return frReg(VarWaves2Z, w, P(PWaves2Freqx), fx, P(PWaves2Scalex), sx, P(PWaves2Freqy), fy, P(PWaves2Scaley), sy,
			P(PWaves2Freqz), fz, P(PWaves2Scalez), sz)
	}
	return [][]frTerm{
		{w2(0.9, 2, 0.3, 1.5, 0.4, 3, 0.5)},
		{w2(1.2, -1, 0.7, 4, -0.2, -2.5, 1.3)},
		{w2(0.6, 0.5, 0, 0, 0.5, 0.8, -0.7)},
		{jul, w2(0.5, 3, 0.2, 2, 0.1, 1.7, 0.9)},
		{frReg(VarLogBase, 0.8, P(PLogBase), 10)},
		{frReg(VarLogBase, 1.1, P(PLogBase), 2)},
		{frReg(VarLogBase, -0.7, P(PLogBase), 0.3)},
		{jul, frReg(VarLogBase, 0.6, P(PLogBase), 5.5)},
	}
}
