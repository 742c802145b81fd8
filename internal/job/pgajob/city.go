package pgajob

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/geo"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/pga"
	"github.com/procgen-dev/procgen/internal/phase"
)

// overflowTol is how far (metres) a building may reach beyond its lot
// before pga city warns: eaves and sills stick out a little.
const overflowTol = 0.5

// report is the JSON statistics output.
type report struct {
	Grammar   string  `json:"grammar"`
	Lots      string  `json:"lots"` // the GeoJSON file or "grid WxH"
	Backend   string  `json:"backend"`
	Seed      uint64  `json:"seed"`
	Axiom     string  `json:"axiom"`
	Kind      string  `json:"axiom_kind"`
	Axioms    int     `json:"axioms"`
	ParseMS   float64 `json:"parse_ms"`
	LotsMS    float64 `json:"lots_ms"`
	EvalMS    float64 `json:"evaluate_ms"`
	WriteMS   float64 `json:"write_ms,omitempty"`
	ShapesPMS float64 `json:"terminals_per_ms"`
	// Georef says where geographic lots were built: the CRS and the
	// origin of the model's frame (absent for local metres and grids).
	Georef *geo.Georef `json:"georef,omitempty"`
	pga.MeshStats
}

// city is one grammar's run: its settings, and the report it fills in.
type city struct {
	env  *job.Env
	o    Options
	path string
	outs []string
	rep  report
	// projs are the terminals' texture projections (pga.Result.Projections).
	projs [][8]float32
	// glb is the GLB built on the device, when the terminals stayed there.
	glb *pga.GLB
}

func ms(d time.Duration) float64 { return d.Seconds() * 1e3 }

// runCity builds the city of the grammar at path: plan, parse, lay out the
// lots, check the limits, evaluate on the device the policy opens, write.
func runCity(ctx context.Context, env *job.Env, o Options, path string, outs []string) error {
	env.Dev.Prefetch(pga.KernelFamily)
	c := &city{env: env, o: o, path: path, outs: outs}
	inputs := []string{path}
	if err := job.CheckInput("pga", path); err != nil {
		return err
	}
	if o.Lots != "" {
		if err := job.CheckInput("pga: --lots", o.Lots); err != nil {
			return err
		}
		inputs = append(inputs, o.Lots)
	}
	plan, err := env.PlanOutputs(inputs, o.plannedPaths(outs)...)
	if err != nil {
		return err
	}
	g, kind, err := c.parse(ctx)
	if err != nil {
		return err
	}
	lots, axioms, err := c.layLots(ctx, g, kind)
	if err != nil {
		return err
	}
	opt := pga.Options{Axiom: c.rep.Axiom, MaxShapes: o.MaxShapes, MaxDepth: o.MaxDepth,
		LotAttrs: pga.LotAttrValues(lots), Context: ctx}
	if opt.MaxShapes, err = c.checkMemory(g, axioms, opt); err != nil {
		return pga.NameLots(err, lots) // the estimate evaluates a sample of lots
	}
	ts, release, err := c.evaluate(ctx, g, axioms, lots, opt)
	if err != nil {
		return err
	}
	// A GLB built on the device is streamed from there into the file: the
	// engine and the device are let go once it is written.
	defer release()
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.write(ctx, plan, g, ts)
}

// parse reads and parses the grammar and picks the start rule (--axiom, or
// the grammar's first) and its shape kind.
func (c *city) parse(ctx context.Context) (*pga.Grammar, pga.ShapeKind, error) {
	src, err := input.ReadFile(ctx, c.path, input.Source)
	if err != nil {
		return nil, 0, job.AsUsage(fmt.Errorf("pga: %w", err))
	}
	start := time.Now()
	phase.Enter(ctx, "pga.parse")
	g, err := pga.Parse(c.path, src)
	if err != nil {
		return nil, 0, fmt.Errorf("pga: %w", err)
	}
	c.rep = report{Grammar: c.path, Backend: "cpu", Seed: c.env.Seed, Axiom: c.o.Axiom}
	c.rep.ParseMS = ms(time.Since(start))
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	if c.rep.Axiom == "" {
		if len(g.Axioms) == 0 {
			return nil, 0, fmt.Errorf("pga: %s declares no axiom", c.path)
		}
		c.rep.Axiom = g.Axioms[0].Rule
	}
	kind := pga.Box
	for _, ax := range g.Axioms {
		if ax.Rule == c.rep.Axiom {
			kind = ax.Kind
		}
	}
	if _, ok := g.Rules[c.rep.Axiom]; !ok {
		return nil, 0, job.Usagef("invalid --axiom %q: %s has no such rule", c.o.Axiom, c.path)
	}
	c.rep.Kind = kind.String()
	if err := checkTextures(g); err != nil {
		return nil, 0, err
	}
	if err := loadAssets(ctx, g); err != nil {
		return nil, 0, err
	}
	return g, kind, nil
}

