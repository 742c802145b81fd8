package main

import (
	"bytes"
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/flame"
)

// slowRenderer is a frame renderer whose frames take random times, so that
// several of them finish frames out of order.
type slowRenderer struct{ rng *rand.Rand }

func (s slowRenderer) RenderFrame(ctx context.Context, fs *flame.FrameSpec, o flame.Options) (*flame.Frame, flame.Stats, error) {
	time.Sleep(time.Duration(s.rng.Intn(3)) * time.Millisecond)
	return flame.CPU{Workers: 1}.RenderFrame(ctx, fs, o)
}

// twoKeyAnimation is a tiny animation of two keyframes ten seconds apart.
func twoKeyAnimation(t *testing.T) *flame.Animation {
	t.Helper()
	const seq = `<flames>
<flame time="0" size="16 12" center="0 0" scale="4" quality="1">
 <xform weight="1" color="0" linear="1" coefs="0.5 0 0 0.5 0 0"/>
 <xform weight="1" color="1" linear="1" coefs="0.5 0 0 0.5 0.5 0"/>
 <color index="0" rgb="255 0 0"/><color index="255" rgb="0 0 255"/>
</flame>
<flame time="10" size="16 12" center="0 0" scale="4" quality="1">
 <xform weight="1" color="0" linear="1" coefs="0.5 0 0 0.5 0 0"/>
 <xform weight="1" color="1" linear="1" coefs="0.4 0.1 0 0.5 0.5 0"/>
 <color index="0" rgb="255 0 0"/><color index="255" rgb="0 0 255"/>
</flame>
</flames>`
	an, _, err := flame.ParseAnimation([]byte(seq), "seq.flam3", flame.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := an.Override(flame.Options{Width: 16, Height: 12, Quality: 1}); err != nil {
		t.Fatal(err)
	}
	return an
}

// evenFrames is n frames numbered 0..n-1 spread evenly over the ten
// seconds of twoKeyAnimation.
func evenFrames(n int) (times []float64, numbers []int) {
	times, numbers = make([]float64, n), make([]int, n)
	for i := range times {
		times[i], numbers[i] = float64(i)*10/float64(n), i
	}
	return times, numbers
}

// TestAnimRunDealsFramesInOrder: frames dealt over several renderers (one
// per device) reach the writer in time order, each once, skipped ones never.
func TestAnimRunDealsFramesInOrder(t *testing.T) {
	an := twoKeyAnimation(t)
	const n = 24
	times, numbers := evenFrames(n)
	var rs []flame.FrameRenderer
	for i := 0; i < 3; i++ {
		rs = append(rs, slowRenderer{rand.New(rand.NewSource(int64(i)))})
	}
	a := newApp(nil, &bytes.Buffer{}, &bytes.Buffer{})
	r := &animRun{app: a, an: an, times: times, numbers: numbers, render: rs, src: "simple.flam3"}
	var got []int
	skip := func(i int) bool { return i%5 == 3 }
	err := r.run(context.Background(), skip, func(i int, f *flame.Frame) error {
		if f == nil || f.Width != 16 {
			t.Errorf("frame %d: bad frame", i)
		}
		got = append(got, i)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for i := 0; i < n; i++ {
		if !skip(i) {
			want = append(want, i)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("emitted %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("emitted %v, want %v", got, want)
		}
	}
}
