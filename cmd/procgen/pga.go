package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/pga"
	"github.com/procgen-dev/procgen/internal/phase"
)

type pgaOptions struct {
	Lots      string  `mapstructure:"lots"`
	Grid      string  `mapstructure:"grid"`
	Axiom     string  `mapstructure:"axiom"`
	MaxShapes int     `mapstructure:"max-shapes"`
	MaxDepth  int     `mapstructure:"max-depth"`
	Height    float64 `mapstructure:"height"`
	LotWidth  float64 `mapstructure:"lot-width"`
	LotDepth  float64 `mapstructure:"lot-depth"`
	Street    float64 `mapstructure:"street"`
	StatsOnly bool    `mapstructure:"stats-only"`
	Scheduler string  `mapstructure:"scheduler"`
	LocalGrp  bool    `mapstructure:"local-grouping"`
	OpPar     bool    `mapstructure:"operator-parallel"`

	cols, rows int // parsed from Grid
	// stdoutFormat is the extension -o - writes, from --format.
	stdoutFormat string
}

func (o *pgaOptions) validate() error {
	switch {
	case (o.Lots == "") == (o.Grid == ""):
		return usageErrorf("want exactly one of --lots FILE.geojson or --grid WxH")
	case o.MaxShapes < 1 || o.MaxShapes > maxPgaShapes:
		return usageErrorf("invalid --max-shapes %d: want 1..%d", o.MaxShapes, maxPgaShapes)
	case o.MaxDepth < 1 || o.MaxDepth > maxPgaDepth:
		return usageErrorf("invalid --max-depth %d: want 1..%d", o.MaxDepth, maxPgaDepth)
	case !(o.Height > 0) || o.Height > 1e5:
		return usageErrorf("invalid --height %g: want a positive number of metres", o.Height)
	case !(o.LotWidth > 0) || !(o.LotDepth > 0) || o.LotWidth > 1e5 || o.LotDepth > 1e5:
		return usageErrorf("invalid lot size %gx%g: want positive metres", o.LotWidth, o.LotDepth)
	case !(o.Street >= 0) || o.Street > 1e5:
		return usageErrorf("invalid --street %g: want 0 or more metres", o.Street)
	case o.Scheduler != "persistent" && o.Scheduler != "levels":
		return usageErrorf("invalid --scheduler %q: want persistent or levels", o.Scheduler)
	}
	if o.Grid != "" {
		w, h, ok := strings.Cut(strings.ToLower(o.Grid), "x")
		c, err1 := strconv.Atoi(w)
		r, err2 := strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || c < 1 || r < 1 || c*r > pga.MaxGridLots || c > pga.MaxGridLots || r > pga.MaxGridLots {
			return usageErrorf("invalid --grid %q: want COLSxROWS lots, e.g. 20x10 (at most %d lots)", o.Grid, pga.MaxGridLots)
		}
		o.cols, o.rows = c, r
	}
	return nil
}

// pgaOutputs are the formats -o can name, by extension.
var pgaOutputs = map[string]string{".obj": "OBJ geometry", ".glb": "binary glTF", ".json": "JSON statistics"}

func (a *app) newPgaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pga",
		Short: "PGA shape grammars: generate buildings and cities",
	}
	cmd.AddCommand(a.newPgaCityCmd())
	return cmd
}

