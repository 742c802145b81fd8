package main

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
)

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
			a := newApp(nil, &bytes.Buffer{}, &bytes.Buffer{})
			r := &animRun{app: a, an: an, times: times, numbers: numbers, render: []flame.FrameRenderer{tc.s}, src: "seq.flam3"}
			var got []int
			err := r.run(context.Background(), func(int) bool { return false }, func(i int, f *flame.Frame) error {
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
