package imgdiff

import (
	"errors"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

func TestCompareIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name string
		img  image.Image
	}{
		{"noise window path", noise(rng, 64, 48)},
		{"noise exactly one window", noise(rng, 11, 11)},
		{"noise global path", noise(rng, 7, 30)},
		{"translucent", translucent(rng, 40, 20)},
		{"empty", image.NewNRGBA(image.Rect(0, 0, 0, 0))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compare(tt.img, clone(tt.img))
			if err != nil {
				t.Fatal(err)
			}
			if m.MAD != 0 || m.MaxDiff != 0 || m.SSIM != 1 || !math.IsInf(m.PSNR, 1) || !m.Identical() {
				t.Errorf("metrics of identical images = %+v", m)
			}
			if size := tt.img.Bounds().Size(); m.Width != size.X || m.Height != size.Y {
				t.Errorf("size %dx%d, want %v", m.Width, m.Height, size)
			}
		})
	}
}

// TestCompareConstantOffset checks every metric against values worked out
// by hand for two flat opaque grays, 100 and 104 out of 255.
func TestCompareConstantOffset(t *testing.T) {
	const lo, hi = 100.0, 104.0
	// R, G and B differ by 4/255 and alpha not at all, in every pixel.
	d := 4.0 / 255
	wantMAD := 3 * d / 4
	wantPSNR := -10 * math.Log10(3*d*d/4)
	// Flat images have no variance, so SSIM reduces to the luminance term
	// (2 mx my + C1) / (mx² + my² + C1); the Rec. 709 weights sum to 1, so
	// the luma of a gray is the gray.
	x, y := lo/255, hi/255
	wantSSIM := (2*x*y + 1e-4) / (x*x + y*y + 1e-4)

	for _, size := range []image.Point{{64, 48}, {11, 11}, {7, 5}, {1, 1}} {
		t.Run(sizeName(size), func(t *testing.T) {
			a := flat(size, color.NRGBA{lo, lo, lo, 255})
			b := flat(size, color.NRGBA{hi, hi, hi, 255})
			m, err := Compare(a, b)
			if err != nil {
				t.Fatal(err)
			}
			checkNear(t, "mad", m.MAD, wantMAD, 1e-15)
			checkNear(t, "max_diff", m.MaxDiff, d, 1e-15)
			checkNear(t, "psnr", m.PSNR, wantPSNR, 1e-12)
			// Luma is stored as float32: about 1e-7 relative.
			checkNear(t, "ssim", m.SSIM, wantSSIM, 1e-6)
			if m.Identical() {
				t.Error("different images reported identical")
			}
		})
	}
}

func TestCompareNoise(t *testing.T) {
	base := scene(96, 80)
	prev := Metrics{SSIM: 1, PSNR: math.Inf(1)}
	for _, amp := range []int{1, 4, 16, 48, 128} {
		rng := rand.New(rand.NewPCG(7, uint64(amp)))
		noisy := clone(base).(*image.NRGBA)
		for i := range noisy.Pix {
			if i%4 != 3 {
				noisy.Pix[i] = clamp8(int(noisy.Pix[i]) + rng.IntN(2*amp+1) - amp)
			}
		}
		ab, err := Compare(base, noisy)
		if err != nil {
			t.Fatal(err)
		}
		ba, err := Compare(noisy, base)
		if err != nil {
			t.Fatal(err)
		}
		if ab != ba {
			t.Errorf("amplitude %d: not symmetric:\n%+v\n%+v", amp, ab, ba)
		}
		if !(ab.SSIM < prev.SSIM && ab.PSNR < prev.PSNR && ab.MAD > prev.MAD) {
			t.Errorf("amplitude %d: %+v does not get worse than %+v", amp, ab, prev)
		}
		prev = ab
	}
	if prev.SSIM > 0.5 {
		t.Errorf("heavy noise still has SSIM %v", prev.SSIM)
	}
}