const pgaCityLong = `Generate a city from a PGA shape grammar (the language of "Parallel Generation
of Architecture" and its OperatorGraph successor): one building per lot.

A grammar declares the start shape and terminals, then rules. Each rule is a
chain of operators ending in a successor rule or terminal:

  axiom Box Lot;                      // start shape kind (Box or Quad) and rule
  terminal Wall (1, 0);               // terminal symbols (geometry, material)
  Lot = CompSplit() { Roof | Discard() | Facade };
  Facade = Repeat(Y, 3) Floor;        // floors of about 3 m
  Floor = Repeat(X, 2.5) Wall;

Operators: Translate Rotate Scale Extrude SubDiv Repeat CompSplit Replicate
RandomRule If IfSizeLess SwapSize SetAsDynamicConvexRightPrism Discard
Generate, and the paper's additions: Roof(GABLE|HIP|SHED|PYRAMID, angle),
Setback(d) {front | rest}, Offset(d) {inside | border}, "phase N;" (phases
run one after another with a barrier between them), Collider(group) with the
queries Overlaps/Touches/Inside(group) and IfCollides(group) against earlier
phases, SnapLines(axis, group) that Repeat and SubDiv of later phases snap
to. Expressions read ShapeSize(X), ShapePosition, ShapeRotation, ShapeNormal,
ShapeSeed(), ShapeCustomAttribute(), ShapeIndex(), ShapeSiblings() and
LotAttr(name, default). Y is up; CompSplit gives the top face, the bottom face
and the four sides (back, front +Z, left, right), each a Quad whose local +Z
points out; Extrude makes a Quad a box with Y along its normal, centred on it.
docs/pga-language.md is the reference; configs/pga/ holds the paper's seven
scenes (skyscrapers.pga, suburban.pga, ...).

Lots come from --lots, a GeoJSON FeatureCollection of convex Polygon
footprints in metres (properties: height in metres, or floors of 3 m; attr
sets ShapeCustomAttribute()), or from --grid COLSxROWS, rectangular lots in
blocks along streets whose size, setback and height vary with --seed. Each
lot becomes an axiom on its oriented bounding rectangle: a Box standing on
it with the lot's height, or a Quad lying on it (local +Z up, for Extrude),
seeded by --seed and the lot index.

Each -o names an output by its extension: .obj (with a .mtl beside it, one
material per terminal), .glb (binary glTF 2.0, one mesh per terminal) or .json
(statistics: lots, terminals per name and per phase, vertices, triangles,
timings). Without
-o, or with --stats-only (no geometry written), the statistics go to stdout.

Several grammars (files, or the .pga files of a directory) build one after
another on the same lots; each -o is then a pattern whose %s is each
grammar's file name without extension (cities/%s.glb). A failing grammar
is reported and the others go on. --shard I/N builds only grammars k with
k mod N = I (files in order, a directory's in name order), so the N tasks of
a Slurm job array (SLURM_ARRAY_TASK_ID/COUNT) or Kubernetes indexed Job
(JOB_COMPLETION_INDEX with PROCGEN_SHARD_COUNT) write one run's files; the
flag wins over the environment, and a single grammar runs whole under a job
array's variables.

--device cuda evaluates on the GPU (--scheduler persistent, the paper's
scheduler, or levels, its one-launch-per-level baseline), --device cpu on all
cores; auto takes the GPU when there is one. Both give the same terminals.
--max-shapes and --max-depth stop a runaway grammar and name the rule.`

