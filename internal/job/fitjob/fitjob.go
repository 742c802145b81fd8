// Package fitjob is forest fit behind the job contract: it reads a stem map
// (with forest disperse's reader) and a trap file, fits each species' kernel
// families and count models (internal/forest/fit) on the device the policy
// opens, prints the ranking and writes the best fit per species as a
// species file forest disperse reads.
package fitjob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/forest/fit"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
)

// Request is one fit. The tagged fields are the forest.fit.* settings
// (flags, environment, config file); Columns are the stem map's, shared
// with forest disperse (forest.x-col ...).
type Request struct {
	Stems, Traps, Out string   `mapstructure:"-"`
	Kernels           []string `mapstructure:"kernel"`
	Counts            []string `mapstructure:"counts"`
	// Species is the one species fitted when the trap file has no species
	// column.
	Species    string  `mapstructure:"species"`
	FitBeta    bool    `mapstructure:"fit-beta"`
	Beta       float64 `mapstructure:"beta"`
	MinDBH     float64 `mapstructure:"min-dbh"`
	Candidates int     `mapstructure:"candidates"`
	MaxEvals   int     `mapstructure:"max-evals"`
	Bootstrap  int     `mapstructure:"bootstrap"`
	Seed       uint64  `mapstructure:"-"`
	Columns    Columns `mapstructure:"-"`
}

// Columns name the stem map's columns (empty: found by name) and the DBH
// unit, as forest disperse reads them.
type Columns struct {
	XCol       string `mapstructure:"x-col"`
	YCol       string `mapstructure:"y-col"`
	SpeciesCol string `mapstructure:"species-col"`
	DBHCol     string `mapstructure:"dbh-col"`
	DBHUnit    string `mapstructure:"dbh-unit"`
	// Girth: the DBH column holds the girth at breast height.
	Girth bool `mapstructure:"girth"`
	// Where keeps only the stem map rows every condition holds for
	// (forest disperse's --where: a census, live stems).
	Where []string `mapstructure:"where"`
	where []forest.Condition
}

