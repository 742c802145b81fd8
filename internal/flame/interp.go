package flame

import (
	"math"
	"slices"
)

// flam3Eps is flam3's EPS, used where angles are unwrapped.
const angleEps = 1e-10

// At returns the genome flam3 interpolates at time t (flam3_interpolate):
// the segment (k-1, k) with t[k-1] < t <= t[k] is blended linearly, or by
// Catmull-Rom over keyframes k-2..k+1 when keyframe k-1 is smooth. Before
// the first keyframe and after the last, flam3 extrapolates the first or
// last segment linearly, and so does At.
func (a *Animation) At(t float64) *AnimGenome { return a.at(t, nil) }

// alignMemo keeps the last keyframes align was given and what it made of
// them: the temporal samples of a frame mostly fall between the same
// keyframes, and aligning copies every xform of each (several kilobytes
// apiece, every variation's parameters). The keyframes do not change while
// one is in use.
type alignMemo struct {
	src []*AnimGenome
	out []aligned
}

func (m *alignMemo) align(src []*AnimGenome) []aligned {
	if m == nil {
		return align(src)
	}
	if !slices.Equal(m.src, src) {
		m.src, m.out = append(m.src[:0], src...), align(src)
	}
	return m.out
}

// at is At, aligning through m (nil: afresh).
func (a *Animation) at(t float64, m *alignMemo) *AnimGenome {
	cps := a.Keys
	n := len(cps)
	if n == 1 {
		return cloneAnim(cps[0])
	}
	var i1 int
	switch {
	case cps[0].Time >= t:
		i1 = 0
	case cps[n-1].Time <= t:
		i1 = n - 2
	default:
		for cps[i1].Time < t {
			i1++
		}
		i1--
	}
	i2 := i1 + 1
	c0 := (cps[i2].Time - t) / (cps[i2].Time - cps[i1].Time)
	c1 := 1 - c0
	var r *AnimGenome
	if cps[i1].Smooth && i1 > 0 && i2 < n-1 {
		t2, t3 := c1*c1, c1*c1*c1
		w := []float64{(2*t2 - c1 - t3) / 2, (3*t3 - 5*t2 + 2) / 2, (4*t2 - 3*t3 + c1) / 2, (t3 - t2) / 2}
		r = interpolateN(m.align(cps[i1-1:i1+3]), w, 0)
	} else {
		r = interpolateN(m.align(cps[i1:i1+2]), []float64{c0, c1}, 0)
	}
	r.Time = t
	return r
}

func cloneAnim(k *AnimGenome) *AnimGenome {
	c := *k
	c.Xforms = append([]Xform(nil), k.Xforms...)
	if k.Final != nil {
		f := *k.Final
		c.Final = &f
	}
	return &c
}

// smoother is flam3's smoothstep, 3t²-2t³.
func smoother(t float64) float64 { return 3*t*t - 2*t*t*t }

// staggerCoef is flam3's get_stagger_coef: with stagger, xform i of nx
// starts and ends its blend at its own time within the transition.
func staggerCoef(t, stagger float64, nx, i int) float64 {
	maxStag := float64(nx-1) / float64(nx)
	scaled := stagger * maxStag
	st := scaled * float64(nx-1-i) / float64(nx-1)
	et := st + (1 - scaled)
	switch {
	case t <= st:
		return 0
	case t >= et:
		return 1
	}
	return smoother((t - st) / (1 - scaled))
}