// layLots reads the --lots file or lays out the --grid, and stands an
// axiom of kind on each lot (concave and holed lots on their polygon, which
// g learns as a profile).
func (c *city) layLots(ctx context.Context, g *pga.Grammar, kind pga.ShapeKind) ([]pga.Lot, []pga.Shape, error) {
	o, env := &c.o, c.env
	start := time.Now()
	var lots []pga.Lot
	if o.Lots != "" {
		c.rep.Lots = o.Lots
		b, err := input.ReadFile(ctx, o.Lots, input.Lots)
		if err != nil {
			return nil, nil, job.AsUsage(fmt.Errorf("pga: %w", err))
		}
		lf, err := pga.ParseLotsFile(o.Lots, b)
		if err != nil {
			return nil, nil, fmt.Errorf("pga: lots: %w", err)
		}
		georef, warns, err := pga.PlaceLots(o.Lots, lf, pga.PlaceOptions{LotsCRS: o.LotsCRS, CRS: o.CRS})
		if err != nil {
			return nil, nil, fmt.Errorf("pga: lots: %w", err)
		}
		for _, w := range warns {
			env.Log.Warnf("%s", w)
		}
		if georef != nil {
			env.Log.Infof("%s: built in EPSG:%d (%s) around easting %.0f, northing %.0f (lon %.7f, lat %.7f)", o.Lots,
				georef.CRS.EPSG, georef.CRS.Name, georef.Origin.Easting, georef.Origin.Northing, georef.Origin.Lon, georef.Origin.Lat)
		}
		lots, c.rep.Georef = lf.Lots, georef
	} else {
		c.rep.Lots = "grid " + o.Grid
		// The lots themselves, before they are made (a 2048x2048 grid's
		// took 3.8 GB).
		if err := env.CheckMemory(fmt.Sprintf("pga: %d lots", o.cols*o.rows), pga.LotsMemory(o.cols*o.rows), "--grid"); err != nil {
			return nil, nil, err
		}
		var err error
		lots, err = pga.Grid{Cols: o.cols, Rows: o.rows, Seed: env.Seed,
			LotWidth: o.LotWidth, LotDepth: o.LotDepth, Street: o.Street}.Lots()
		if err != nil {
			return nil, nil, err
		}
	}
	c.speculate(ctx, g, kind, lots)
	axioms, err := g.LotAxioms(kind, lots, env.Seed, o.Height)
	if err != nil {
		return nil, nil, err
	}
	c.rep.Axioms = len(axioms)
	c.rep.LotsMS = ms(time.Since(start))
	return lots, axioms, nil
}

