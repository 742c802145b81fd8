package pgajob

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/output/mesh/preview"
	"github.com/procgen-dev/procgen/internal/pga"
	"github.com/procgen-dev/procgen/internal/phase"
)

// write hands the geometry and then the statistics, whose write time covers
// the geometry, to the plan: all of it lands together or not at all.
// Without -o, or with --stats-only and no .json, the statistics go to
// stdout as a table.
func (c *city) write(ctx context.Context, plan *output.Plan, g *pga.Grammar, ts []pga.TerminalShape) error {
	o, env := &c.o, c.env
	start := time.Now()
	var writes []output.Write
	wroteJSON := false
	progressOf := c.writeProgress(c.rep.Terminals)
	for k, out := range c.outs {
		format := o.format(out)
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
				output.Write{Path: mtl, Func: func(w io.Writer) error { return mesh.EncodeMTL(w, textureRefs(c.mesh(g, ts), mtl)) }},
				output.Write{Path: out, Func: func(w io.Writer) error { return mesh.EncodeOBJ(ctx, w, c.mesh(g, ts), mo) }})
		case format == ".obj":
			mo := mesh.OBJOptions{Options: mesh.Options{Progress: progressOf(k)}}
			writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error { return mesh.EncodeOBJ(ctx, w, c.mesh(g, ts), mo) }})
		case format == ".glb":
			mo := mesh.Options{Progress: progressOf(k), ReferenceImages: o.GLBImages == "reference"}
			writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error {
				if c.glb != nil {
					return mesh.EncodeGLBBin(ctx, w, textureRefs(c.deviceMesh(), out), c.glb.Parts, c.glb.Bin, mo)
				}
				return mesh.EncodeGLB(ctx, w, textureRefs(c.mesh(g, ts), out), mo)
			}})
		case format == ".png":
			writes = append(writes, output.Write{Path: out, Func: c.previewWriter(ctx, g, ts, progressOf(k))})
		}
	}
	for _, out := range c.outs {
		if o.format(out) == ".json" {
			writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error {
				if !o.StatsOnly {
					c.rep.WriteMS = ms(time.Since(start))
				}
				return output.EncodeJSON(w, &c.rep)
			}})
		}
	}
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, writes); err != nil {
		return err
	}
	for _, wr := range writes {
		if wr.Path != output.Stdout {
			env.Log.Infof("wrote %s", wr.Path)
		}
	}
	if o.StatsOnly && !wroteJSON || len(c.outs) == 0 {
		return writeStats(env.Stdout, &c.rep)
	}
	return nil
}

// previewWriter draws the terminals' mesh (preview.Render: its fixed
// south-east view, preview.DefaultWidth pixels wide) and encodes it as an
// 8-bit PNG.
func (c *city) previewWriter(ctx context.Context, g *pga.Grammar, ts []pga.TerminalShape, progress func(done, total int64)) func(io.Writer) error {
	return func(w io.Writer) error {
		po := preview.Options{}
		if progress != nil { // the preview builds each terminal twice: bounds, then drawing
			po.Progress = func(done, total int64) { progress(done/2, total/2) }
		}
		phase.Enter(ctx, "pga.preview")
		img, err := preview.Render(ctx, c.mesh(g, ts), po)
		if err != nil {
			return fmt.Errorf("pga: %w", err)
		}
		return output.EncodePNG(ctx, w, img, output.Depth8)
	}
}

// mesh is the terminals' mesh, with the georeference, if any, in its
// glTF asset's extras.
func (c *city) mesh(g *pga.Grammar, ts []pga.TerminalShape) *mesh.Mesh {
	m := g.Mesh(ts, c.projs)
	if c.rep.Georef != nil {
		m.Extras = c.rep.Georef
	}
	return m
}

// deviceMesh is the mesh of the GLB built on the device (a copy: each
// output sets its own texture paths), with the georeference as mesh's.
func (c *city) deviceMesh() *mesh.Mesh {
	m := *c.glb.Mesh
	m.Materials = append([]mesh.Material(nil), m.Materials...)
	if c.rep.Georef != nil {
		m.Extras = c.rep.Georef
	}
	return &m
}

// writeProgress is one bar over every geometry output: terminals encoded,
// summed. It returns output k's callback (nil without a bar).
func (c *city) writeProgress(nts int) func(k int) func(done, total int64) {
	nGeo := 0
	for _, out := range c.outs {
		if f := c.o.format(out); f != ".json" && !c.o.StatsOnly {
			nGeo++
		}
	}
	var wp func(done, total int64)
	if nGeo > 0 {
		wp = c.env.Progress(int64(nGeo)*int64(nts), "write")
	}
	var wpMu sync.Mutex
	wpDone := make([]int64, len(c.outs))
	return func(k int) func(done, total int64) {
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
			wp(sum, int64(nGeo)*int64(nts))
		}
	}
}

// writeStats prints the totals and the terminals per name as a table.
func writeStats(w io.Writer, r *report) error {
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