// Validate checks the request's flags (usage errors).
func (r *Request) Validate() error {
	if r.Out == "" {
		return job.Usagef("forest fit: -o FILE.yaml is required: the fitted species file")
	}
	for _, k := range r.Kernels {
		if !contains(fit.Families(), k) {
			return job.Usagef("forest fit: --kernel %q: want %s", k, strings.Join(fit.Families(), ","))
		}
	}
	for _, c := range r.Counts {
		if c != string(fit.Poisson) && c != string(fit.NegBinom) {
			return job.Usagef("forest fit: --counts %q: want poisson, nb or both", c)
		}
	}
	switch {
	case len(r.Kernels) == 0 || len(r.Counts) == 0:
		return job.Usagef("forest fit: --kernel and --counts need at least one value")
	case r.Candidates < 1 || r.Candidates > 1e8:
		return job.Usagef("forest fit: --candidates %d: want 1..1e8", r.Candidates)
	case r.MaxEvals < 0:
		return job.Usagef("forest fit: --max-evals %d: want 0 (automatic) or more", r.MaxEvals)
	case r.Bootstrap < 0 || r.Bootstrap > 10000:
		return job.Usagef("forest fit: --bootstrap %d: want 0 (chi-squared cut-off) to 10000 samples", r.Bootstrap)
	case r.Beta < -20 || r.Beta > 20 || r.MinDBH < 0:
		return job.Usagef("forest fit: --beta in -20..20 and --min-dbh 0 or more")
	}
	r.Columns.where = nil
	for _, w := range r.Columns.Where {
		if strings.TrimSpace(w) == "" {
			continue
		}
		c, err := forest.ParseCondition(w)
		if err != nil {
			return job.UsageError{Err: fmt.Errorf("forest fit: --where: %w", err)}
		}
		r.Columns.where = append(r.Columns.where, c)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Run fits every species and writes r.Out; a fit that does not converge
// fails the run (exit 1) and writes nothing.
func Run(ctx context.Context, env *job.Env, r Request) error {
	for _, in := range []string{r.Stems, r.Traps} {
		if err := job.CheckInput("forest fit", in); err != nil {
			return err
		}
	}
	t, err := output.Resolve(r.Out)
	if err != nil {
		return job.AsUsage(fmt.Errorf("forest fit: -o: %w", err))
	}
	if output.SameFile(t, r.Stems) || output.SameFile(t, r.Traps) {
		return job.Usagef("forest fit: -o %s is an input of the run", r.Out)
	}
	problems, err := readProblems(ctx, r)
	if err != nil {
		return err
	}
	// --device auto takes any GPU: a fit was faster there at every size
	// measured (bench-e2e's "forest fit" rows on the H200 host's 16 cores,
	// c8ba9d6: 100 traps among 5,000 parents 1.83 s against 4.55 s, among
	// 500 parents 0.58 s against 1.09 s): Nelder-Mead and the profiles
	// evaluate one point at a time, which the CPU runs on one core below
	// 65,536 trap-parent terms and spreads over its cores, at a fan-out's
	// cost each time, above.
	dev, err := env.Dev.Open()
	if err != nil {
		return err
	}
	defer env.Dev.Release(dev)
	var best []*fit.Estimate
	var failed []string
	for _, p := range problems {
		ev, closeEv, err := evaluator(dev, p)
		if err != nil {
			return err
		}
		est, fails, err := fitSpecies(ctx, env, r, p, ev)
		closeEv()
		if err != nil {
			return err
		}
		failed = append(failed, fails...)
		if len(fails) == 0 {
			best = append(best, est)
		}
	}
	if len(failed) > 0 {
		// Errors print on one line (cmd/procgen): numbers keep the
		// refusals apart.
		for i, f := range failed {
			failed[i] = fmt.Sprintf("[%d] %s", i+1, f)
		}
		return fmt.Errorf("forest fit: %d fit(s) gave no estimate, so %s is not written: %s", len(failed), r.Out,
			strings.Join(failed, " "))
	}
	header := []string{"fitted by procgen forest fit from " + r.Stems + " and " + r.Traps,
		"the best kernel and count model per species by AIC; intervals: 95% profile likelihood"}
	var buf bytes.Buffer
	if err := fit.WriteSpecies(&buf, header, best); err != nil {
		return err
	}
	if err := output.WriteFileContext(ctx, r.Out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return fmt.Errorf("forest fit: write %s: %w", r.Out, err)
	}
	env.Log.Infof("forest fit: wrote %s (%d species)", r.Out, len(best))
	return nil
}

// fitSpecies fits every kernel x count model of one species, prints the
// ranking by AIC and returns the best; fails lists the fits that gave no
// estimate.
func fitSpecies(ctx context.Context, env *job.Env, r Request, p *fit.Problem, ev fit.Evaluator) (*fit.Estimate, []string, error) {
	var ests []*fit.Estimate
	var fails []string
	for _, k := range r.Kernels {
		for _, c := range r.Counts {
			what := fmt.Sprintf("%s %s/%s", p.Species, k, c)
			bar := env.Progress(int64(r.Candidates), "forest fit "+what)
			e, err := fit.Fit(ctx, ev, fit.Options{Kernel: forest.KernelKind(k), Counts: fit.Counts(c),
				Base: forest.Species{Name: p.Species, Beta: r.Beta, MinDBH: r.MinDBH}, FitBeta: r.FitBeta,
				Candidates: r.Candidates, Seed: r.Seed, MaxEvals: r.MaxEvals, Bootstrap: r.Bootstrap, Progress: bar})
			if errors.Is(err, fit.ErrNotConverged) {
				fails = append(fails, what+": "+err.Error())
				continue
			}
			if err != nil {
				return nil, nil, fmt.Errorf("forest fit: %s: %w", what, err)
			}
			env.Log.Debugf("forest fit: %s: %d likelihood evaluations on %s", what, e.Evals, ev.Name())
			if caveat := intervalCaveat(forest.KernelKind(k), fit.Counts(c)); caveat != "" {
				env.Log.Warnf("forest fit: %s: %s", p.Species, caveat)
			}
			ests = append(ests, e)
		}
	}
	sort.SliceStable(ests, func(a, b int) bool { return ests[a].AIC < ests[b].AIC })
	w := env.Stdout
	fmt.Fprintf(w, "species %s: %d traps, %d parents (%s)\n", p.Species, p.Traps(), p.Parents(), ev.Name())
	for _, e := range ests {
		fmt.Fprintf(w, "  %-11s %-7s logLik %10.4f  AIC %10.4f  dAIC %8.4f\n", e.Kernel, e.Counts, e.LL, e.AIC, e.AIC-ests[0].AIC)
		for _, pr := range e.Params {
			fmt.Fprintf(w, "      %-6s %-12.6g 95%% %s\n", pr.Name, pr.Value, pr.Interval())
		}
	}
	if len(ests) == 0 {
		return nil, fails, nil
	}
	return ests[0], fails, nil
}

// readProblems reads the stem map and the traps and pairs them by species.
func readProblems(ctx context.Context, r Request) ([]*fit.Problem, error) {
	f, err := input.Open(ctx, r.Stems, input.StemMap)
	if err != nil {
		return nil, job.AsUsage(fmt.Errorf("stem map: %w", err))
	}
	stems, err := forest.ReadStems(f, r.Stems, forest.StemOptions{X: r.Columns.XCol, Y: r.Columns.YCol, Species: r.Columns.SpeciesCol,
		DBH: r.Columns.DBHCol, DBHUnit: r.Columns.DBHUnit, Girth: r.Columns.Girth, Where: r.Columns.where})
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("forest fit: %w", err)
	}
	tf, err := input.Open(ctx, r.Traps, input.StemMap)
	if err != nil {
		return nil, job.AsUsage(fmt.Errorf("trap file: %w", err))
	}
	traps, bySpecies, err := fit.ReadTraps(tf, r.Traps)
	tf.Close()
	if err != nil {
		return nil, fmt.Errorf("forest fit: %w", err)
	}
	names := stems.Species()
	groups := map[string][]fit.Trap{}
	switch {
	case bySpecies:
		for _, t := range traps {
			groups[t.Species] = append(groups[t.Species], t)
		}
	case r.Species != "":
		groups[r.Species] = traps
	case len(names) == 1:
		groups[names[0]] = traps
	default:
		return nil, job.Usagef("forest fit: %s has no species column and the stem map has %d species: "+
			"name the one counted with --species NAME", r.Traps, len(names))
	}
	var out []*fit.Problem
	for _, sp := range sortedKeys(groups) {
		if !contains(names, sp) {
			return nil, fmt.Errorf("forest fit: %s counts species %q, which the stem map %s does not have (it has %s)",
				r.Traps, sp, r.Stems, strings.Join(names, ", "))
		}
		var parents []forest.Tree
		for _, s := range stems.Stems {
			if s.Species == sp && s.DBH >= r.MinDBH {
				parents = append(parents, forest.Tree{X: s.X, Y: s.Y, DBH: s.DBH})
			}
		}
		p, err := fit.NewProblem(sp, groups[sp], parents)
		if err != nil {
			return nil, fmt.Errorf("forest fit: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

func sortedKeys(m map[string][]fit.Trap) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}
