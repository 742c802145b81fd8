package flame

// JWildfire and Fractorium allow several final xforms, applied one after
// the other to every point before it is plotted. flam3's model has one.
// Two finals are one exactly when either is an affine map (a linear
// variation between its affines) drawn always (opacity 1): the affine one
// folds into the other's pre or post affine, and the colour blends chain
// into one blend. Other chains are not honoured (see parse_strict.go).

// extraFinal is a finalxform after the first, with where it was written.
type extraFinal struct {
	x    Xform
	line int
	off  int64
}

// composeFinals folds the flame's later finals into g.Final in order.
func (fp *flameParser) composeFinals() error {
	for _, ef := range fp.moreFinals {
		f1, f2 := fp.g.Final, ef.x
		switch {
		case isAffineFinal(&f2):
			a2 := affineOf(&f2)
			f1.Post = composeAffine(a2, f1.Post)
			f1.Color, f1.ColorSpeed = chainColor(f1.Color, f1.ColorSpeed, f2.Color, f2.ColorSpeed)
		case isAffineFinal(f1):
			a1 := affineOf(f1)
			c, s := chainColor(f1.Color, f1.ColorSpeed, f2.Color, f2.ColorSpeed)
			f2.Coefs = composeAffine(f2.Coefs, a1)
			f2.Color, f2.ColorSpeed = c, s
			*f1 = f2
		default:
			if err := fp.notHonoured("finalxform", "finalxform", "flame", ef.off, ef.line); err != nil {
				return err
			}
		}
	}
	return nil
}

// isAffineFinal reports whether x maps points by an affine map alone and
// always draws.
func isAffineFinal(x *Xform) bool {
	return x.Opacity == 1 && len(x.Vars) == 1 && x.Vars[0].ID == VarLinear
}

// affineOf is post ∘ (w·coefs) of a linear-only xform.
func affineOf(x *Xform) Affine {
	w := x.Vars[0].Weight
	var s Affine
	for i, v := range x.Coefs {
		s[i] = w * v
	}
	return composeAffine(x.Post, s)
}

// composeAffine returns a∘b: b applied first.
func composeAffine(a, b Affine) Affine {
	return Affine{
		a[0]*b[0] + a[2]*b[1], a[1]*b[0] + a[3]*b[1],
		a[0]*b[2] + a[2]*b[3], a[1]*b[2] + a[3]*b[3],
		a[0]*b[4] + a[2]*b[5] + a[4], a[1]*b[4] + a[3]*b[5] + a[5],
	}
}

// chainColor is the one blend c·(1-s)+C·s equal to blending by (c1, s1)
// then by (c2, s2).
func chainColor(c1, s1, c2, s2 float64) (c, s float64) {
	s = 1 - (1-s1)*(1-s2)
	if s == 0 {
		return c2, 0
	}
	return (c1*s1*(1-s2) + c2*s2) / s, s
}
