package main

import (
	"github.com/spf13/pflag"

	"github.com/procgen-dev/procgen/internal/job/flamejob"
)

// addFlockFlags defines the flags of 'flame animate' for cuburn's JSON flocks.
func addFlockFlags(f *pflag.FlagSet, ff *flamejob.FlockArgs) {
	f.StringVar(&ff.Profile, "profile", "", "cuburn render `PROFILE.json` for a cuburn edge or node (size, samples per pixel, fps, frames)")
	f.IntVar(&ff.Frames, "frames", 0, "frames of a cuburn edge or node (default: round(fps × profile duration × blend.duration), as cuburn)")
	f.BoolVar(&ff.Half, "half", false, "render a cuburn node as a half loop (-0.25 to +0.25 turns), as cuburn's --half")
	f.BoolVar(&ff.Still, "still", false, "render a cuburn node (or an edge's source end) as one still: edge time 0, no motion blur, frame number 0")
	f.StringVar(&ff.DB, "genome-db", "", "`DIR` that a cuburn edge's \"nodes/NAME\" links are read from (default: the directory above the file's, then its own, then the working directory)")
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