// interpolateN is flam3_interpolate_n: the weighted blend of aligned
// keyframes cpi with weights c. The settings that are not blended
// (interpolation type, palette interpolation, palette mode, filter shapes)
// come from cpi[0].
func interpolateN(cpi []aligned, c []float64, stagger float64) *AnimGenome {
	k0 := cpi[0].k
	r := &AnimGenome{Genome: DefaultGenome()}
	g := &r.Genome
	r.InterpType, r.PaletteInterp, r.HSVRGBBlend = k0.InterpType, k0.PaletteInterp, k0.HSVRGBBlend
	r.TemporalFilter = k0.TemporalFilter
	g.Name, g.PaletteMode, g.FilterShape = k0.Name, k0.PaletteMode, k0.FilterShape
	g.Fuse, g.Transparent = k0.Fuse, k0.Transparent
	g.SpatialFilterKernel, g.SpatialFilteringType = k0.SpatialFilterKernel, k0.SpatialFilteringType
	g.SpatialFilterIndicator = k0.SpatialFilterIndicator
	g.Palette = interpolatePalette(cpi, c)

	mix := func(f func(k *AnimGenome) float64) float64 {
		s := 0.0
		for i := range cpi {
			s += c[i] * f(cpi[i].k)
		}
		return s
	}
	mixInt := func(f func(k *AnimGenome) int) int {
		return int(math.RoundToEven(mix(func(k *AnimGenome) float64 { return float64(f(k)) })))
	}
	g.Brightness = mix(func(k *AnimGenome) float64 { return k.Brightness })
	g.Contrast = mix(func(k *AnimGenome) float64 { return k.Contrast })
	g.HighlightPower = mix(func(k *AnimGenome) float64 { return k.HighlightPower })
	g.Gamma = mix(func(k *AnimGenome) float64 { return k.Gamma })
	g.Vibrancy = mix(func(k *AnimGenome) float64 { return k.Vibrancy })
	g.HueRotation = mix(func(k *AnimGenome) float64 { return k.HueRotation })
	g.Width = mixInt(func(k *AnimGenome) int { return k.Width })
	g.Height = mixInt(func(k *AnimGenome) int { return k.Height })
	g.Supersample = mixInt(func(k *AnimGenome) int { return k.Supersample })
	for i := 0; i < 2; i++ {
		g.Center[i] = mix(func(k *AnimGenome) float64 { return k.Center[i] })
	}
	for i := 0; i < 3; i++ {
		g.Background[i] = mix(func(k *AnimGenome) float64 { return k.Background[i] })
	}
	g.Scale = mix(func(k *AnimGenome) float64 { return k.Scale })
	g.FilterRadius = mix(func(k *AnimGenome) float64 { return k.FilterRadius })
	g.SpatialFilterSharpness = mix(func(k *AnimGenome) float64 { return k.SpatialFilterSharpness })
	g.SpatialFilterLowDensity = mix(func(k *AnimGenome) float64 { return k.SpatialFilterLowDensity })
	r.TemporalFilterExp = mix(func(k *AnimGenome) float64 { return k.TemporalFilterExp })
	r.TemporalFilterWidth = mix(func(k *AnimGenome) float64 { return k.TemporalFilterWidth })
	g.Quality = mix(func(k *AnimGenome) float64 { return k.Quality })
	g.Zoom = mix(func(k *AnimGenome) float64 { return k.Zoom })
	g.Rotate = mix(func(k *AnimGenome) float64 { return k.Rotate })
	g.Passes = mixInt(func(k *AnimGenome) int { return k.Passes })
	g.TemporalSamples = mixInt(func(k *AnimGenome) int { return k.TemporalSamples })
	g.EstimatorRadius = mix(func(k *AnimGenome) float64 { return k.EstimatorRadius })
	g.EstimatorMinimum = mix(func(k *AnimGenome) float64 { return k.EstimatorMinimum })
	g.EstimatorCurve = mix(func(k *AnimGenome) float64 { return k.EstimatorCurve })
	g.GammaThreshold = mix(func(k *AnimGenome) float64 { return k.GammaThreshold })
	g.Camera = interpCamera(mix, k0.Camera.JWildfire)

	nstd := cpi[0].nstd
	g.Xforms = make([]Xform, 0, nstd)
	for i := range cpi[0].xf {
		final := cpi[0].final && i == nstd
		w := c
		if len(cpi) == 2 && stagger > 0 && !final {
			s := staggerCoef(c[0], stagger, nstd, i)
			w = []float64{s, 1 - s}
		}
		x := interpolateXform(cpi, i, w)
		if final {
			g.Final = &x
			continue
		}
		xaos := false
		for k := range cpi {
			xaos = xaos || cpi[k].chaos != nil
		}
		var row []float64
		ones := true
		for j := 0; j < nstd && xaos; j++ {
			v := 0.0
			for k := range cpi {
				e := 1.0
				if cpi[k].chaos != nil {
					e = cpi[k].chaos[i][j]
				}
				v += c[k] * e
			}
			v = max(v, 0)
			row = append(row, v)
			ones = ones && v == 1
		}
		if !ones {
			x.Chaos = row
		}
		g.Xforms = append(g.Xforms, x)
	}
	return r
}

func interpolateXform(cpi []aligned, i int, c []float64) Xform {
	x := newXform(i)
	mix := func(f func(a *axform) float64) float64 {
		s := 0.0
		for k := range cpi {
			s += c[k] * f(&cpi[k].xf[i])
		}
		return s
	}
	x.Weight = max(mix(func(a *axform) float64 { return a.Weight }), 0)
	x.Color = min(max(mix(func(a *axform) float64 { return a.Color }), 0), 1)
	x.ColorSpeed = min(max(mix(func(a *axform) float64 { return a.ColorSpeed }), 0), 1)
	x.Opacity = mix(func(a *axform) float64 { return a.Opacity })
	x.Animate = mix(func(a *axform) float64 { return a.Animate })
	for p := ParamID(0); p < NumParams; p++ {
		if isPrecalc(p) {
			continue
		}
		x.Params[p] = mix(func(a *axform) float64 { return a.Params[p] })
	}
	for v := VarID(0); v < NumVars; v++ {
		if w := mix(func(a *axform) float64 { return a.v[v] }); w != 0 {
			x.Vars = append(x.Vars, VarTerm{ID: v, Weight: w})
		}
	}
	x.Stages = mixStages(cpi, i, c)
	allID := true
	for k := range cpi {
		allID = allID && cpi[k].xf[i].Post.IsIdentity()
	}
	if cpi[0].k.InterpType == InterpLog {
		x.Coefs = interpolatePolar(cpi, i, c, false)
		if !allID {
			x.Post = interpolatePolar(cpi, i, c, true)
		}
		return x
	}
	var coefs, post Affine
	for k := range cpi {
		for j := 0; j < 6; j++ {
			coefs[j] += c[k] * cpi[k].xf[i].Coefs[j]
			post[j] += c[k] * cpi[k].xf[i].Post[j]
		}
	}
	x.Coefs = coefs
	if !allID {
		x.Post = post
	}
	return x
}

