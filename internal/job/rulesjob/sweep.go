package rulesjob

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/shard"
)

// A sweep (-D NAME=LO:HI:STEP, -D NAME=A,B,C, --replicates K) runs the
// separate runs of every combination of the swept constants and every
// replicate as the states of one run: group g = combination c * K +
// replicate r holds the N states one separate run would (--generate N or
// --states FILE), run by one program that reads the swept constants from
// hidden per-state fields (rules.CompileSwept). Replicate r is the run with
// --seed S+r: its generated states and its draws are that run's, so each
// CSV row is the separate run's row after the sweep's columns (the swept
// constants, then "replicate").

// sweepPlan is a sweep's shape.
type sweepPlan struct {
	axes       []axis
	combos     [][]string // values per combination, in axes order
	replicates int
}

func (sp *sweepPlan) groups() int { return len(sp.combos) * sp.replicates }

// columns are the sweep's leading CSV columns.
func (sp *sweepPlan) columns() []string {
	cols := make([]string, 0, len(sp.axes)+1)
	for _, a := range sp.axes {
		cols = append(cols, a.name)
	}
	return append(cols, "replicate")
}

// lead writes group g's leading cells.
func (sp *sweepPlan) lead(g int, rec []string) []string {
	rec = append(rec[:0], sp.combos[g/sp.replicates]...)
	return append(rec, strconv.Itoa(g%sp.replicates))
}

// checkSweep refuses what a sweep does not write.
func checkSweep(o Options, p *plan, format string, rc ruleChoice, sh shard.Shard) error {
	switch {
	case rc.notation != nil || rc.path == "":
		return job.Usagef("a sweep (-D NAME=LO:HI:STEP or A,B,C, --replicates) needs a rule file whose constants it sweeps")
	case format != "csv":
		return job.Usagef("a sweep writes CSV: its rows are the separate runs' with the swept constants and the replicate first (-o sweep.csv or --format csv)")
	case o.UntilFixpoint:
		return job.Usagef("a sweep runs --steps N: its separate runs would stop at different fixed points")
	case o.Stats != "" || len(p.trace) > 0 || o.Frames != "":
		return job.Usagef("--stats, --trace and --frames describe one run: leave them out of a sweep")
	case len(p.recordText) > 0 && o.RecordOut == "":
		return job.Usagef("--record in a sweep: name the CSV with --record-out FILE (a row per combination, replicate and step)")
	case sh.Active():
		return job.Usagef("--shard with a sweep: sweep part of the values instead")
	}
	return nil
}

// runSweep is Run for a sweep.
func runSweep(ctx context.Context, env *job.Env, rc ruleChoice, out string, o Options, p *plan, sp *sweepPlan, sh shard.Shard) error {
	start := time.Now()
	env.Dev.Prefetch()
	format, err := outputFormat(out, p.format)
	if err != nil {
		return err
	}
	if err := checkSweep(o, p, format, rc, sh); err != nil {
		return err
	}
	inputs, err := checkInputs(env, rc.path, o, p)
	if err != nil {
		return err
	}
	outs, err := env.PlanOutputs(inputs, plannedPaths(out, o, p)...)
	if err != nil {
		return err
	}
	plain, swept, err := compileSweep(ctx, rc.path, p, sp)
	if err != nil {
		return err
	}
	if p.record, err = observables(plain, p.recordText); err != nil {
		return err
	}
	st, size, err := sweepStates(ctx, env, plain, swept, o, p, sp)
	if err != nil {
		return err
	}
	engine, backend, closeDevices, err := openEngine(ctx, env, swept, st, p, gpuEngine{make: rules.NewEngine})
	if err != nil {
		return err
	}
	defer closeDevices()
	groups := rules.DrawGroups{Size: size, Seeds: make([]uint64, sp.groups())}
	for g := range groups.Seeds {
		groups.Seeds[g] = env.Seed + uint64(g%sp.replicates)
	}
	var rec *rules.GroupRecorder
	var after func(lo, hi, t int) error
	if len(p.record) > 0 {
		rec = rules.NewGroupRecorder(plain, p.record, sp.groups(), size, p.steps)
		after = func(lo, hi, t int) error { rec.Observe(st, lo, hi, t); return nil }
	}
	phase.Enter(ctx, "rules.run")
	opts := rules.Options{Steps: p.steps, Schedule: p.schedule, Layout: p.layout, NoFiredPerStep: true,
		Progress:    env.Progress(int64(st.N), "rules sweep"),
		Interpreter: o.Kernel == "interpreter", RequireGenerated: o.Kernel == "generated"}
	if err := rules.RunSweep(ctx, engine, swept, st, opts, groups, after); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	writes := []output.Write{sweepStatesWrite(out, plain, st, sp)}
	if rec != nil {
		writes = append(writes, sweepRecordWrite(o.RecordOut, plain, p.record, rec, sp))
	}
	phase.Enter(ctx, "write")
	if err := outs.Commit(ctx, writes); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	env.Log.Infof("%s: a sweep of %d combinations x %d replicates, %d states, %d steps on %s in %.3g s",
		rc.name, len(sp.combos), sp.replicates, st.N, p.steps, backend, time.Since(start).Seconds())
	return nil
}