func (a *app) newPgaCityCmd() *cobra.Command {
	var outs []string
	var format, shardSpec string
	cmd := &cobra.Command{
		Use:   "city GRAMMAR.pga|DIR ... [--lots lots.geojson | --grid WxH] [-o city.obj|city.glb|city.json ...]",
		Short: "Expand a shape grammar on every lot of a city",
		Long:  pgaCityLong + "\n\n" + exitCodeHelp,
		Example: `  procgen pga city configs/pga/tower.pga --grid 20x10 -o city.glb
  procgen pga city configs/pga/tower.pga --lots lots.geojson -o city.obj -o city.json
  procgen pga city configs/pga/tower.pga --grid 200x190 --stats-only
  procgen pga city configs/pga/ --grid 4x4 -o 'cities/%s.glb' --shard 1/3`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o pgaOptions
			if err := a.decode("pga", &o); err != nil {
				return err
			}
			if err := o.validate(); err != nil {
				return err
			}
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			for _, out := range outs {
				if out == output.Stdout || isStream(out) {
					if _, ok := pgaOutputs["."+format]; !ok {
						return usageErrorf("invalid --format %q: want json, obj or glb for -o -", format)
					}
					o.stdoutFormat = "." + format
					continue
				}
				if _, ok := pgaOutputs[strings.ToLower(filepath.Ext(out))]; !ok {
					return usageErrorf("output %q: want a .obj, .glb or .json file", out)
				}
			}
			return a.pgaCityBatch(cmd.Context(), args, outs, sh, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&outs, "output", "o", nil, "output `FILE`: .obj, .glb or .json, or - for standard output (repeatable)")
	f.StringVar(&format, "format", "json", "`FORMAT` of -o - (standard output): json, obj (without materials) or glb")
	addShardFlag(f, &shardSpec)
	a.bindFlag(f, "pga.lots", "lots", "")
	a.bindFlag(f, "pga.grid", "grid", "")
	a.bindFlag(f, "pga.axiom", "axiom", "")
	a.bindFlag(f, "pga.max-shapes", "max-shapes", "")
	a.bindFlag(f, "pga.max-depth", "max-depth", "")
	a.bindFlag(f, "pga.height", "height", "")
	a.bindFlag(f, "pga.lot-width", "lot-width", "")
	a.bindFlag(f, "pga.lot-depth", "lot-depth", "")
	a.bindFlag(f, "pga.street", "street", "")
	a.bindFlag(f, "pga.stats-only", "stats-only", "")
	a.bindFlag(f, "pga.scheduler", "scheduler", "")
	a.bindFlag(f, "pga.local-grouping", "local-grouping", "")
	a.bindFlag(f, "pga.operator-parallel", "operator-parallel", "")
	return cmd
}

// pgaReport is the JSON statistics output.
type pgaReport struct {
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
	pga.MeshStats
}

func (a *app) pgaCity(ctx context.Context, path string, outs []string, o pgaOptions) error {
	a.prefetchDevice()
	if err := checkInputFile("pga", path); err != nil {
		return err
	}
	inputs := []string{path}
	if o.Lots != "" {
		if err := checkInputFile("pga: --lots", o.Lots); err != nil {
			return err
		}
		inputs = append(inputs, o.Lots)
	}
	plan, err := a.planOutputs(inputs, pgaPlannedPaths(outs, o)...)
	if err != nil {
		return err
	}
	src, err := input.ReadFile(ctx, path, input.Source)
	if err != nil {
		return asUsage(fmt.Errorf("pga: %w", err))
	}
	start := time.Now()
	phase.Enter(ctx, "pga.parse")
	g, err := pga.Parse(path, src)
	if err != nil {
		return fmt.Errorf("pga: %w", err)
	}
	rep := pgaReport{Grammar: path, Backend: "cpu", Seed: a.opts.Seed, Axiom: o.Axiom}
	rep.ParseMS = ms(time.Since(start))
	if err := ctx.Err(); err != nil {
		return err
	}
	if rep.Axiom == "" {
		if len(g.Axioms) == 0 {
			return fmt.Errorf("pga: %s declares no axiom", path)
		}
		rep.Axiom = g.Axioms[0].Rule
	}
	kind := pga.Box
	for _, ax := range g.Axioms {
		if ax.Rule == rep.Axiom {
			kind = ax.Kind
		}
	}
	if _, ok := g.Rules[rep.Axiom]; !ok {
		return usageErrorf("invalid --axiom %q: %s has no such rule", o.Axiom, path)
	}
	rep.Kind = kind.String()

	start = time.Now()
	var lots []pga.Lot
	if o.Lots != "" {
		rep.Lots = o.Lots
		b, err := input.ReadFile(ctx, o.Lots, input.Lots)
		if err != nil {
			return asUsage(fmt.Errorf("pga: %w", err))
		}
		if lots, err = pga.ParseLots(o.Lots, b); err != nil {
			return fmt.Errorf("pga: lots: %w", err)
		}
	} else {
		rep.Lots = "grid " + o.Grid
		lots, err = pga.Grid{Cols: o.cols, Rows: o.rows, Seed: a.opts.Seed,
			LotWidth: o.LotWidth, LotDepth: o.LotDepth, Street: o.Street}.Lots()
		if err != nil {
			return err
		}
	}
	axioms := pga.LotAxioms(kind, lots, a.opts.Seed, o.Height)
	rep.Axioms = len(axioms)
	rep.LotsMS = ms(time.Since(start))

	opt := pga.Options{Axiom: rep.Axiom, MaxShapes: a.pgaShapeCap(o, kind), MaxDepth: o.MaxDepth,
		LotAttrs: pga.LotAttrValues(lots), Context: ctx}
	work := 0.0
	if a.autoWeighsJob("pga") && len(axioms) > pgaProbeLots/2 {
		t := time.Now()
		work = pgaWork(g, axioms, opt)
		a.log.Debugf("pga: auto's probe of %d of %d lots took %.1f ms", min(len(axioms), pgaProbeLots), len(axioms), ms(time.Since(t)))
	}
	dev, err := a.openDeviceFor("pga", work)
	if err != nil {
		return err
	}
	defer a.releaseDevice(dev)
	start = time.Now()
	phase.Enter(ctx, "pga.evaluate")
	var ts []pga.TerminalShape
	var gpuEval *pga.CUDA
	if dev != nil {
		gpuEval, err = pga.NewCUDA(dev, g)
		a.log.Debugf("pga: grammar compiled and loaded on the device in %.1f ms", ms(time.Since(start)))
		var unsupported *pga.UnsupportedError
		switch {
		case errors.As(err, &unsupported) && a.opts.Device == "auto":
			a.log.Infof("%s: %v; evaluating on the CPU", path, err)
			dev = nil
		case err != nil:
			return fmt.Errorf("%s: %w", path, err)
		default:
			defer gpuEval.Close()
		}
	}
	var devStats *pga.MeshStats
	var overflows []pga.Overflow // measured without keeping terminals
	if dev != nil {
		rep.Backend = "cuda"
		ts, devStats, overflows, err = a.pgaCUDA(ctx, gpuEval, axioms, lots, opt, o, writesGeometry(outs, o))
	} else {
		opt.Progress = a.newProgress(int64(len(axioms)*len(g.Phases)), "expand "+filepath.Base(path))
		if writesGeometry(outs, o) {
			ts, err = g.Evaluate(axioms, opt)
		} else {
			// Statistics only: count the terminals, keep none; measure
			// what reaches outside the lots as they are counted.
			var st pga.MeshStats
			st, overflows, err = g.EvaluateStatsLots(axioms, opt, lots, pgaOverflowTol)
			devStats = &st
		}
	}
	if err != nil {
		if errors.Is(err, pga.ErrLimit) {
			if opt.MaxShapes < o.MaxShapes && strings.Contains(err.Error(), "MaxShapes") {
				return fmt.Errorf("%s: %w (--max-memory %s caps the shapes at %d: raise it, or --max-depth, if the grammar is meant to grow this far)",
					path, err, formatBytes(float64(a.memoryLimit())), opt.MaxShapes)
			}
			return fmt.Errorf("%s: %w (raise --max-shapes or --max-depth if the grammar is meant to grow this far)", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	rep.EvalMS = ms(time.Since(start))
	if devStats != nil {
		rep.MeshStats = *devStats
	} else {
		rep.MeshStats = g.Stats(ts)
	}
	rep.ShapesPMS = float64(rep.Terminals) / max(rep.EvalMS, 1e-9)
	// Say which buildings reach beyond their lot.
	if len(ts) > 0 {
		overflows = g.Overflows(ts, lots, pgaOverflowTol)
	}
	if w := pga.OverflowWarning(overflows, lots); w != "" {
		a.log.Warnf("%s: %s", path, w)
	}
	a.log.Debugf("%s: %d lots, %d terminals, %.1f ms on %s", path, len(axioms), rep.Terminals, rep.EvalMS, rep.Backend)
	if err := ctx.Err(); err != nil {
		return err
	}

	// Geometry first, then the statistics, whose write time covers the
	// geometry; all of it lands together or not at all.
	start = time.Now()
	var writes []output.Write
	wroteJSON := false
	// One bar over every geometry output: terminals encoded, summed.
	nGeo := 0
	for _, out := range outs {
		if f := pgaFormat(out, o); f != ".json" && !o.StatsOnly {
			nGeo++
		}
	}
	var wp func(done, total int64)
	if nGeo > 0 {
		wp = a.newProgress(int64(nGeo)*int64(len(ts)), "write")
	}
	var wpMu sync.Mutex
	wpDone := make([]int64, len(outs))
	progressOf := func(k int) func(done, total int64) {
		if wp == nil {
			return nil
		}
		return func(done, _ int64) {
			wpMu.Lock()
			defer wpMu.Unlock()
			wpDone[k] = done
			var sum int64
			for _, d := range wpDone {
				sum += d
			}
			wp(sum, int64(nGeo)*int64(len(ts)))
		}
	}
	for k, out := range outs {
		format := pgaFormat(out, o)
		switch {
		case format == ".json":
			wroteJSON = true
			continue
		case o.StatsOnly:
			continue
		case format == ".obj" && out != output.Stdout:
			mtl, mo := output.MTLPath(out), mesh.OBJOptions{Options: mesh.Options{Progress: progressOf(k)}}
			mo.MTLLib = filepath.Base(mtl)
			writes = append(writes,
				output.Write{Path: mtl, Func: func(w io.Writer) error { return mesh.EncodeMTL(w, g.Mesh(ts)) }},
				output.Write{Path: out, Func: func(w io.Writer) error { return mesh.EncodeOBJ(ctx, w, g.Mesh(ts), mo) }})
		case format == ".obj":
			mo := mesh.OBJOptions{Options: mesh.Options{Progress: progressOf(k)}}
			writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error { return mesh.EncodeOBJ(ctx, w, g.Mesh(ts), mo) }})
		case format == ".glb":
			mo := mesh.Options{Progress: progressOf(k)}
			writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error { return mesh.EncodeGLB(ctx, w, g.Mesh(ts), mo) }})
		}
	}
	for _, out := range outs {
		if pgaFormat(out, o) == ".json" {
			writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error {
				if !o.StatsOnly {
					rep.WriteMS = ms(time.Since(start))
				}
				return output.EncodeJSON(w, &rep)
			}})
		}
	}
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, writes); err != nil {
		return err
	}
	for _, wr := range writes {
		if wr.Path != output.Stdout {
			a.log.Infof("wrote %s", wr.Path)
		}
	}
	if o.StatsOnly && !wroteJSON || len(outs) == 0 {
		return writePgaStats(a.stdout, &rep)
	}
	return nil
}

