package flame

import (
	"math"
	"testing"
)

// key is a one-xform keyframe at time t with the given affine.
func key(t float64, coefs Affine) *AnimGenome {
	g := DefaultGenome()
	x := newXform(0)
	x.Weight, x.Coefs = 1, coefs
	x.Vars = []VarTerm{{ID: VarLinear, Weight: 1}}
	g.Xforms = []Xform{x}
	for i := range g.Palette {
		g.Palette[i] = [4]float64{float64(i) / 255, 0.5, 1 - float64(i)/255, 1}
	}
	return &AnimGenome{Genome: g, Time: t, TemporalFilterWidth: 1}
}

func closeAffine(a, b Affine) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}

// TestInterpolationTypes: linear mixes coefficients; log turns a rotation
// through its angle at constant length (flam3's polar form).
func TestInterpolationTypes(t *testing.T) {
	rot90 := Affine{0, 1, -1, 0, 0.5, 0}
	a := &Animation{Keys: []*AnimGenome{key(0, Identity), key(1, rot90)}}
	a.Keys[0].InterpType = InterpLinear
	if got, want := a.At(0.25).Xforms[0].Coefs, (Affine{0.75, 0.25, -0.25, 0.75, 0.125, 0}); !closeAffine(got, want) {
		t.Errorf("linear: %v, want %v", got, want)
	}
	a.Keys[0].InterpType = InterpLog
	s := math.Sqrt(0.5)
	if got, want := a.At(0.5).Xforms[0].Coefs, (Affine{s, s, -s, s, 0.25, 0}); !closeAffine(got, want) {
		t.Errorf("log: %v, want %v", got, want)
	}
	// Outside the keyframes flam3 extrapolates the end segment.
	a.Keys[0].InterpType = InterpLinear
	if got := a.At(-1).Xforms[0].Coefs[4]; math.Abs(got+0.5) > 1e-12 {
		t.Errorf("extrapolated to t=-1: e = %v, want -0.5", got)
	}
}

// TestPaletteInterpolation: rgb mixes channels, sweep switches entries at
// 256·(1-blend), hsv_circular with hsv_rgb_palette_blend 1 is rgb.
func TestPaletteInterpolation(t *testing.T) {
	k0, k1 := key(0, Identity), key(1, Identity)
	for i := range k1.Palette {
		k1.Palette[i] = [4]float64{1, 0, 0, 1}
	}
	a := &Animation{Keys: []*AnimGenome{k0, k1}}
	want := func(i int) [4]float64 {
		p := k0.Palette[i]
		return [4]float64{0.5*p[0] + 0.5, 0.25, 0.5 * p[2], 1}
	}
	for _, mode := range []PaletteInterp{PaletteRGB, PaletteHSVCircular} {
		k0.PaletteInterp, k0.HSVRGBBlend = mode, 1
		p := a.At(0.5).Palette
		for _, i := range []int{0, 100, 255} {
			for ch := 0; ch < 4; ch++ {
				if math.Abs(p[i][ch]-want(i)[ch]) > 1e-12 {
					t.Fatalf("mode %d: entry %d = %v, want %v", mode, i, p[i], want(i))
				}
			}
		}
	}
	k0.PaletteInterp = PaletteSweep
	p := a.At(0.25).Palette // entries below 256·0.75 = 192 still from k0
	if p[191] != k0.Palette[191] || p[192] != k1.Palette[192] {
		t.Fatalf("sweep: entries 191, 192 = %v %v", p[191], p[192])
	}
}

// TestAlignmentPadding: a keyframe with fewer xforms is padded; next to a
// spherical xform the padding is flam3's inverted identity (linear -1).
func TestAlignmentPadding(t *testing.T) {
	k0, k1 := key(0, Identity), key(1, Identity)
	x := newXform(1)
	x.Weight, x.Coefs = 1, Affine{0.5, 0, 0, 0.5, 0, 0}
	x.Vars = []VarTerm{{ID: VarSpherical, Weight: 1}}
	k1.Xforms = append(k1.Xforms, x)
	a := &Animation{Keys: []*AnimGenome{k0, k1}}
	g := a.At(0)
	if len(g.Xforms) != 2 || g.Xforms[1].Weight != 0 {
		t.Fatalf("at t=0: %d xforms, padding weight %v", len(g.Xforms), g.Xforms[1].Weight)
	}
	v := g.Xforms[1].Vars
	if len(v) != 1 || v[0].ID != VarLinear || v[0].Weight != -1 || !closeAffine(g.Xforms[1].Coefs, Affine{-1, 0, 0, -1, 0, 0}) {
		t.Fatalf("padding next to spherical: vars %v coefs %v", v, g.Xforms[1].Coefs)
	}
	// Under compat interpolation the padding stays the plain identity.
	k0.InterpType, k1.InterpType = InterpCompat, InterpCompat
	g = a.At(0)
	if v := g.Xforms[1].Vars; len(v) != 1 || v[0].Weight != 1 || !g.Xforms[1].Coefs.IsIdentity() {
		t.Fatalf("compat padding: vars %v coefs %v", v, g.Xforms[1].Coefs)
	}
}

// TestSmoothSegment: Catmull-Rom over four keyframes reproduces values on
// a line and differs from linear blending on a curve.
func TestSmoothSegment(t *testing.T) {
	var keys []*AnimGenome
	for i, b := range []float64{0, 1, 4, 9, 16} {
		k := key(float64(i), Identity)
		k.Brightness, k.Vibrancy = b, float64(i)
		keys = append(keys, k)
	}
	keys[1].Smooth = true
	a := &Animation{Keys: keys}
	g := a.At(1.5)
	if math.Abs(g.Vibrancy-1.5) > 1e-12 {
		t.Errorf("vibrancy on a line: %v, want 1.5", g.Vibrancy)
	}
	// Catmull-Rom through 0,1,4,9 at the middle of 1..4 gives 2.25 (= 1.5²).
	if math.Abs(g.Brightness-2.25) > 1e-12 {
		t.Errorf("brightness on t²: %v, want 2.25", g.Brightness)
	}
	if l := a.At(2.5).Brightness; math.Abs(l-6.5) > 1e-12 {
		t.Errorf("linear segment: %v, want 6.5", l)
	}
}

// TestOverrideKeepsFraming: --width scales every keyframe's camera.
func TestOverrideKeepsFraming(t *testing.T) {
	k0, k1 := key(0, Identity), key(1, Identity)
	for _, k := range []*AnimGenome{k0, k1} {
		k.Width, k.Height, k.Scale = 200, 100, 40
	}
	a := &Animation{Keys: []*AnimGenome{k0, k1}}
	if err := a.Override(Options{Width: 50, Quality: 7, Supersample: 2}); err != nil {
		t.Fatal(err)
	}
	for _, k := range a.Keys {
		if k.Width != 50 || k.Height != 25 || k.Scale != 10 || k.Quality != 7 || k.Supersample != 2 {
			t.Fatalf("overridden keyframe: %dx%d scale %v quality %v ss %d", k.Width, k.Height, k.Scale, k.Quality, k.Supersample)
		}
	}
}