// compileSweep compiles the rule file plainly for every combination (each
// as its separate run would, so a use the sweep cannot serve fails as that
// run fails) and once with the swept constants as per-state fields.
func compileSweep(ctx context.Context, path string, p *plan, sp *sweepPlan) (plain, swept *rules.Program, err error) {
	phase.Enter(ctx, "rules.compile")
	src, err := input.ReadFile(ctx, path, input.Source)
	if err != nil {
		return nil, nil, job.AsUsage(fmt.Errorf("rule file: %w", err))
	}
	typ := map[string]string{}
	for k, a := range sp.axes {
		typ[a.name] = sp.combos[0][k]
	}
	// The swept compile first: its errors name where a swept constant is
	// used as the sweep cannot serve it.
	if swept, err = rules.CompileSwept(path, src, p.defines, typ); err != nil {
		return nil, nil, fmt.Errorf("rules: %w", err)
	}
	for _, combo := range sp.combos {
		defs := map[string]string{}
		for k, v := range p.defines {
			defs[k] = v
		}
		for k, a := range sp.axes {
			defs[a.name] = combo[k]
		}
		prog, err := rules.Compile(path, src, defs)
		if err != nil {
			return nil, nil, fmt.Errorf("rules: %w", err)
		}
		if plain == nil {
			plain = prog
		} else if prog.Words != plain.Words || len(prog.Fields) != len(plain.Fields) {
			return nil, nil, job.Usagef("rules: %s: the swept constants change the state's layout", path)
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	return plain, swept, nil
}

// sweepStates makes every group's states: the separate run's (generated
// with its seed, or read), the swept constants' fields set. size is the
// states per group.
func sweepStates(ctx context.Context, env *job.Env, plain, swept *rules.Program, o Options, p *plan, sp *sweepPlan) (*rules.States, int, error) {
	size := o.Generate
	var read *rules.States
	if o.States != "" {
		var err error
		if read, err = readStates(ctx, o.States, plain); err != nil {
			return nil, 0, err
		}
		size = read.N
	}
	if int64(size)*int64(sp.groups()) > maxStates {
		return nil, 0, job.Usagef("a sweep of %d runs of %d states: more than %d states", sp.groups(), size, maxStates)
	}
	total := size * sp.groups()
	if err := checkMemory(env, swept, total, p); err != nil {
		return nil, 0, err
	}
	st := rules.NewStates(swept, total)
	field := map[string]*rules.Field{}
	for k := range swept.Fields {
		field[swept.Fields[k].Name] = &swept.Fields[k]
	}
	for r := range sp.replicates {
		base := read
		if base == nil {
			base = rules.Generate(plain, size, env.Seed+uint64(r))
		}
		for c, combo := range sp.combos {
			g := c*sp.replicates + r
			for s := range size {
				w := st.State(g*size + s)
				copy(w, base.State(s))
				for k, a := range sp.axes {
					f := field[a.name]
					w[f.Off] = constBits(combo[k], f.Type)
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
	}
	return st, size, nil
}

// constBits is a swept value's bits as the compiler stores the constant
// (a float through float64, then float32).
func constBits(text string, t rules.Type) uint32 {
	if t == rules.Int {
		i, _ := strconv.ParseInt(text, 10, 32)
		return uint32(int32(i))
	}
	f, _ := strconv.ParseFloat(text, 64)
	return math.Float32bits(float32(f))
}

// sweepStatesWrite writes the final states: a separate run's CSV rows,
// each after its group's columns.
func sweepStatesWrite(out string, plain *rules.Program, st *rules.States, sp *sweepPlan) output.Write {
	if out == "" {
		out = output.Stdout
	}
	size := st.N / sp.groups()
	return output.Write{Path: out, Func: func(w io.Writer) error {
		header := append(sp.columns(), rules.Columns(plain)...)
		return output.EncodeCSV(w, header, func(emit func([]string) error) error {
			var lead, row []string
			for s := range st.N {
				lead = sp.lead(s/size, lead)
				row = rules.CSVRecord(plain, st.State(s)[:plain.Words], row)
				if err := emit(append(lead, row...)); err != nil {
					return err
				}
			}
			return nil
		})
	}}
}

// sweepRecordWrite writes --record-out: each group's rows of a separate
// run's record CSV after the group's columns.
func sweepRecordWrite(path string, plain *rules.Program, obs []rules.Observable, rec *rules.GroupRecorder, sp *sweepPlan) output.Write {
	return output.Write{Path: path, Func: func(w io.Writer) error {
		header := sp.columns()
		header = append(header, "step")
		for _, o := range obs {
			header = append(header, o.Text)
		}
		return output.EncodeCSV(w, header, func(emit func([]string) error) error {
			var lead []string
			cells := make([]string, 1+len(obs))
			for g := range sp.groups() {
				lead = sp.lead(g, lead)
				for t, row := range recordValues(plain, obs, rec.Rows(g)) {
					recordCells(t, row, cells)
					if err := emit(append(lead, cells...)); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}}
}
