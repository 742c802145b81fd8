package flame

import (
	"context"
	"math"
	"testing"
)

// TestStillFrameMatchesRender: a frame of one genome without motion blur
// is the still renderer's image, bit for bit (one code path for both).
func TestStillFrameMatchesRender(t *testing.T) {
	for _, name := range []string{"simple", "heavy"} {
		gs, _, err := ParseFile("../../testdata/flame/"+name+".flam3", ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g := gs[0]
		g.Width, g.Height, g.Scale = g.Width/8, g.Height/8, g.Scale/8
		g.Quality = 20
		o := Options{Seed: 3}
		want, wst, err := CPU{}.Render(context.Background(), g, o)
		if err != nil {
			t.Fatal(err)
		}
		got, gst, err := CPU{Workers: 3}.RenderFrame(context.Background(), Still(g), o)
		if err != nil {
			t.Fatal(err)
		}
		if gst.Samples != wst.Samples {
			t.Fatalf("%s: %d samples, still %d", name, gst.Samples, wst.Samples)
		}
		for i := range want.Pix {
			if got.Pix[i] != want.Pix[i] {
				t.Fatalf("%s: value %d is %v, still renderer %v", name, i, got.Pix[i], want.Pix[i])
			}
		}
	}
}

// TestTemporalWeights checks flam3's temporal filters: offsets spread over
// the width, weights scaled to a maximum of 1, and their mean.
func TestTemporalWeights(t *testing.T) {
	d, w, m := TemporalWeights(5, TemporalBox, 0, 2)
	if d[0] != -1 || d[2] != 0 || d[4] != 1 || m != 1 || w[3] != 1 {
		t.Fatalf("box: deltas %v weights %v mean %v", d, w, m)
	}
	_, w, m = TemporalWeights(4, TemporalExp, 2, 1)
	want := []float64{1.0 / 16, 4.0 / 16, 9.0 / 16, 1}
	for i := range want {
		if math.Abs(w[i]-want[i]) > 1e-15 {
			t.Fatalf("exp 2: weights %v, want %v", w, want)
		}
	}
	if math.Abs(m-30.0/64) > 1e-15 {
		t.Fatalf("exp mean %v", m)
	}
	_, w, _ = TemporalWeights(4, TemporalExp, -2, 1)
	if w[0] != 1 || math.Abs(w[3]-1.0/16) > 1e-15 {
		t.Fatalf("exp -2: weights %v", w)
	}
	// Gaussian: centred on n/2 (not (n-1)/2, as flam3), largest 1 there.
	_, w, _ = TemporalWeights(4, TemporalGaussian, 0, 1)
	if w[2] != 1 || !(w[1] < 1) || math.Abs(w[1]-w[3]) > 1e-15 || !(w[0] < w[1]) {
		t.Fatalf("gaussian: weights %v", w)
	}
	if _, w, m := TemporalWeights(1, TemporalGaussian, 0, 1); w[0] != 1 || m != 1 {
		t.Fatal("one sample must weigh 1")
	}
}

// twoKeys is an animation of heavy.flam3 turning: keyframe 1 is keyframe 0
// with every animated xform rotated.
func twoKeys(t *testing.T) *Animation {
	gs, _, err := ParseFile("../../testdata/flame/heavy.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k0 := &AnimGenome{Genome: *gs[0], TemporalFilterWidth: 1}
	k0.Width, k0.Height, k0.Scale, k0.Quality = k0.Width/8, k0.Height/8, k0.Scale/8, 10
	k1 := cloneAnim(k0)
	k1.Time = 1
	for i := range k1.Xforms {
		c := &k1.Xforms[i].Coefs
		s, co := math.Sincos(0.6)
		c[0], c[1], c[2], c[3] = co*c[0]-s*c[1], s*c[0]+co*c[1], co*c[2]-s*c[3], s*c[2]+co*c[3]
	}
	return &Animation{Keys: []*AnimGenome{k0, k1}}
}

// TestMotionBlurApplied: with temporal samples the frame is made of
// several genomes and differs from the unblurred one; a box filter over a
// width of 0 gives the unblurred frame's genome at every sample.
func TestMotionBlurApplied(t *testing.T) {
	a := twoKeys(t)
	render := func(n int, width float64) *Frame {
		for _, k := range a.Keys {
			k.TemporalSamples, k.TemporalFilterWidth = n, width
		}
		fs, err := a.Frame(0.5)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs.Samples) != n {
			t.Fatalf("%d temporal samples, want %d", len(fs.Samples), n)
		}
		f, _, err := CPU{}.RenderFrame(context.Background(), fs, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	one, blurred := render(1, 1), render(8, 0.8)
	diff := 0.0
	for i := range one.Pix {
		diff += math.Abs(float64(one.Pix[i] - blurred.Pix[i]))
	}
	if diff/float64(len(one.Pix)) < 1 {
		t.Fatalf("blurred frame differs from the unblurred one by only %.3f on average", diff/float64(len(one.Pix)))
	}
}

// TestAnimationErrors: bad animations are refused with one clear error.
func TestAnimationErrors(t *testing.T) {
	flame := func(time string) string {
		return `<flame time="` + time + `" size="10 10" scale="5"><xform weight="1" linear="1" coefs="1 0 0 1 0 0"/>` +
			`<color index="0" rgb="255 255 255"/></flame>`
	}
	for name, doc := range map[string]string{
		"one keyframe": flame("0"),
		"out of order": "<a>" + flame("1") + flame("0") + "</a>",
		"equal times":  "<a>" + flame("1") + flame("1") + "</a>",
		"NaN time":     "<a>" + flame("0") + flame("NaN") + "</a>",
	} {
		if _, _, err := ParseAnimation([]byte(doc), name, ParseOptions{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	a, _, err := ParseAnimation([]byte("<a>"+flame("0")+flame("2")+"</a>"), "ok", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Frame(math.NaN()); err == nil {
		t.Error("NaN frame time accepted")
	}
}
