package lsysjob

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/phase"
)

// system is one system's run, from its plan to its outputs.
type system struct {
	env        *job.Env
	path       string
	outs       []string
	o          *Options
	plan       *output.Plan
	sys        *lsys.System
	steps      int
	maxModules int64
	pipe       turtle.Pipeline
	rep        Report
	palette    [][3]float64 // --color-map's colours, or nil
	grow       growth       // --all-steps with meshes
	mu         sync.Mutex   // the progress callbacks of derivation and interpretation
}

// derive runs the job for the system in path: plan, open the device,
// derive, interpret, preview, and write every output or none.
func derive(ctx context.Context, env *job.Env, path string, outs []string, o *Options) error {
	env.Dev.Prefetch()
	r := &system{env: env, path: path, outs: outs, o: o}
	if err := r.planRun(ctx); err != nil {
		return err
	}
	dev, err := r.open(ctx)
	if err != nil {
		return err
	}
	defer env.Dev.Release(dev)
	r.rep = Report{System: r.sys.Name, Source: path, Backend: backendName(dev), Seed: env.Seed}
	defer func() {
		if r.pipe != nil {
			r.pipe.Close()
		}
	}()
	if err := r.derive(ctx, dev); err != nil {
		return err
	}
	var geom *turtle.Geometry
	if o.needsGeometry(r.outs) || len(r.grow.patterns) > 0 {
		if geom, err = r.interpret(ctx); err != nil {
			return err
		}
	}
	if r.wantsGrowth() {
		if err := r.growSteps(ctx, dev, geom); err != nil {
			return err
		}
	}
	preview, err := r.preview(ctx, geom)
	if err != nil {
		return err
	}
	if err := checkMeshMemory(env, geom, r.outs, o, r.rep.setsWidth); err != nil {
		return err
	}
	return r.write(ctx, geom, preview)
}

func (r *system) wantsPreview() bool {
	return slices.ContainsFunc(r.outs, func(out string) bool { return strings.EqualFold(filepath.Ext(out), ".png") })
}

