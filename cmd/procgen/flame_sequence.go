package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/output"
)

type sequenceFlags struct {
	out             string
	loops, edges    int
	stagger         float64
	rotate, inter   bool
	temporalSamples int
	temporalFilter  string
	temporalWidth   float64
	temporalExp     float64
}

func (a *app) newFlameSequenceCmd() *cobra.Command {
	var sf sequenceFlags
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
			var o flameOptions
			if err := a.decode("flame", &o); err != nil {
				return err
			}
			return a.flameSequence(cmd.Context(), args, sf, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&sf.out, "output", "o", "", "the animation `FILE` to write (- for standard output)")
	f.IntVar(&sf.loops, "loop-frames", 100, "keyframes of each genome's loop (0: no loops)")
	f.IntVar(&sf.edges, "edge-frames", 100, "keyframes of each edge between consecutive genomes")
	f.Float64Var(&sf.stagger, "stagger", 0, "0..1: xforms start and end their blend one after another along an edge")
	f.BoolVar(&sf.rotate, "rotate", false, "only the loop of one genome")
	f.BoolVar(&sf.inter, "inter", false, "only the edge between two genomes")
	f.IntVar(&sf.temporalSamples, "temporal-samples", 0, "motion blur: temporal samples per frame for every keyframe (0: the genomes')")
	f.StringVar(&sf.temporalFilter, "temporal-filter", "", "motion blur: temporal filter box, gaussian or exp for every keyframe")
	f.Float64Var(&sf.temporalWidth, "temporal-filter-width", 0, "motion blur: window width in frames for every keyframe (0: the genomes')")
	f.Float64Var(&sf.temporalExp, "temporal-filter-exp", 0, "motion blur: exponent of the exp filter")
	a.bindFlag(f, "flame.palettes", "palettes", "")
	a.bindFlag(f, "flame.strict", "strict", "")
	return cmd
}

func (a *app) flameSequence(ctx context.Context, args []string, sf sequenceFlags, o flameOptions) error {
	if sf.out == "" {
		return usageErrorf("flame sequence: -o FILE is required (- for standard output)")
	}
	if sf.rotate && sf.inter {
		return usageErrorf("--rotate and --inter exclude each other")
	}
	filters := map[string]flame.TemporalFilter{"box": flame.TemporalBox, "gaussian": flame.TemporalGaussian, "exp": flame.TemporalExp}
	if _, ok := filters[sf.temporalFilter]; sf.temporalFilter != "" && !ok {
		return usageErrorf("invalid --temporal-filter %q: want box, gaussian or exp", sf.temporalFilter)
	}
	if sf.temporalSamples < 0 || sf.temporalSamples > 1<<16 || !(sf.temporalWidth >= 0) || math.IsInf(sf.temporalWidth, 0) ||
		math.IsNaN(sf.temporalExp) || math.IsInf(sf.temporalExp, 0) {
		return usageErrorf("invalid --temporal-samples %d or --temporal-filter-width %g: want 0..65536 and a finite width >= 0",
			sf.temporalSamples, sf.temporalWidth)
	}
	if sf.rotate {
		sf.edges = 0
	}
	if sf.inter {
		sf.loops = 0
	}
	plan := output.NewPlan(a.stdout)
	if _, err := plan.Add(sf.out); err != nil {
		return usageError{Err: err}
	}
	if err := plan.RefuseInputs(args...); err != nil {
		return usageError{Err: err}
	}
	parseOpts, err := flameParseOptions(o)
	if err != nil {
		return err
	}
	parseOpts.Context = ctx
	var gs []*flame.AnimGenome
	inputBytes := int64(0)
	for _, path := range args {
		if err := checkInputFile("flame sequence", path); err != nil {
			return err
		}
		data, err := input.ReadFile(ctx, path, input.Genome)
		if err != nil {
			return fmt.Errorf("flame: %w", err)
		}
		inputBytes += int64(len(data))
		ks, warns, err := flame.ParseAnimGenomes(data, path, parseOpts)
		for _, w := range warns {
			a.log.Warnf("%s", w)
		}
		if err != nil {
			return err
		}
		gs = append(gs, ks...)
	}
	switch {
	case sf.rotate && len(gs) != 1:
		return usageErrorf("--rotate turns one genome, but %d were given", len(gs))
	case sf.inter && len(gs) != 2:
		return usageErrorf("--inter joins two genomes, but %d were given", len(gs))
	}
	so := flame.SequenceOptions{LoopFrames: sf.loops, EdgeFrames: sf.edges, Stagger: sf.stagger}
	if err := flame.CheckSequence(len(gs), so); err != nil {
		return usageError{Err: err}
	}
	n := flame.SequenceLen(len(gs), so)
	// The keyframes are streamed to the output, not held: the memory is
	// the genomes', whatever the number of keyframes.
	what := fmt.Sprintf("flame sequence: %d genomes (%d keyframes)", len(gs), n)
	est := flame.SequenceBytes(gs, inputBytes)
	if err := a.checkMemory(what, est, "the number of genomes"); err != nil {
		return err
	}
	a.log.Debugf("%s: estimated memory %s", what, formatBytes(est))
	temporal := func(k *flame.AnimGenome) { // as a flam3-genome template would
		if sf.temporalSamples > 0 {
			k.TemporalSamples = sf.temporalSamples
		}
		if sf.temporalFilter != "" {
			k.TemporalFilter, k.TemporalFilterExp = filters[sf.temporalFilter], sf.temporalExp
		}
		if sf.temporalWidth > 0 {
			k.TemporalFilterWidth = sf.temporalWidth
		}
	}
	err = plan.Commit(ctx, []output.Write{{Path: sf.out, Func: func(w io.Writer) error {
		return flame.WriteAnimationEach(w, func(emit func(*flame.AnimGenome) error) error {
			return flame.SequenceEach(ctx, gs, so, func(k *flame.AnimGenome) error {
				temporal(k)
				return emit(k)
			})
		})
	}}})
	if err != nil {
		return err
	}
	if sf.out != output.Stdout {
		a.log.Infof("wrote %s (%d keyframes, times 0..%d)", sf.out, n, n-1)
	}
	return nil
}