// interpolatePolar blends the affine (or post) of xform i in polar form:
// each column's angle linearly (unwrapped to the shorter way round), its
// length logarithmically unless one is nearly zero, the translation
// linearly (flam3 convert_linear_to_polar + interp_and_convert_back).
func interpolatePolar(cpi []aligned, i int, c []float64, post bool) Affine {
	n := len(cpi)
	ang := make([][2]float64, n)
	mag := make([][2]float64, n)
	trn := make([][2]float64, n)
	for k := range cpi {
		m := cpi[k].xf[i].Coefs
		if post {
			m = cpi[k].xf[i].Post
		}
		var zero [2]bool
		for col := 0; col < 2; col++ {
			x, y := m[2*col], m[2*col+1]
			ang[k][col] = math.Atan2(y, x)
			mag[k][col] = math.Sqrt(x*x + y*y)
			zero[col] = mag[k][col] == 0
			trn[k][col] = m[4+col]
		}
		if zero[0] && !zero[1] {
			ang[k][0] = ang[k][1]
		} else if !zero[0] && zero[1] {
			ang[k][1] = ang[k][0]
		}
	}
	for col := 0; col < 2; col++ {
		for k := 1; k < n; k++ {
			if wind := cpi[k].xf[i].wind[col]; wind > 0 && !post {
				ref := wind - 2*math.Pi
				for _, kk := range []int{k - 1, k} {
					for ang[kk][col] < ref {
						ang[kk][col] += 2 * math.Pi
					}
					for ang[kk][col] > ref+2*math.Pi {
						ang[kk][col] -= 2 * math.Pi
					}
				}
				continue
			}
			d := ang[k][col] - ang[k-1][col]
			if d > math.Pi+angleEps {
				ang[k][col] -= 2 * math.Pi
			} else if d < -(math.Pi - angleEps) {
				ang[k][col] += 2 * math.Pi
			}
		}
	}
	var out Affine
	for col := 0; col < 2; col++ {
		linear := false
		for k := 0; k < n; k++ {
			if math.Log(mag[k][col]) < -10 {
				linear = true
			}
		}
		a, m := 0.0, 0.0
		for k := 0; k < n; k++ {
			a += c[k] * ang[k][col]
			if linear {
				m += c[k] * mag[k][col]
			} else {
				m += c[k] * math.Log(mag[k][col])
			}
			out[4+col] += c[k] * trn[k][col]
		}
		if !linear {
			m = math.Exp(m)
		}
		out[2*col] = m * math.Cos(a)
		out[2*col+1] = m * math.Sin(a)
	}
	return out
}

// interpolatePalette blends the keyframes' palettes: in HSV (hsv,
// hsv_circular, with hsv_rgb_palette_blend of RGB mixed into the circular
// form), in RGB, or as a sweep that switches entry i from the first palette
// to the second when i >= 256·c[0].
func interpolatePalette(cpi []aligned, c []float64) Palette {
	var out Palette
	mode := cpi[0].k.PaletteInterp
	if mode == PaletteSweep {
		for i := range out {
			j := 1
			if float64(i) < 256*c[0] {
				j = 0
			}
			out[i] = cpi[j].k.Palette[i]
		}
		return out
	}
	rgbFrac := 0.0
	switch mode {
	case PaletteRGB:
		rgbFrac = 1
	case PaletteHSVCircular:
		rgbFrac = cpi[0].k.HSVRGBBlend
	}
	for i := range out {
		var rgb, hsv [3]float64
		alpha, alpha1 := 0.0, true
		for k := range cpi {
			p := cpi[k].k.Palette[i]
			h, s, v := rgbToHSV(p[0], p[1], p[2])
			if len(cpi) == 2 && k == 0 && mode == PaletteHSVCircular {
				q := cpi[1].k.Palette[i]
				h1, _, _ := rgbToHSV(q[0], q[1], q[2])
				if h1-h > 3 {
					h += 6
				} else if h1-h < -3 {
					h -= 6
				}
			}
			for ch, val := range [3]float64{h, s, v} {
				hsv[ch] += c[k] * val
				rgb[ch] += c[k] * p[ch]
			}
			alpha += c[k] * p[3]
			alpha1 = alpha1 && p[3] == 1
		}
		if alpha1 {
			alpha = 1
		}
		r, g, b := hsvToRGB(wrapHue(hsv[0]), hsv[1], hsv[2])
		e := [4]float64{rgbFrac*rgb[0] + (1-rgbFrac)*r, rgbFrac*rgb[1] + (1-rgbFrac)*g, rgbFrac*rgb[2] + (1-rgbFrac)*b, alpha}
		for ch := range e {
			e[ch] = min(max(e[ch], 0), 1)
		}
		out[i] = e
	}
	return out
}
