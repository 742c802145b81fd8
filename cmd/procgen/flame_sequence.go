package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/flamejob"
)

func (a *app) newFlameSequenceCmd() *cobra.Command {
	var sf flamejob.SequenceArgs
	cmd := &cobra.Command{
		Use:   "sequence GENOME.flam3 ... -o SEQ.flam3",
		Short: "Make a flam3 animation from genomes: loops and edges, as flam3-genome does",
		Long: `Write a flam3 animation file from genomes, as flam3-genome sequence= does for
Electric Sheep: each genome's loop (its xforms with a non-zero animate flag turn
once around over --loop-frames keyframes; the final xform and xforms with
animate="0" stay), then an edge to the next genome (the two aligned, padded with
flam3's identity xforms, both turning, blended at smoothstep over --edge-frames
keyframes), and a closing keyframe of the last genome. Keyframe times are
0, 1, 2, ...; 'procgen flame animate' and flam3-animate render the file.

--rotate writes the loop of one genome alone, --inter the edge between two.
--temporal-* set every keyframe's motion blur, as a flam3-genome template would.
Genomes come from every <flame> of the files, in order.`,
		Example: `  procgen flame sequence a.flam3 b.flam3 --loop-frames 120 --edge-frames 120 -o ab.flam3
  procgen flame sequence sheep.flam3 --rotate --loop-frames 60 -o loop.flam3
  procgen flame animate loop.flam3 -o loop.mp4`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o := flamejob.Options{Version: version}
			if err := a.decode("flame", &o); err != nil {
				return err
			}
			return flamejob.Sequence(cmd.Context(), a.env(), o, args, sf)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&sf.Out, "output", "o", "", "the animation `FILE` to write (- for standard output)")
	f.IntVar(&sf.Loops, "loop-frames", 100, "keyframes of each genome's loop (0: no loops)")
	f.IntVar(&sf.Edges, "edge-frames", 100, "keyframes of each edge between consecutive genomes")
	f.Float64Var(&sf.Stagger, "stagger", 0, "0..1: xforms start and end their blend one after another along an edge")
	f.BoolVar(&sf.Rotate, "rotate", false, "only the loop of one genome")
	f.BoolVar(&sf.Inter, "inter", false, "only the edge between two genomes")
	f.IntVar(&sf.TemporalSamples, "temporal-samples", 0, "motion blur: temporal samples per frame for every keyframe (0: the genomes')")
	f.StringVar(&sf.TemporalFilter, "temporal-filter", "", "motion blur: temporal filter box, gaussian or exp for every keyframe")
	f.Float64Var(&sf.TemporalWidth, "temporal-filter-width", 0, "motion blur: window width in frames for every keyframe (0: the genomes')")
	f.Float64Var(&sf.TemporalExp, "temporal-filter-exp", 0, "motion blur: exponent of the exp filter")
	a.bindFlag(f, "flame.palettes", "palettes", "")
	a.bindFlag(f, "flame.strict", "strict", "")
	return cmd
}
