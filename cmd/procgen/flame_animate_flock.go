package main

import (
	"github.com/spf13/pflag"

	"github.com/procgen-dev/procgen/internal/flame/anim"
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

// flockOptions are the cuburn options as the animation pipeline takes them.
func (af animateFlags) flockOptions() anim.FlockOptions {
	f := af.flock
	return anim.FlockOptions{Profile: f.profile, Frames: f.frames, Half: f.half, Still: f.still, DB: f.db,
		FPS: af.fps, FPSSet: f.fpsSet, DTime: f.dtimeSet}
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
