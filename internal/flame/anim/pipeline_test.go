package anim

import (
	"context"
	"errors"
	"math/rand"
	"sync"
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
	r := &Pipeline{Source: an, Times: times, Numbers: numbers, Render: rs, Src: "simple.flam3"}
	var got []int
	skip := func(i int) bool { return i%5 == 3 }
	err := r.Run(context.Background(), skip, func(i int, f *flame.Frame) error {
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

// fakeSubmitter queues frames as a GPU renderer does: each SubmitFrame
// holds a slot until its Wait. It records the most slots held at once and
// can refuse a submission while others are held.
type fakeSubmitter struct {
	mu       sync.Mutex
	held     int
	maxHeld  int
	refuseAt int // refuse while this many are held (0: never)
	refused  int
	failAll  bool
}

func (s *fakeSubmitter) RenderFrame(ctx context.Context, fs *flame.FrameSpec, o flame.Options) (*flame.Frame, flame.Stats, error) {
	return flame.CPU{Workers: 1}.RenderFrame(ctx, fs, o)
}

func (s *fakeSubmitter) SubmitFrame(ctx context.Context, fs *flame.FrameSpec, o flame.Options) (flame.PendingFrame, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failAll || s.refuseAt > 0 && s.held >= s.refuseAt {
		s.refused++
		return nil, errors.New("out of device memory")
	}
	s.held++
	s.maxHeld = max(s.maxHeld, s.held)
	return &fakePending{s: s, fs: fs, o: o}, nil
}

type fakePending struct {
	s    *fakeSubmitter
	fs   *flame.FrameSpec
	o    flame.Options
	done bool
}

func (p *fakePending) Wait() (*flame.Frame, flame.Stats, error) {
	if p.done {
		return nil, flame.Stats{}, errors.New("waited twice")
	}
	p.done = true
	f, st, err := flame.CPU{Workers: 1}.RenderFrame(context.Background(), p.fs, p.o)
	p.s.mu.Lock()
	p.s.held--
	p.s.mu.Unlock()
	return f, st, err
}

// TestAnimRunKeepsFramesInFlight: a submitting renderer gets framesInFlight
// frames queued at once, frames reach the writer in order, and a
// submission refused while frames are in flight is retried once the oldest
// is done; a run that fails waits for every frame it queued.
func TestAnimRunKeepsFramesInFlight(t *testing.T) {
	an := twoKeyAnimation(t)
	const n = 10
	times, numbers := evenFrames(n)
	for _, tc := range []struct {
		name     string
		s        *fakeSubmitter
		wantErr  bool
		wantHeld int
	}{
		{"depth", &fakeSubmitter{}, false, framesInFlight},
		{"refused while full", &fakeSubmitter{refuseAt: framesInFlight - 1}, false, framesInFlight - 1},
		{"failing", &fakeSubmitter{failAll: true}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Pipeline{Source: an, Times: times, Numbers: numbers, Render: []flame.FrameRenderer{tc.s}, Src: "seq.flam3"}
			var got []int
			err := r.Run(context.Background(), func(int) bool { return false }, func(i int, f *flame.Frame) error {
				got = append(got, i)
				return nil
			})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v", err)
			}
			if tc.s.held != 0 {
				t.Errorf("%d frames left queued", tc.s.held)
			}
			if tc.s.maxHeld != tc.wantHeld {
				t.Errorf("at most %d frames in flight, want %d", tc.s.maxHeld, tc.wantHeld)
			}
			if tc.wantErr {
				return
			}
			if len(got) != n {
				t.Fatalf("emitted %v", got)
			}
			for i := range got {
				if got[i] != i {
					t.Fatalf("emitted %v", got)
				}
			}
			if tc.s.refuseAt > 0 && tc.s.refused == 0 {
				t.Error("no submission was refused: the retry went untested")
			}
		})
	}
}
