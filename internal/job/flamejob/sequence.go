package flamejob

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
)

// SequenceArgs are the flags of 'flame sequence' that only it has.
type SequenceArgs struct {
	Out             string
	Loops, Edges    int
	Stagger         float64
	Rotate, Inter   bool
	TemporalSamples int
	TemporalFilter  string
	TemporalWidth   float64
	TemporalExp     float64
}

// temporalFilter is the filter --temporal-filter names.
func temporalFilter(name string) (flame.TemporalFilter, bool) {
	switch name {
	case "box":
		return flame.TemporalBox, true
	case "gaussian":
		return flame.TemporalGaussian, true
	case "exp":
		return flame.TemporalExp, true
	}
	return 0, false
}

// check is the usage check of the flags; it applies --rotate and --inter.
func (sf *SequenceArgs) check() error {
	if sf.Out == "" {
		return job.Usagef("flame sequence: -o FILE is required (- for standard output)")
	}
	if sf.Rotate && sf.Inter {
		return job.Usagef("--rotate and --inter exclude each other")
	}
	if _, ok := temporalFilter(sf.TemporalFilter); sf.TemporalFilter != "" && !ok {
		return job.Usagef("invalid --temporal-filter %q: want box, gaussian or exp", sf.TemporalFilter)
	}
	if sf.TemporalSamples < 0 || sf.TemporalSamples > 1<<16 || !(sf.TemporalWidth >= 0) || math.IsInf(sf.TemporalWidth, 0) ||
		math.IsNaN(sf.TemporalExp) || math.IsInf(sf.TemporalExp, 0) {
		return job.Usagef("invalid --temporal-samples %d or --temporal-filter-width %g: want 0..65536 and a finite width >= 0",
			sf.TemporalSamples, sf.TemporalWidth)
	}
	if sf.Rotate {
		sf.Edges = 0
	}
	if sf.Inter {
		sf.Loops = 0
	}
	return nil
}

// temporal sets a keyframe's motion blur from the flags, as a flam3-genome
// template would.
func (sf SequenceArgs) temporal(k *flame.AnimGenome) {
	if sf.TemporalSamples > 0 {
		k.TemporalSamples = sf.TemporalSamples
	}
	if sf.TemporalFilter != "" {
		k.TemporalFilter, _ = temporalFilter(sf.TemporalFilter)
		k.TemporalFilterExp = sf.TemporalExp
	}
	if sf.TemporalWidth > 0 {
		k.TemporalFilterWidth = sf.TemporalWidth
	}
}

// Sequence is 'flame sequence': the genomes of the files as a flam3
// animation of loops and edges, streamed to -o.
func Sequence(ctx context.Context, env *job.Env, o Options, args []string, sf SequenceArgs) error {
	if err := sf.check(); err != nil {
		return err
	}
	plan := output.NewPlan(env.Stdout)
	if _, err := plan.Add(sf.Out); err != nil {
		return job.UsageError{Err: err}
	}
	if err := plan.RefuseInputs(args...); err != nil {
		return job.UsageError{Err: err}
	}
	gs, inputBytes, err := readAnimGenomes(ctx, env, o, args)
	if err != nil {
		return err
	}
	switch {
	case sf.Rotate && len(gs) != 1:
		return job.Usagef("--rotate turns one genome, but %d were given", len(gs))
	case sf.Inter && len(gs) != 2:
		return job.Usagef("--inter joins two genomes, but %d were given", len(gs))
	}
	so := flame.SequenceOptions{LoopFrames: sf.Loops, EdgeFrames: sf.Edges, Stagger: sf.Stagger}
	if err := flame.CheckSequence(len(gs), so); err != nil {
		return job.UsageError{Err: err}
	}
	n := flame.SequenceLen(len(gs), so)
	// The keyframes are streamed to the output, not held: the memory is
	// the genomes', whatever the number of keyframes.
	what := fmt.Sprintf("flame sequence: %d genomes (%d keyframes)", len(gs), n)
	est := flame.SequenceBytes(gs, inputBytes)
	if err := env.CheckMemory(what, est, "the number of genomes"); err != nil {
		return err
	}
	env.Log.Debugf("%s: estimated memory %s", what, job.FormatBytes(est))
	err = plan.Commit(ctx, []output.Write{{Path: sf.Out, Func: func(w io.Writer) error {
		return flame.WriteAnimationEach(w, func(emit func(*flame.AnimGenome) error) error {
			return flame.SequenceEach(ctx, gs, so, func(k *flame.AnimGenome) error {
				sf.temporal(k)
				return emit(k)
			})
		})
	}}})
	if err != nil {
		return err
	}
	if sf.Out != output.Stdout {
		env.Log.Infof("wrote %s (%d keyframes, times 0..%d)", sf.Out, n, n-1)
	}
	return nil
}

// readAnimGenomes reads every <flame> of the files, in order, and the
// files' total size (for the memory estimate).
func readAnimGenomes(ctx context.Context, env *job.Env, o Options, args []string) ([]*flame.AnimGenome, int64, error) {
	parseOpts, err := parseOptions(o)
	if err != nil {
		return nil, 0, err
	}
	parseOpts.Context = ctx
	var gs []*flame.AnimGenome
	inputBytes := int64(0)
	for _, path := range args {
		if err := job.CheckInput("flame sequence", path); err != nil {
			return nil, 0, err
		}
		data, err := input.ReadFile(ctx, path, input.Genome)
		if err != nil {
			return nil, 0, fmt.Errorf("flame: %w", err)
		}
		inputBytes += int64(len(data))
		ks, warns, err := flame.ParseAnimGenomes(data, path, parseOpts)
		for _, w := range warns {
			env.Log.Warnf("%s", w)
		}
		if err != nil {
			return nil, 0, err
		}
		gs = append(gs, ks...)
	}
	return gs, inputBytes, nil
}