// planRun checks the input and the outputs, refuses what would not fit in
// memory, and parses the system.
func (r *system) planRun(ctx context.Context) error {
	if err := job.CheckInput("lsys", r.path); err != nil {
		return err
	}
	inputs := []string{r.path}
	if r.o.ColorMap != "" {
		inputs = append(inputs, r.o.ColorMap)
	}
	inputs = append(inputs, surfaceFiles(r.o.surfaces)...)
	r.splitPatterns()
	plan, err := r.env.PlanOutputs(inputs, append(slices.Clone(r.outs), r.o.mtlPaths(r.outs)...)...)
	if err != nil {
		return err
	}
	r.plan = plan
	if r.o.ColorMap != "" {
		if r.palette, err = readColorMap(ctx, r.o.ColorMap); err != nil {
			return err
		}
	}
	if r.o.library == nil {
		if r.o.library, err = loadSurfaces(ctx, r.o.surfaces, r.o.SurfacePrecision); err != nil {
			return err
		}
	}
	if r.wantsPreview() {
		if err := checkPreviewMemory(r.env, r.o); err != nil {
			return err
		}
	}
	if err := checkParse(r.env, r.path); err != nil {
		return err
	}
	phase.Enter(ctx, "lsys.parse")
	if r.sys, err = syntax.ParseFileContext(ctx, r.path); err != nil {
		return fmt.Errorf("lsys: %w", err)
	}
	if err := r.o.library.Check(r.sys); err != nil {
		return fmt.Errorf("lsys: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r.steps = r.o.Steps
	if r.steps < 0 {
		r.steps = r.sys.Steps
	}
	if r.steps > MaxSteps {
		return job.Usagef("lsys: %s derives %d steps, over the limit of %d: set -n", r.path, r.steps, MaxSteps)
	}
	r.maxModules = moduleCap(r.env, *r.o)
	return r.planSteps()
}

// open opens the device the policy chooses for this system's work: the
// CPU (nil) where auto finds the GPU backend cannot derive it.
func (r *system) open(ctx context.Context) (*gpu.Device, error) {
	work := 0.0
	if r.env.Dev.WeighsJob("lsys") {
		work = device.LsysWork(ctx, r.sys, r.steps, r.env.Seed, r.maxModules)
	}
	why := lsys.GPUSupports(r.sys)
	if why == nil {
		why = turtle.GPUInterprets(r.sys)
	}
	if why == nil {
		why = lsys.QueriesOnHost(r.sys)
	}
	if why != nil && r.env.Device == "auto" {
		r.env.Log.Debugf("device: cpu (auto: %v)", why)
		return nil, nil
	}
	return r.env.Dev.OpenFor("lsys", work)
}

// derive derives the system's string. On a GPU the string stays in device
// memory from the axiom to the geometry; it comes back only for a .txt
// output.
func (r *system) derive(ctx context.Context, dev *gpu.Device) error {
	bar := r.env.Progress(int64(r.steps), "derive "+filepath.Base(r.path))
	start := time.Now()
	phase.Enter(ctx, "lsys.derive")
	r.pipe = turtle.NewPipeline(dev)
	d, err := r.pipe.Derive(ctx, r.sys, lsys.DeriveOptions{
		Steps: r.steps, Seed: r.env.Seed, MaxModules: r.maxModules, Env: turtle.Queries{},
		Progress: func(done, total int64) { r.mu.Lock(); bar(done, total); r.mu.Unlock() },
	})
	if err != nil {
		return r.deriveError(err)
	}
	derived := time.Since(start)
	rep := &r.rep
	rep.Steps, rep.Total = d.Steps, d.Total
	rep.Final = d.Steps[len(d.Steps)-1].Modules
	rep.text = text{sys: r.sys, allSteps: r.o.AllSteps, deriver: lsys.NewDeriver(dev),
		opts: lsys.DeriveOptions{Steps: r.steps, Seed: r.env.Seed, MaxModules: r.maxModules, Env: turtle.Queries{}}}
	if r.o.needsText(r.outs) && !r.o.AllSteps {
		if rep.text.final, err = r.pipe.Final(); err != nil {
			return fmt.Errorf("%s: %w", r.path, err)
		}
	}
	rep.DeriveMS = derived.Seconds() * 1e3
	rep.ModulesPMS = float64(d.Total) / max(rep.DeriveMS, 1e-9)
	r.env.Log.Debugf("%s: derived %d steps, %d modules written, %.1f ms on %s", r.path, r.steps, d.Total, rep.DeriveMS, rep.Backend)
	return nil
}

// deriveError says what to change when the derivation outgrew its cap.
func (r *system) deriveError(err error) error {
	var limit *lsys.LimitError
	if errors.As(err, &limit) && uint64(r.maxModules) < r.o.MaxModules {
		return fmt.Errorf("%s: %w (the cap follows from --max-memory %s: raise it to go further)",
			r.path, err, job.FormatBytes(float64(r.env.MaxMemory)))
	}
	if errors.As(err, &limit) {
		// How far a system grows shows only as it is derived: a failure
		// found while working (exit 1), which says what to change.
		return fmt.Errorf("%s: %w (raise --max-modules, or lower -n, if the system is meant to grow this far)", r.path, err)
	}
	return fmt.Errorf("%s: %w", r.path, err)
}

// interpret applies the homomorphism and walks the turtle over the string.
func (r *system) interpret(ctx context.Context) (*turtle.Geometry, error) {
	n, err := r.pipe.Homomorphism(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.path, err)
	}
	phase.Enter(ctx, "lsys.interpret")
	bar := r.env.Progress(int64(n), "interpret")
	start := time.Now()
	geom, err := r.pipe.Interpret(ctx, turtle.Options{
		Progress: func(done, total int64) { r.mu.Lock(); bar(done, total); r.mu.Unlock() },
	})
	if err != nil {
		return nil, fmt.Errorf("%s: interpret: %w", r.path, err)
	}
	r.rep.InterpMS = time.Since(start).Seconds() * 1e3
	if r.rep.setsWidth, err = r.pipe.Has('!', '#'); err != nil {
		return nil, fmt.Errorf("%s: %w", r.path, err)
	}
	r.rep.Geometry = &geom.Stats
	r.env.Log.Debugf("%s: interpreted %d modules into %d segments, %d polygons, %.1f ms", r.path, n,
		geom.Stats.Segments, geom.Stats.Polygons, r.rep.InterpMS)
	return geom, nil
}

// preview renders the PNG preview, when one is asked for, before anything
// is written, so that a failure there leaves no output of this run behind.
func (r *system) preview(ctx context.Context, geom *turtle.Geometry) (*image.NRGBA, error) {
	if !r.wantsPreview() {
		return nil, nil
	}
	o := r.o
	phase.Enter(ctx, "lsys.preview")
	view, _ := turtle.ParseView(o.View) // validated
	view.Up, _ = turtle.ParseUp(o.Up)
	preview, err := turtle.Render(ctx, geom.WithSurfaces(o.library), turtle.RenderOptions{
		Width: o.ImageWidth, Height: o.ImageHeight, Margin: min(o.ImageWidth, o.ImageHeight) / 20,
		// Each colour index in its material's colour, as the meshes have it.
		View: view, Background: color.NRGBA{255, 255, 255, 255}, Palette: turtle.PreviewPalette(r.palette),
		WidthScale: o.LineScale, Units: widthUnits(o.LineWidth, geom, r.rep.setsWidth),
	})
	if err != nil {
		return nil, fmt.Errorf("%s: preview: %w", r.path, err)
	}
	return preview, nil
}

// write hands every output to the plan, which writes all or none, and
// prints the statistics when asked (to stdout when there is no -o).
func (r *system) write(ctx context.Context, geom *turtle.Geometry, preview *image.NRGBA) error {
	writes := make([]output.Write, len(r.outs))
	for i, out := range r.outs {
		mtllib := ""
		if r.o.ColorMap != "" && out != output.Stdout && !job.IsStream(out) {
			mtllib = filepath.Base(output.MTLPath(out))
		}
		writes[i] = output.Write{Path: out, Func: encoder(ctx, r.o.format(out), geom, preview, &r.rep, r.o, r.palette, mtllib)}
		if r.o.AllSteps && r.o.format(out) == ".glb" {
			writes[i].Func = func(w io.Writer) error { return r.encodeGrowth(ctx, w) }
		}
	}
	writes = append(writes, r.stepWrites(ctx)...)
	for _, mtl := range r.o.mtlPaths(r.outs) {
		writes = append(writes, output.Write{Path: mtl, Func: func(w io.Writer) error {
			m, err := geom.Mesh(meshOptions(".obj", geom, r.o, r.rep.setsWidth, r.palette))
			if err != nil {
				return err
			}
			return mesh.EncodeMTL(w, m)
		}})
	}
	phase.Enter(ctx, "write")
	if err := r.plan.Commit(ctx, writes); err != nil {
		return err
	}
	for _, out := range r.outs {
		if out != output.Stdout {
			r.env.Log.Infof("wrote %s", out)
		}
	}
	if n := len(r.grow.files); n > 0 {
		r.env.Log.Infof("wrote %d step files (%s ... %s)", n, r.grow.files[0], r.grow.files[n-1])
	}
	if noOuts := len(r.outs) == 0 && len(r.grow.files) == 0; r.o.Stats || noOuts {
		w := r.env.Stdout
		if !noOuts {
			w = r.env.Stderr
		}
		return writeStats(w, &r.rep)
	}
	return nil
}