// evaluate expands the axioms on the engine of the device the policy opens
// (auto weighs the work first) and fills in the statistics; release closes
// the engine and lets the device go, once what it built (c.glb) is written. The terminals
// come back only when an output needs them; otherwise they are counted
// (on the device with its mesh kernel, so vertices and triangles are the
// mesh's), and the lots the buildings reach outside are measured as they
// are. Buildings that reach beyond their lot are warned of.
func (c *city) evaluate(ctx context.Context, g *pga.Grammar, axioms []pga.Shape, lots []pga.Lot, opt pga.Options) (ts []pga.TerminalShape, release func(), err error) {
	env, o := c.env, &c.o
	work, job := 0.0, c.jobName()
	if env.Dev.WeighsJob(job) && len(axioms) > device.PGAProbeLots/2 {
		t := time.Now()
		work = device.PGAWork(g, axioms, opt)
		env.Log.Debugf("pga: auto's probe of %d of %d lots took %.1f ms", min(len(axioms), device.PGAProbeLots), len(axioms), ms(time.Since(t)))
	}
	compiled := c.compileAhead(ctx, g, job, work)
	dev, err := env.Dev.OpenFor(job, work)
	if err != nil || dev == nil {
		compiled.stop()
		compiled = nil
	}
	if err != nil {
		return nil, nil, err
	}
	closeEngine := func() {}
	done := func() {
		t := time.Now()
		if closeEngine != nil {
			closeEngine()
		}
		env.Dev.Release(dev)
		if dev != nil {
			env.Log.Debugf("pga: engine closed and device let go in %.1f ms", ms(time.Since(t)))
		}
	}
	defer func() {
		if err != nil {
			done() // the returns below set release to nil
		}
	}()
	start := time.Now()
	phase.Enter(ctx, "pga.evaluate")
	eng, closeEngine, err := c.engine(dev, compiled, g, &opt, len(axioms), start)
	if err != nil {
		return nil, nil, err
	}
	cuda := c.rep.Backend == "cuda"
	// On the device, a GLB (the only geometry written) is built there too,
	// an asset's parts on the host from their terminals alone; otherwise a
	// grammar with assets (I) counts its vertices and triangles on the
	// host, from the terminals: the device mesh draws scopes, not assets.
	devGLB := cuda && o.onlyGLB(c.outs)
	keep := !devGLB && (o.writesGeometry(c.outs) || (cuda && len(g.Assets) > 0))
	sched := pga.Persistent
	if o.Scheduler == "levels" {
		sched = pga.Levels
	}
	opt.CUDATuning = pga.CUDATuning{Scheduler: sched, NoLocalGrouping: !o.LocalGrp, NoOpParallel: !o.OpPar,
		Mesh: !keep && !devGLB, GLB: devGLB}
	opt.KeepTerminals = keep
	if !keep {
		opt.Lots, opt.OverflowTol = lots, overflowTol
	}
	res, err := eng.Evaluate(ctx, axioms, opt)
	if err != nil {
		return nil, nil, limitError(c.path, pga.NameLots(err, lots), opt.MaxShapes, o.MaxShapes, env.MaxMemory)
	}
	if c.rep.Backend == "cuda" {
		env.Log.Debugf("pga: %d shapes on the device in %.2f ms (device time, with the host work between its launches)", res.Shapes, ms(res.DeviceTime))
		for _, s := range res.Steps {
			env.Log.Debugf("pga: %s: %.1f ms", s.Name, ms(s.Time))
		}
	}
	c.rep.EvalMS = ms(time.Since(start))
	ts, overflows := res.Terminals, res.Overflows
	if !cuda {
		// The files in the device's order: the same bytes on every backend.
		pga.SortLikeDevice(ts)
	}
	c.projs, c.glb = res.Projections, res.GLB
	if keep {
		c.rep.MeshStats = g.Stats(ts)
	} else {
		c.rep.MeshStats = res.Stats
	}
	c.rep.ShapesPMS = float64(c.rep.Terminals) / max(c.rep.EvalMS, 1e-9)
	// Say which buildings reach beyond their lot.
	if len(ts) > 0 {
		overflows = g.Overflows(ts, lots, overflowTol)
	}
	if w := pga.OverflowWarning(overflows, lots); w != "" {
		env.Log.Warnf("%s: %s", c.path, w)
	}
	env.Log.Debugf("%s: %d lots, %d terminals, %.1f ms on %s", c.path, len(axioms), c.rep.Terminals, c.rep.EvalMS, c.rep.Backend)
	return ts, done, nil
}

// engine is the grammar compiled for dev, or the CPU when dev is nil or,
// under auto, cannot run it; the CPU reports its progress. It sets the
// report's backend; close the engine when done.
func (c *city) engine(dev *gpu.Device, compiled *ahead, g *pga.Grammar, opt *pga.Options, naxioms int, start time.Time) (pga.Engine, func(), error) {
	env := c.env
	if dev != nil {
		cp, err := compiled.wait()
		var cu *pga.CUDA
		if err == nil {
			env.Log.Debugf("pga: grammar compiled for the device in %.1f ms, while it opened; waited %.1f ms more for it",
				ms(compiled.took), ms(time.Since(start)))
			cu, err = cp.Load(dev)
			env.Log.Debugf("pga: grammar loaded on the device in %.1f ms", ms(time.Since(start)))
		}
		var unsupported *pga.UnsupportedError
		switch {
		case errors.As(err, &unsupported) && env.Device == "auto":
			env.Log.Infof("%s: %v; evaluating on the CPU", c.path, err)
		case err != nil:
			return nil, nil, fmt.Errorf("%s: %w", c.path, err)
		default:
			c.rep.Backend = "cuda"
			return cu, func() { cu.Close() }, nil
		}
	}
	opt.Progress = env.Progress(int64(naxioms*len(g.Phases)), "expand "+filepath.Base(c.path))
	return pga.CPU{Grammar: g}, func() {}, nil
}
