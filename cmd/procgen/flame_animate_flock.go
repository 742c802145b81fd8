package main

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/procgen-dev/procgen/internal/flame"
)

// flockFlags are the flags of 'flame animate' for cuburn's JSON flocks.
type flockFlags struct {
	profile  string
	frames   int
	half     bool
	still    bool
	db       string
	fpsSet   bool
	dtimeSet bool
}

func addFlockFlags(f *pflag.FlagSet, ff *flockFlags) {
	f.StringVar(&ff.profile, "profile", "", "cuburn render `PROFILE.json` for a cuburn edge or node (size, samples per pixel, fps, frames)")
	f.IntVar(&ff.frames, "frames", 0, "frames of a cuburn edge or node (default: round(fps × profile duration × blend.duration), as cuburn)")
	f.BoolVar(&ff.half, "half", false, "render a cuburn node as a half loop (-0.25 to +0.25 turns), as cuburn's --half")
	f.BoolVar(&ff.still, "still", false, "render a cuburn node (or an edge's source end) as one still: edge time 0, no motion blur, frame number 0")
	f.StringVar(&ff.db, "genome-db", "", "`DIR` that a cuburn edge's \"nodes/NAME\" links are read from (default: the directory above the file's, then its own, then the working directory)")
}

// animSource is what 'flame animate' renders: a flam3 animation or a cuburn
// edge (or node loop).
type animSource interface {
	Frame(t float64) (*flame.FrameSpec, error)
	Span() (first, last float64)
	Override(o flame.Options) error
	At(t float64) *flame.AnimGenome
}

// isFlockInput says whether an input is a cuburn document: a .json name,
// or content that is a JSON object of type node or edge.
func isFlockInput(path string, data []byte) bool {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return true
	}
	return data != nil && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) && flame.IsCuburnJSON(data)
}

// loadFlock reads a cuburn edge or node with its profile, and sets the
// video frame rate from the profile unless --fps was given.
func (a *app) loadFlock(path string, data []byte, af *animateFlags) (*flame.CuburnAnim, error) {
	prof := flame.DefaultCuburnProfile()
	if af.flock.profile != "" {
		if err := checkInputFile("flame animate --profile", af.flock.profile); err != nil {
			return nil, err
		}
		p, err := flame.ReadCuburnProfile(af.flock.profile)
		if err != nil {
			return nil, usageError{err}
		}
		prof = p
	}
	if af.flock.fpsSet {
		prof.FPS = af.fps
	} else {
		af.fps = prof.FPS
	}
	name := path
	if path == "-" {
		name = "<stdin>"
	}
	an, err := flame.LoadCuburn(data, name, prof, flame.CuburnOptions{DB: af.flock.db, Half: af.flock.half})
	if err != nil {
		return nil, err
	}
	n := af.flock.frames
	if n <= 0 {
		n = an.FrameCount()
	}
	a.log.Debugf("%s", fmtFlockFrames(an, n))
	if prof.Output != "" && prof.Output != "jpeg" {
		a.log.Debugf("%s: the profile's output %q is ignored; -o decides", af.flock.profile, prof.Output)
	}
	return an, nil
}

// flockFrameTimes is cuburn's frame rule: N frames (--frames, else
// round(fps × profile duration × blend.duration)), frame i of 1..N centred
// at edge time (i - 0.5)/N and written as number i; the profile's start,
// end and skip select among them, then --begin and --end (frame numbers,
// inclusive) when given.
func flockFrameTimes(an *flame.CuburnAnim, af animateFlags) ([]float64, []int, error) {
	if af.flock.dtimeSet {
		return nil, nil, usageErrorf("--dtime does not apply to a cuburn edge: its frames are --frames N (or the profile's fps and duration)")
	}
	if af.flock.still {
		if af.flock.frames != 0 || af.beginSet || af.endSet {
			return nil, nil, usageErrorf("--still renders one frame: drop --frames, --begin and --end")
		}
		an.Profile.FrameWidth = 0
		return []float64{0}, []int{0}, nil
	}
	n := af.flock.frames
	if n == 0 {
		n = an.FrameCount()
	}
	switch {
	case af.flock.frames < 0:
		return nil, nil, usageErrorf("invalid --frames %d: want a positive frame count", af.flock.frames)
	case n < 1:
		return nil, nil, usageErrorf("%s: %d frames at %g fps over %g s × blend.duration %g: give --frames N", an.Name, n,
			an.Profile.FPS, an.Profile.Duration, an.Duration)
	case n > maxAnimFrames:
		return nil, nil, usageErrorf("%s: %d frames: over %d (lower --frames or --fps)", an.Name, n, maxAnimFrames)
	}
	an.SetFrameCount(n)
	times, numbers := an.Profile.FrameTimes(n)
	begin, end := math.Inf(-1), math.Inf(1)
	if af.beginSet {
		begin = af.begin
	}
	if af.endSet {
		end = af.end
	}
	if begin > end {
		return nil, nil, usageErrorf("--begin %g is after --end %g", begin, end)
	}
	var ts []float64
	var ns []int
	for i, num := range numbers {
		if f := float64(num); f >= begin && f <= end {
			ts, ns = append(ts, times[i]), append(ns, num)
		}
	}
	if len(ts) == 0 {
		return nil, nil, usageErrorf("%s: no frames selected among 1..%d (profile start/end/skip, --begin/--end)", an.Name, n)
	}
	return ts, ns, nil
}

// flockHelp is the part of 'flame animate --help' about cuburn input.
const flockHelp = `

A cuburn edge or node (JSON, "type": "edge" or "node", as in a cuburn flock)
animates too: an edge blends its link.src node into link.dst (each at its
@phase in turns), a node is one loop of itself (--half: half a loop; --still:
the node itself, one frame without motion blur, numbered 0). Nodes
named "nodes/NAME" are read from --genome-db (default: the directory above
the file's). --profile PROFILE.json gives the size, samples per pixel (our
quality), fps and frame selection; --width/--height/--quality still override
it. Frames: N = --frames, else round(fps × profile duration (30 s) ×
blend.duration); frame i = 1..N is centred at time (i-0.5)/N and numbered i;
its motion blur spans one frame (1024 genomes). --begin/--end pick frame
numbers. cuburn's bilateral filter is approximated by flam3's density
estimation.`

// fmtFlockFrames describes the frame rule for -v.
func fmtFlockFrames(an *flame.CuburnAnim, n int) string {
	return fmt.Sprintf("%s: %d frames (blend.duration %g × %g s × %g fps), %dx%d, %g samples per pixel",
		an.Name, n, an.Duration, an.Profile.Duration, an.Profile.FPS, an.Profile.Width, an.Profile.Height, an.Profile.SPP)
}
