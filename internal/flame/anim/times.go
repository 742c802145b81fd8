package anim

import (
	"math"

	"github.com/procgen-dev/procgen/internal/flame/cuburn"
)

// MaxFrames bounds the frames of one run (a day of 60 fps video).
const MaxFrames = 60 * 60 * 60 * 24

// Range selects the frames: from Begin to End (inclusive) by DTime. Unset
// ends default as flam3-animate's do, from the first keyframe's time to the
// last one's minus 1; for a cuburn edge Begin and End are frame numbers.
type Range struct {
	Begin, End       float64
	BeginSet, EndSet bool
	DTime            float64
}

// FrameTimes lists the frame times and the number each frame's file gets.
func FrameTimes(src Source, r Range, flock FlockOptions) (times []float64, numbers []int, err error) {
	if cb, ok := src.(*cuburn.Anim); ok {
		return flockFrameTimes(cb, r, flock)
	}
	first, last := src.Span()
	begin, end := math.Trunc(first), math.Trunc(last)-1
	if r.BeginSet {
		begin = r.Begin
	}
	if r.EndSet {
		end = r.End
	} else if end < begin {
		end = begin
	}
	switch {
	case math.IsNaN(begin) || math.IsInf(begin, 0) || math.IsNaN(end) || math.IsInf(end, 0):
		return nil, nil, usagef("invalid --begin %g / --end %g: want finite times", begin, end)
	case !(r.DTime > 0) || math.IsInf(r.DTime, 0):
		return nil, nil, usagef("invalid --dtime %g: want a positive time step", r.DTime)
	case begin > end:
		return nil, nil, usagef("--begin %g is after --end %g", begin, end)
	}
	n := math.Floor((end-begin)/r.DTime+1e-9) + 1
	if n > MaxFrames {
		return nil, nil, usagef("%.0f frames from --begin %g to --end %g by --dtime %g: over %d", n, begin, end, r.DTime, MaxFrames)
	}
	whole := begin == math.Trunc(begin) && r.DTime == math.Trunc(r.DTime)
	for i := 0; i < int(n); i++ {
		t := begin + float64(i)*r.DTime
		times = append(times, t)
		if whole {
			numbers = append(numbers, int(t))
		} else {
			numbers = append(numbers, i)
		}
	}
	return times, numbers, nil
}

// flockFrameTimes is cuburn's frame rule: N frames (--frames, else
// round(fps × profile duration × blend.duration)), frame i of 1..N centred
// at edge time (i - 0.5)/N and written as number i; the profile's start,
// end and skip select among them, then --begin and --end (frame numbers,
// inclusive) when given.
func flockFrameTimes(an *cuburn.Anim, r Range, ff FlockOptions) ([]float64, []int, error) {
	if ff.DTime {
		return nil, nil, usagef("--dtime does not apply to a cuburn edge: its frames are --frames N (or the profile's fps and duration)")
	}
	if ff.Still {
		if ff.Frames != 0 || ff.FramesSet || r.BeginSet || r.EndSet {
			return nil, nil, usagef("--still renders one frame: drop --frames, --begin and --end")
		}
		an.Profile.FrameWidth = 0
		return []float64{0}, []int{0}, nil
	}
	n := ff.Frames
	if n == 0 {
		n = an.FrameCount()
	}
	switch {
	case ff.Frames < 0 || (ff.FramesSet && ff.Frames == 0):
		return nil, nil, usagef("invalid --frames %d: want a positive frame count (leave --frames out for the profile's)", ff.Frames)
	case n < 1:
		return nil, nil, usagef("%s: %d frames at %g fps over %g s × blend.duration %g: give --frames N", an.Name, n,
			an.Profile.FPS, an.Profile.Duration, an.Duration)
	case n > MaxFrames:
		return nil, nil, usagef("%s: %d frames: over %d (lower --frames or --fps)", an.Name, n, MaxFrames)
	}
	an.SetFrameCount(n)
	times, numbers := an.Profile.FrameTimes(n)
	begin, end := math.Inf(-1), math.Inf(1)
	if r.BeginSet {
		begin = r.Begin
	}
	if r.EndSet {
		end = r.End
	}
	if begin > end {
		return nil, nil, usagef("--begin %g is after --end %g", begin, end)
	}
	var ts []float64
	var ns []int
	for i, num := range numbers {
		if f := float64(num); f >= begin && f <= end {
			ts, ns = append(ts, times[i]), append(ns, num)
		}
	}
	if len(ts) == 0 {
		return nil, nil, usagef("%s: no frames selected among 1..%d (profile start/end/skip, --begin/--end)", an.Name, n)
	}
	return ts, ns, nil
}
