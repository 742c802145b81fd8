package flamejob

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/flame/genome"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
)

// GenomeArgs are the flags of 'flame genome'.
type GenomeArgs struct {
	Mode          string // random, mutate, cross, clone, rotate, strip
	Out           string
	Count         int
	Vars          string
	MinX, MaxX    int
	Symmetry      int
	Final         string // random, yes, no
	Mutation      string
	Method        string
	Angle         float64
	Strips, Strip int
	Width, Height int
	All           bool // clone: every genome of the inputs, in order
	Speed         float64
	finalSetting  int
	vars          []flame.VarID
	mutation      genome.Mutation
	crossing      genome.Crossing
}

// MaxGenomeCount bounds --count: each genome is held until the all-or-nothing write.
const MaxGenomeCount = 100000

func (ga *GenomeArgs) check(nargs int) error {
	if ga.Out == "" {
		return job.Usagef("flame genome: -o FILE is required (- for standard output)")
	}
	want := map[string]int{"random": 0, "mutate": -1, "cross": 2, "clone": -1, "rotate": -1, "strip": -1}
	n, ok := want[ga.Mode]
	if !ok {
		return job.Usagef("invalid --mode %q: want random, mutate, cross, clone, rotate or strip", ga.Mode)
	}
	switch {
	case n == 0 && nargs != 0:
		return job.Usagef("flame genome --mode random takes no genome files, but %d were given", nargs)
	case n == 2 && nargs != 2:
		return job.Usagef("flame genome --mode cross takes two genome files (parent A, parent B), but %d were given", nargs)
	case n < 0 && nargs == 0:
		return job.Usagef("flame genome --mode %s needs at least one genome file", ga.Mode)
	}
	if ga.Count < 1 || ga.Count > MaxGenomeCount {
		return job.Usagef("invalid --count %d: want 1..%d", ga.Count, MaxGenomeCount)
	}
	if math.IsNaN(ga.Angle) || math.IsInf(ga.Angle, 0) || math.IsNaN(ga.Speed) || math.IsInf(ga.Speed, 0) || ga.Speed < 0 || ga.Speed > 100 {
		return job.Usagef("invalid --angle %g or --speed %g: want finite numbers, speed 0..100", ga.Angle, ga.Speed)
	}
	finals := map[string]int{"random": 0, "yes": 1, "no": -1}
	if ga.finalSetting, ok = finals[ga.Final]; !ok {
		return job.Usagef("invalid --final %q: want random, yes or no", ga.Final)
	}
	vs, err := genome.ParseVars(ga.Vars)
	if err != nil {
		return job.Usagef("invalid --vars: %v", err)
	}
	ga.vars = vs
	ga.mutation, ga.crossing = genome.Mutation(ga.Mutation), genome.Crossing(ga.Method)
	ro := ga.randomOptions(nil)
	if err := ro.Check(); err != nil {
		return job.Usagef("flame genome: %v", err)
	}
	if ga.Mode == "strip" && (ga.Strips < 1 || ga.Strip < 0 || ga.Strip >= ga.Strips || ga.Strips > 1<<16) {
		return job.Usagef("invalid --strips %d --strip %d: want 1 <= strips <= 65536 and 0 <= strip < strips", ga.Strips, ga.Strip)
	}
	return nil
}

func (ga *GenomeArgs) randomOptions(pf *flame.PaletteFile) genome.RandomOptions {
	return genome.RandomOptions{Vars: ga.vars, MinXforms: ga.MinX, MaxXforms: ga.MaxX, Symmetry: ga.Symmetry,
		Final: ga.finalSetting, Palettes: pf, Width: ga.Width, Height: ga.Height}
}

// Genome is 'flame genome': --count genomes made by --mode from the files
// (none for random, two for cross), written as one flam3 file to -o.
func Genome(ctx context.Context, env *job.Env, o Options, args []string, ga GenomeArgs) error {
	if err := ga.check(len(args)); err != nil {
		return err
	}
	plan := output.NewPlan(env.Stdout)
	if _, err := plan.Add(ga.Out); err != nil {
		return job.UsageError{Err: err}
	}
	if err := plan.RefuseInputs(args...); err != nil {
		return job.UsageError{Err: err}
	}
	parseOpts, err := parseOptions(o)
	if err != nil {
		return err
	}
	var parents [][]*flame.AnimGenome
	for _, path := range args {
		gs, _, err := readAnimGenomes(ctx, env, o, []string{path})
		if err != nil {
			return err
		}
		if len(gs) == 0 {
			return fmt.Errorf("flame genome: %s holds no <flame>", path)
		}
		parents = append(parents, gs)
	}
	r := rand.New(rand.NewPCG(env.Seed, 0x67656e6f6d65)) // "genome": one stream per seed
	out, err := makeGenomes(ctx, r, &ga, parents, parseOpts.Palettes)
	if err != nil {
		return err
	}
	for i, k := range out {
		k.Time = float64(i)
	}
	if err := plan.Commit(ctx, []output.Write{{Path: ga.Out, Func: func(w io.Writer) error {
		return flame.WriteAnimation(w, out)
	}}}); err != nil {
		return err
	}
	if ga.Out != output.Stdout {
		noun := "genomes"
		if len(out) == 1 {
			noun = "genome"
		}
		env.Log.Infof("wrote %s (%d %s, --mode %s)", ga.Out, len(out), noun, ga.Mode)
	}
	return nil
}

// makeGenomes runs the mode --count times (clone --all: once per input
// genome); each time an input genome is picked at random, as flam3-genome
// picks one from its file.
func makeGenomes(ctx context.Context, r *rand.Rand, ga *GenomeArgs, parents [][]*flame.AnimGenome, pf *flame.PaletteFile) ([]*flame.AnimGenome, error) {
	var all []*flame.AnimGenome
	for _, gs := range parents {
		all = append(all, gs...)
	}
	pick := func() *flame.AnimGenome { return all[r.IntN(len(all))] }
	if ga.Mode == "clone" && ga.All {
		out := make([]*flame.AnimGenome, len(all))
		for i, g := range all {
			out[i] = genome.Clone(g)
		}
		return out, nil
	}
	out := make([]*flame.AnimGenome, 0, ga.Count)
	for range ga.Count {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var k *flame.AnimGenome
		var err error
		switch ga.Mode {
		case "random":
			k = genome.Random(r, ga.randomOptions(pf))
		case "mutate":
			k, _, err = genome.Mutate(r, pick(), ga.mutation, genome.MutateOptions{Vars: ga.vars, Palettes: pf, Speed: ga.Speed})
		case "cross":
			a, b := parents[0][r.IntN(len(parents[0]))], parents[1][r.IntN(len(parents[1]))]
			k, _, err = genome.Cross(r, a, b, ga.crossing)
		case "clone":
			k = genome.Clone(pick())
		case "rotate":
			k = genome.RotateGenome(pick(), ga.Angle)
		case "strip":
			k, err = genome.Strip(pick(), ga.Strips, ga.Strip)
		}
		if err != nil {
			return nil, job.UsageError{Err: fmt.Errorf("flame genome --mode %s: %w", ga.Mode, err)}
		}
		out = append(out, k)
	}
	return out, nil
}
