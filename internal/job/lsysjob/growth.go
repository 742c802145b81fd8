package lsysjob

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// growth is --all-steps with meshes: every step's geometry, for step
// patterns (-o 'grow/%03d.glb': a file per step) and for a GLB output (one
// file whose nodes, one per step, an animation shows in turn).
type growth struct {
	patterns []string
	files    []string // the step files, pattern by pattern, steps 0..n in each
	geoms    []*turtle.Geometry
	widths   []bool // each step's string sets widths ('!' or '#')
}

// isStepPattern says whether out holds a printf verb other than %s (the
// batch runner's system name) and %%: a file per step.
func isStepPattern(out string) bool {
	rest := strings.ReplaceAll(strings.ReplaceAll(out, "%%", ""), "%s", "")
	return strings.Contains(rest, "%")
}

// checkStepPattern refuses a step pattern that is not one integer verb in
// an OBJ, GLB or PLY file name, or is given without --all-steps.
func (o *Options) checkStepPattern(out string) error {
	ext := strings.ToLower(out[strings.LastIndexByte(out, '.')+1:])
	switch {
	case !o.AllSteps:
		return job.Usagef("-o %s: a step pattern writes a mesh per step: add --all-steps (or name one file; "+
			"without --all-steps only %%s, the input's name, and %%%% may follow %%)", out)
	case strings.Contains(strings.ReplaceAll(out, "%%", ""), "%s"):
		return job.Usagef("-o %s: a step pattern cannot hold %%s: derive several systems one at a time", out)
	case ext != "obj" && ext != "glb" && ext != "ply":
		return job.Usagef("-o %s: a step pattern must end in .obj, .glb or .ply", out)
	}
	if s := fmt.Sprintf(out, 1); strings.Contains(s, "%!") || s == fmt.Sprintf(out, 2) {
		return job.Usagef("-o %s: want exactly one integer verb such as %%03d (the step) in the pattern", out)
	}
	return nil
}

// wantsGrowth says whether the run needs every step's geometry.
func (r *system) wantsGrowth() bool {
	if !r.o.AllSteps {
		return false
	}
	if len(r.grow.patterns) > 0 {
		return true
	}
	for _, out := range r.outs {
		if r.o.format(out) == ".glb" {
			return true
		}
	}
	return false
}

// splitPatterns takes the step patterns out of r.outs.
func (r *system) splitPatterns() {
	var outs []string
	for _, out := range r.outs {
		if isStepPattern(out) {
			r.grow.patterns = append(r.grow.patterns, out)
		} else {
			outs = append(outs, out)
		}
	}
	r.outs = outs
}

// planSteps adds the step files (steps 0..r.steps of each pattern) to the
// plan, once the number of steps is known and before any work.
func (r *system) planSteps() error {
	for _, p := range r.grow.patterns {
		for k := 0; k <= r.steps; k++ {
			r.grow.files = append(r.grow.files, fmt.Sprintf(p, k))
		}
	}
	if len(r.grow.files) == 0 {
		return nil
	}
	if err := job.MakeDirs(r.grow.files); err != nil {
		return job.AsUsage(err)
	}
	for _, f := range r.grow.files {
		if _, err := r.plan.Add(f); err != nil {
			return job.AsUsage(err)
		}
	}
	return job.AsUsage(r.plan.RefuseInputs(r.path))
}

// growSteps derives and interprets steps 0..n-1 each as a run of -n k
// would (the same derivation, homomorphism and turtle: the step's mesh is
// that run's), final being step n's; then refuses, before any mesh is
// built, meshes that all kept until written would not fit in --max-memory.
// Deriving each step anew costs at most the sum of the steps' lengths
// again, and keeps one string at a time.
func (r *system) growSteps(ctx context.Context, dev *gpu.Device, final *turtle.Geometry) error {
	g := &r.grow
	for k := 0; k < r.steps; k++ {
		geom, widths, err := r.stepGeometry(ctx, dev, k)
		if err != nil {
			return err
		}
		g.geoms, g.widths = append(g.geoms, geom), append(g.widths, widths)
	}
	g.geoms, g.widths = append(g.geoms, final), append(g.widths, r.rep.setsWidth)
	formats := map[string]bool{}
	for _, p := range g.patterns {
		formats[strings.ToLower(p[strings.LastIndexByte(p, '.'):])] = true
	}
	for _, out := range r.outs {
		if r.o.format(out) == ".glb" {
			formats[".glb"] = true
		}
	}
	for _, format := range []string{".glb", ".obj", ".ply"} {
		if !formats[format] {
			continue
		}
		var sum float64
		for k, geom := range g.geoms {
			sum += turtle.MeshMemory(geom, meshOptions(format, geom, r.o, g.widths[k], r.palette))
		}
		what := fmt.Sprintf("lsys: --all-steps keeping %d steps' %s meshes until written", len(g.geoms), strings.ToUpper(format[1:]))
		if err := r.env.CheckMemory(what, sum, "-n, --stems or --cylinders"); err != nil {
			return err
		}
	}
	return nil
}

// stepGeometry is the geometry of step k, from a pipeline of its own.
func (r *system) stepGeometry(ctx context.Context, dev *gpu.Device, k int) (*turtle.Geometry, bool, error) {
	p := turtle.NewPipeline(dev)
	defer p.Close()
	_, err := p.Derive(ctx, r.sys, lsys.DeriveOptions{Steps: k, Seed: r.env.Seed, MaxModules: r.maxModules, Env: turtle.Queries{}})
	if err != nil {
		return nil, false, r.deriveError(err)
	}
	if _, err := p.Homomorphism(ctx); err != nil {
		return nil, false, fmt.Errorf("%s: step %d: %w", r.path, k, err)
	}
	geom, err := p.Interpret(ctx, turtle.Options{})
	if err != nil {
		return nil, false, fmt.Errorf("%s: step %d: interpret: %w", r.path, k, err)
	}
	widths, err := p.Has('!', '#')
	if err != nil {
		return nil, false, fmt.Errorf("%s: step %d: %w", r.path, k, err)
	}
	return geom, widths, nil
}

// stepWrites are the writes of the step files.
func (r *system) stepWrites(ctx context.Context) []output.Write {
	g := &r.grow
	var writes []output.Write
	for i, f := range g.files {
		k := i % len(g.geoms)
		format := strings.ToLower(f[strings.LastIndexByte(f, '.'):])
		writes = append(writes, output.Write{Path: f, Func: func(w io.Writer) error {
			return encodeMesh(ctx, w, format, g.geoms[k], r.o, g.widths[k], r.palette, "")
		}})
	}
	return writes
}

// encodeGrowth writes every step's mesh into one GLB, a node per step,
// animated to show each for --step-time seconds.
func (r *system) encodeGrowth(ctx context.Context, w io.Writer) error {
	g := &r.grow
	ms := make([]*mesh.Mesh, len(g.geoms))
	for k, geom := range g.geoms {
		m, err := geom.Mesh(meshOptions(".glb", geom, r.o, g.widths[k], r.palette))
		if err != nil {
			return fmt.Errorf("step %d: %w", k, err)
		}
		ms[k] = m
	}
	joined, anim := mesh.Join(ms, r.o.StepTime)
	return mesh.EncodeGLB(ctx, w, joined, mesh.Options{Growth: anim})
}