func ms(d time.Duration) float64 { return d.Seconds() * 1e3 }

// pgaOverflowTol is how far (metres) a building may reach beyond its lot
// before pga city warns: eaves and sills stick out a little.
const pgaOverflowTol = 0.5

// writesGeometry says whether any output needs the terminals themselves.
func writesGeometry(outs []string, o pgaOptions) bool {
	for _, out := range outs {
		if pgaFormat(out, o) != ".json" && !o.StatsOnly {
			return true
		}
	}
	return false
}

// pgaCUDA evaluates on the GPU. The terminals come back only when an
// output needs them; the statistics are counted on the device either way
// (with its mesh kernel, so vertices and triangles are the mesh's).
// Without download, the terminals stay on the device: the statistics come
// back, and the lots (given) the buildings reach outside.
func (a *app) pgaCUDA(ctx context.Context, c *pga.CUDA, axioms []pga.Shape, lots []pga.Lot, opt pga.Options, o pgaOptions, download bool) ([]pga.TerminalShape, *pga.MeshStats, []pga.Overflow, error) {
	sched := pga.Persistent
	if o.Scheduler == "levels" {
		sched = pga.Levels
	}
	co := pga.CUDAOptions{Options: opt, Scheduler: sched,
		NoLocalGrouping: !o.LocalGrp, NoOpParallel: !o.OpPar, Mesh: !download, Download: download}
	if !download {
		co.Lots, co.OverflowTol = lots, pgaOverflowTol
	}
	res, err := c.Evaluate(ctx, axioms, co)
	if err != nil {
		return nil, nil, nil, err
	}
	a.log.Debugf("pga: %d shapes on the device in %.2f ms (device time, with the host work between its launches)", res.Shapes, ms(res.DeviceTime))
	if download {
		return res.Terminals, nil, nil, nil
	}
	return nil, &res.Stats, res.Overflows, nil
}

// writePgaStats prints the totals and the terminals per name as a table.
func writePgaStats(w io.Writer, r *pgaReport) error {
	fmt.Fprintf(w, "lots: %d (%s), axiom %s %s\n", r.Axioms, r.Lots, r.Kind, r.Axiom)
	fmt.Fprintf(w, "terminals: %d, vertices: %d, triangles: %d\n", r.Terminals, r.Vertices, r.Triangles)
	names := make([]string, 0, len(r.ByName))
	for n := range r.ByName {
		names = append(names, n)
	}
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, n := range names {
		fmt.Fprintf(tw, "  %s\t%d\n", n, r.ByName[n])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.ByPhase) > 1 {
		for _, p := range r.ByPhase {
			fmt.Fprintf(w, "phase %d: %d terminals, %d triangles\n", p.Phase, p.Terminals, p.Triangles)
		}
	}
	_, err := fmt.Fprintf(w, "parse %.2f ms, lots %.2f ms, evaluate %.2f ms on %s (%.0f terminals/ms)\n",
		r.ParseMS, r.LotsMS, r.EvalMS, r.Backend, r.ShapesPMS)
	return err
}
