package flame

import "math"

// Precalc prepares x for ApplyXform, once per render: it derives the
// precalculated parameters (x.Params[PrecalcFirst:]) from the variation
// parameters and the affine coefficients as flam3's xform_precalc does, and
// puts x.Vars in VarID order, the order in which flam3 applies (and draws
// random numbers for) the variations. Call it again after changing Coefs or
// Params.
func Precalc(x *Xform) {
	p := &x.Params

	ang := p[PPerspectiveAngle] * math.Pi / 2
	p[PPerspVsin] = math.Sin(ang)
	p[PPerspVfcos] = p[PPerspectiveDist] * math.Cos(ang)

	p[PJulianRn] = math.Abs(p[PJulianPower])
	p[PJulianCn] = p[PJulianDist] / p[PJulianPower] / 2

	p[PJuliascopeRn] = math.Abs(p[PJuliascopePower])
	p[PJuliascopeCn] = p[PJuliascopeDist] / p[PJuliascopePower] / 2

	jwfPrecalc(p)

	p[PRadialBlurSpinvar], p[PRadialBlurZoomvar] = math.Sincos(p[PRadialBlurAngle] * math.Pi / 2)

	// waves reads the affine translation (flam3's c[2][0], c[2][1]).
	dx, dy := x.Coefs[4], x.Coefs[5]
	p[PWavesDx2] = 1 / (dx*dx + flam3Eps)
	p[PWavesDy2] = 1 / (dy*dy + flam3Eps)

	add := p[PDisc2Twist]
	p[PDisc2Timespi] = p[PDisc2Rot] * math.Pi
	sinadd, cosadd := math.Sincos(add)
	cosadd--
	if add > 2*math.Pi {
		k := 1 + add - 2*math.Pi
		cosadd *= k
		sinadd *= k
	}
	if add < -2*math.Pi {
		k := 1 + add + 2*math.Pi
		cosadd *= k
		sinadd *= k
	}
	p[PDisc2Sinadd], p[PDisc2Cosadd] = sinadd, cosadd

	p[PSuperShapePm4] = p[PSuperShapeM] / 4
	p[PSuperShapePneg1N1] = -1 / p[PSuperShapeN1]

	p[PWedgeJuliaCf] = 1 - p[PWedgeJuliaAngle]*p[PWedgeJuliaCount]*(0.5/math.Pi)
	p[PWedgeJuliaRn] = math.Abs(p[PWedgeJuliaPower])
	p[PWedgeJuliaCn] = p[PWedgeJuliaDist] / p[PWedgeJuliaPower] / 2

	sortVars(x.Vars)
}

// sortVars is a stable insertion sort by VarID: xforms hold a handful of
// variations, usually already in order, and Precalc must not allocate.
func sortVars(v []VarTerm) {
	for i := 1; i < len(v); i++ {
		t := v[i]
		j := i
		for ; j > 0 && v[j-1].ID > t.ID; j-- {
			v[j] = v[j-1]
		}
		v[j] = t
	}
}