func TestCompareSizeMismatch(t *testing.T) {
	a := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	b := image.NewGray(image.Rect(10, 10, 411, 310))
	_, err := Compare(a, b)
	if !errors.Is(err, ErrSizeMismatch) {
		t.Fatalf("error %v does not wrap ErrSizeMismatch", err)
	}
	if want := "imgdiff: size mismatch: 400x300 vs 401x300"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// TestCompareImageTypes feeds the same gray content through every image
// type with a fast path, and the generic path, at different bounds.
func TestCompareImageTypes(t *testing.T) {
	r := image.Rect(0, 0, 37, 29)
	gray := image.NewGray(r)
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 7)
	}
	v := func(x, y int) uint8 { return gray.GrayAt(x, y).Y }
	palette := make(color.Palette, 256)
	for i := range palette {
		palette[i] = color.Gray{uint8(i)}
	}
	offset := image.NewNRGBA(r.Add(image.Pt(5, 3)).Union(image.Rect(0, 0, 1, 1)))

	imgs := map[string]image.Image{
		"gray":     gray,
		"gray16":   image.NewGray16(r),
		"nrgba":    image.NewNRGBA(r),
		"nrgba64":  image.NewNRGBA64(r),
		"rgba":     image.NewRGBA(r),
		"rgba64":   image.NewRGBA64(r),
		"paletted": image.NewPaletted(r, palette),
		"ycbcr":    image.NewYCbCr(r, image.YCbCrSubsampleRatio444),
		"offset":   offset.SubImage(r.Add(image.Pt(5, 3))),
	}
	for y := range r.Dy() {
		for x := range r.Dx() {
			g := v(x, y)
			imgs["gray16"].(*image.Gray16).SetGray16(x, y, color.Gray16{uint16(g) * 0x101})
			imgs["nrgba"].(*image.NRGBA).SetNRGBA(x, y, color.NRGBA{g, g, g, 255})
			imgs["nrgba64"].(*image.NRGBA64).SetNRGBA64(x, y, color.NRGBA64{uint16(g) * 0x101, uint16(g) * 0x101, uint16(g) * 0x101, 0xffff})
			imgs["rgba"].(*image.RGBA).SetRGBA(x, y, color.RGBA{g, g, g, 255})
			imgs["rgba64"].(*image.RGBA64).SetRGBA64(x, y, color.RGBA64{uint16(g) * 0x101, uint16(g) * 0x101, uint16(g) * 0x101, 0xffff})
			imgs["paletted"].(*image.Paletted).SetColorIndex(x, y, g)
			ycc := imgs["ycbcr"].(*image.YCbCr)
			ycc.Y[ycc.YOffset(x, y)] = g
			ycc.Cb[ycc.COffset(x, y)], ycc.Cr[ycc.COffset(x, y)] = 128, 128
			offset.SetNRGBA(x+5, y+3, color.NRGBA{g, g, g, 255})
		}
	}
	for name, img := range imgs {
		t.Run(name, func(t *testing.T) {
			m, err := Compare(gray, img)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Identical() || m.MAD != 0 || m.SSIM != 1 {
				t.Errorf("%s differs from gray: %+v", name, m)
			}
		})
	}
}

func TestCompareTranslucentTypes(t *testing.T) {
	src := translucent(rand.New(rand.NewPCG(2, 2)), 30, 20)
	wide := image.NewNRGBA64(src.Bounds())
	for i, v := range src.Pix {
		wide.Pix[2*i], wide.Pix[2*i+1] = v, v
	}
	m, err := Compare(src, wide)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Identical() {
		t.Errorf("NRGBA and its NRGBA64 widening differ: %+v", m)
	}
}

// TestCompareDeterministic checks that the split into goroutines does not
// change a single bit of the result.
func TestCompareDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	a, b := noise(rng, 203, 157), noise(rng, 203, 157)
	want, err := compare(a, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{2, 3, 7, 64} {
		got, err := compare(a, b, workers)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%d workers: %+v, one worker: %+v", workers, got, want)
		}
	}
}

// TestSSIMReference checks the separable, ring-buffered filter against the
// textbook formula with a full 2-D Gaussian window at every position.
func TestSSIMReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, size := range []image.Point{{11, 11}, {23, 19}, {40, 12}, {6, 9}} {
		t.Run(sizeName(size), func(t *testing.T) {
			n := size.X * size.Y
			x, y := make([]float32, n), make([]float32, n)
			for i := range x {
				x[i] = rng.Float32()
				y[i] = 0.7*x[i] + 0.3*rng.Float32()
			}
			got := ssim(x, y, size.X, size.Y, 3)
			want := referenceSSIM(x, y, size.X, size.Y)
			checkNear(t, "ssim", got, want, 1e-12)
			if got >= 1 || got <= 0 {
				t.Errorf("ssim %v of correlated noise outside (0,1)", got)
			}
		})
	}
}

func referenceSSIM(x, y []float32, w, h int) float64 {
	if w < window || h < window {
		var sx, sy, sxx, syy, sxy float64
		for i := range x {
			a, b := float64(x[i]), float64(y[i])
			sx, sy, sxx, syy, sxy = sx+a, sy+b, sxx+a*a, syy+b*b, sxy+a*b
		}
		n := float64(len(x))
		mx, my := sx/n, sy/n
		return formula(mx, my, sxx/n-mx*mx, syy/n-my*my, sxy/n-mx*my)
	}
	k := gaussian()
	total, count := 0.0, 0
	for oy := 0; oy+window <= h; oy++ {
		for ox := 0; ox+window <= w; ox++ {
			var mx, my, exx, eyy, exy float64
			for j := range window {
				for i := range window {
					wt := k[i] * k[j]
					a, b := float64(x[(oy+j)*w+ox+i]), float64(y[(oy+j)*w+ox+i])
					mx, my = mx+wt*a, my+wt*b
					exx, eyy, exy = exx+wt*a*a, eyy+wt*b*b, exy+wt*a*b
				}
			}
			total += formula(mx, my, exx-mx*mx, eyy-my*my, exy-mx*my)
			count++
		}
	}
	return total / float64(count)
}

func formula(mx, my, vx, vy, cov float64) float64 {
	const c1, c2 = 0.01 * 0.01, 0.03 * 0.03
	return (2*mx*my + c1) * (2*cov + c2) / ((mx*mx + my*my + c1) * (vx + vy + c2))
}

func BenchmarkCompare(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	base := scene(1024, 1024)
	noisy := clone(base).(*image.NRGBA)
	for i := range noisy.Pix {
		if i%4 != 3 {
			noisy.Pix[i] = clamp8(int(noisy.Pix[i]) + rng.IntN(9) - 4)
		}
	}
	b.SetBytes(int64(2 * len(base.Pix)))
	for b.Loop() {
		if _, err := Compare(base, noisy); err != nil {
			b.Fatal(err)
		}
	}
}

func checkNear(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.17g, want %.17g (±%g)", what, got, want, tol)
	}
}
