package forestjob

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/outdir"
)

// write writes every output into a fresh temporary directory beside
// the output directory and puts it in place only when all are written
// (outdir.Dir.Commit), so a failed run leaves neither a partial directory
// nor a mix of old and new files, and the old directory as it was.
func (r *run) write(ctx context.Context, out *outdir.Dir, writeStart, start time.Time) (err error) {
	if err := r.checkFinite(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out.Path()), 0o755); err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	stage, err := out.Stage()
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	defer func() {
		if stage != "" {
			_ = os.RemoveAll(stage)
		}
	}()
	// A failure names the directory the user asked for, not the staging
	// directory beside it that is removed on the way out.
	defer func() { err = stagedError(err, stage, out.Path()) }()
	// The files are independent: write them on all cores. They are synced,
	// where the policy asks for it, with the directory (outdir.Dir.Commit).
	staged := output.WithFsync(ctx, output.FsyncNever)
	type job struct {
		name  string
		write func(w io.Writer) error
	}
	var jobs []job
	put := func(name string, write func(w io.Writer) error) { jobs = append(jobs, job{name, write}) }
	for l, layer := range r.layers {
		name, label := r.names[l], r.layerLabel(l)
		if r.p.outs["csv"] {
			put(name+".csv", r.csvWriter(l, label))
		}
		if r.p.outs["asc"] {
			put(name+".asc", func(w io.Writer) error { return forest.WriteASC(w, r.grid, layer.Density) })
			if r.counts != nil {
				put(name+"-count.asc", func(w io.Writer) error {
					counts := make([]float64, len(r.counts[l]))
					for i, c := range r.counts[l] {
						counts[i] = float64(c)
					}
					return forest.WriteASC(w, r.grid, counts)
				})
			}
		}
		if r.p.outs["png"] {
			put(name+".png", func(w io.Writer) error {
				img := forest.HeatMap(r.grid, layer.Density, r.heatOptions(l, label, r.o.Stems))
				return output.EncodePNGCompressed(staged, w, img, output.Depth8, output.CompressFast)
			})
		}
		r.gisJobs(put, l, name, r.p.epsg) // forest_maps.go: .tif, and .prj beside .asc with --crs
	}
	errs := make([]error, len(jobs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(jobs) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				errs[i] = output.WriteFileContext(staged, filepath.Join(stage, jobs[i].name), jobs[i].write)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	files := make([]string, 0, len(jobs)+1)
	for i, j := range jobs {
		if errs[i] != nil {
			return fmt.Errorf("forest: %w", errs[i])
		}
		files = append(files, j.name)
	}
	files = append(files, "summary.json")
	r.timings["write_s"] = time.Since(writeStart).Seconds()
	r.timings["total_s"] = time.Since(start).Seconds()
	summary := r.summary(files)
	err = output.WriteFileContext(staged, filepath.Join(stage, "summary.json"), func(w io.Writer) error {
		return output.EncodeJSON(w, summary)
	})
	if err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := out.Commit(ctx, stage); err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	stage = ""
	return nil
}

// layerLabel is the species name of layer l, or "total".
func (r *run) layerLabel(l int) string {
	if l < len(r.res.Species) {
		return r.res.Species[l].Name
	}
	return "total"
}

// csvWriter writes layer l as x, y, species, density [, count] rows. It
// formats by hand (the cell centres once per column and row, the label
// once) rather than through encoding/csv: a 23-hectare plot's 45 layers are
// 15 million rows.
func (r *run) csvWriter(l int, label string) func(w io.Writer) error {
	g, dens := r.grid, r.layers[l].Density
	xs := make([][]byte, g.NX)
	for i := range xs {
		x, _ := g.Center(i, 0)
		xs[i] = strconv.AppendFloat(nil, x, 'g', -1, 64)
	}
	quoted := csvField(label)
	return func(w io.Writer) error {
		header := "x,y,species,density"
		if r.counts != nil {
			header += ",count"
		}
		if _, err := io.WriteString(w, header+"\n"); err != nil {
			return err
		}
		var buf []byte
		for j := 0; j < g.NY; j++ {
			_, y := g.Center(0, j)
			ys := strconv.AppendFloat(nil, y, 'g', -1, 64)
			for i := 0; i < g.NX; i++ {
				c := j*g.NX + i
				buf = append(buf[:0], xs[i]...)
				buf = append(buf, ',')
				buf = append(buf, ys...)
				buf = append(buf, ',')
				buf = append(buf, quoted...)
				buf = append(buf, ',')
				buf = strconv.AppendFloat(buf, dens[c], 'g', -1, 64)
				if r.counts != nil {
					buf = append(buf, ',')
					buf = strconv.AppendInt(buf, r.counts[l][c], 10)
				}
				buf = append(buf, '\n')
				if _, err := w.Write(buf); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// csvField quotes s as encoding/csv would.
func csvField(s string) string {
	if s == "" || !strings.ContainsAny(s, ",\"\r\n") && s[0] != ' ' && s[0] != '\t' {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

type runSummary struct {
	StemFile     string             `json:"stem_file"`
	SpeciesFile  string             `json:"species_file"`
	Units        map[string]string  `json:"units"`
	Method       string             `json:"method"`
	Device       string             `json:"device"`
	Boundary     string             `json:"boundary"`
	BoundaryNote string             `json:"boundary_note"`
	MarginM      float64            `json:"margin_m,omitempty"`
	CutoffM      float64            `json:"cutoff_m,omitempty"`
	Tolerance    float64            `json:"tolerance,omitempty"`
	Grid         map[string]any     `json:"grid"`
	Stems        map[string]any     `json:"stems"`
	Layers       []summaryLayer     `json:"layers"`
	Realization  map[string]any     `json:"realization,omitempty"`
	Files        []string           `json:"files"`
	Timings      map[string]float64 `json:"timings_s"`
	Warnings     []string           `json:"warnings"`
}

type summaryLayer struct {
	Name       string          `json:"name"`
	File       string          `json:"file"`
	Params     *speciesParams  `json:"params,omitempty"`
	Eta        float64         `json:"eta_m2,omitempty"`
	Stems      int             `json:"stems"`
	Parents    int             `json:"parents"`
	Produced   float64         `json:"seeds_produced_per_year"`
	Landed     float64         `json:"seeds_landed_per_year"`
	Lost       float64         `json:"seeds_lost_per_year"`
	MaxDensity float64         `json:"max_density"`
	Mean       float64         `json:"mean_density"`
	Accuracy   summaryAccuracy `json:"accuracy"`
	Realized   *int64          `json:"realized_seeds,omitempty"`
}

// speciesParams are a species' parameters as the species file names them.
type speciesParams struct {
	kernelParams
	STR  float64  `json:"str"`
	Beta float64  `json:"beta"`
	W    *float64 `json:"w,omitempty"`
	// A mixture's components: their kernel and its parameters.
	First    *kernelParams `json:"first,omitempty"`
	Second   *kernelParams `json:"second,omitempty"`
	MinDBH   float64       `json:"min_dbh"`
	Clumping float64       `json:"clumping,omitempty"`
}

// kernelParams are a kernel and the parameters of its family.
type kernelParams struct {
	Kernel string   `json:"kernel"`
	D      *float64 `json:"d,omitempty"`
	Theta  *float64 `json:"theta,omitempty"`
	X0     *float64 `json:"x0,omitempty"`
	Xb     *float64 `json:"xb,omitempty"`
	P      *float64 `json:"p,omitempty"`
	U      *float64 `json:"u,omitempty"`
	A      *float64 `json:"a,omitempty"`
	B      *float64 `json:"b,omitempty"`
}

func paramsOf(s forest.Species) *speciesParams {
	p := &speciesParams{kernelParams: kernelOf(s), STR: s.STR, Beta: s.Beta, MinDBH: s.MinDBH, Clumping: s.Clumping}
	if s.Kernel == forest.Mixture && s.Mix != nil {
		first, second := kernelOf(s.Mix.First), kernelOf(s.Mix.Second)
		p.W, p.First, p.Second = &s.Mix.W, &first, &second
	}
	return p
}

func kernelOf(s forest.Species) kernelParams {
	p := kernelParams{Kernel: string(s.Kernel)}
	switch s.Kernel {
	case forest.Lognormal:
		p.X0, p.Xb = &s.X0, &s.Xb
	case forest.TwoDt:
		p.P, p.U = &s.P, &s.U
	case forest.ExpPower:
		p.A, p.B = &s.A, &s.B
	case forest.Exponential, forest.Gaussian:
		p.A = &s.A
	case forest.Mixture:
	default:
		p.Kernel = string(forest.Weibull)
		p.D, p.Theta = &s.D, &s.Theta
	}
	return p
}

type summaryAccuracy struct {
	Statement    string   `json:"statement"`
	MaxRelative  *float64 `json:"estimated_max_relative_error"`
	AppliesAbove float64  `json:"relative_error_applies_above_fraction_of_max,omitempty"`
	MaxAbsolute  float64  `json:"max_absolute_error_per_m2_per_year,omitempty"`
	TailMass     float64  `json:"cutoff_tail_mass,omitempty"`
	ExactCells   int      `json:"cells_summed_exactly,omitempty"`
}

func (r *run) summary(files []string) runSummary {
	o, g := r.o, r.grid
	s := runSummary{
		StemFile: r.stemFile, SpeciesFile: r.speciesFile,
		Units: map[string]string{
			"density":                        "seeds (or recruits) per m^2 per year",
			"seeds_*":                        "seeds per year",
			"x, y, grid, margin_m, cutoff_m": "metres",
			"dbh, min_dbh":                   "cm",
			"eta_m2":                         "m^2 (the kernel's integral over the plane)",
		},
		Method: o.Method, Device: r.device, Boundary: o.Boundary, MarginM: o.Margin, CutoffM: o.Cutoff,
		Grid: map[string]any{"x0": g.X0, "y0": g.Y0, "x1": g.X0 + float64(g.NX)*g.Cell,
			"y1": g.Y0 + float64(g.NY)*g.Cell, "cell": g.Cell, "nx": g.NX, "ny": g.NY},
		Stems: map[string]any{"rows": r.stems.Rows, "dropped_by_where": r.stems.Filtered,
			"outside_plot": r.outside, "on_plot": len(r.trees), "skipped_species": append([]string{}, r.res.Skipped...),
			"columns": r.stems.Columns, "where": o.Where},
		Files: files, Timings: r.timings, Warnings: r.warnings,
	}
	if s.Warnings == nil {
		s.Warnings = []string{}
	}
	if o.Method == "fft" {
		s.Tolerance = o.Tolerance
	}
	switch o.Boundary {
	case "open":
		s.BoundaryNote = "seeds landing off the plot are lost: seeds_lost_per_year"
	case "torus":
		s.BoundaryNote = "the plot wraps around: every periodic image of every parent lands on it (images beyond " +
			"the accuracy's image radius spread evenly over the plot); seeds_lost_per_year is what the cells still miss " +
			"(a cut-off, the grid's quadrature), reported, not assumed 0; where the cells sum to more than was " +
			"produced (the quadrature of a kernel sharp for the cell size), the accuracy statement says by how much"
	case "buffer":
		s.BoundaryNote = fmt.Sprintf("stems in the outer %g m act as parents; the grid and totals are the inner plot's; "+
			"seeds_lost_per_year is what all parents put outside the inner plot", o.Margin)
	}
	for l, layer := range r.layers {
		sl := summaryLayer{Name: r.layerLabel(l), File: r.names[l], Parents: layer.Parents,
			Produced: layer.Produced, Landed: layer.Total, Lost: layer.Lost, Accuracy: accuracyOf(layer.Accuracy, len(layer.Density))}
		if l < len(r.res.Species) {
			sp := r.res.Species[l]
			sl.Params, sl.Eta, sl.Stems = paramsOf(sp), forest.Eta(sp), r.stemsPerLayer[l]
		} else {
			sl.Stems = len(r.trees)
		}
		var sum float64
		for _, v := range layer.Density {
			sum += v
			sl.MaxDensity = max(sl.MaxDensity, v)
		}
		sl.Mean = sum / float64(len(layer.Density))
		if r.counts != nil {
			var n int64
			for _, c := range r.counts[l] {
				n += c
			}
			sl.Realized = &n
		}
		s.Layers = append(s.Layers, sl)
	}
	if r.counts != nil {
		s.Realization = map[string]any{"seed": r.seed,
			"draw": "Poisson per cell with mean density x cell area, keyed by (seed, species, cell)"}
	}
	return s
}

// checkFinite refuses layers whose densities overflowed float64 (a str or
// beta so large that a year's seeds are not a number): nothing could write
// them faithfully, and the summary's JSON cannot hold them at all.
func (r *run) checkFinite() error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for l, layer := range r.layers {
		sum := 0.0
		for _, v := range layer.Density {
			sum += v
		}
		if !finite(sum) || !finite(layer.Produced) || !finite(layer.Total) || !finite(layer.Lost) {
			return fmt.Errorf("forest: %s: the seeds are not finite (%g produced, %g landed a year): "+
				"the species' str and beta overflow; lower them", r.layerLabel(l), layer.Produced, sum)
		}
	}
	return nil
}

// stagedError rewrites err's message to name dir where it names the staging
// directory stage; errors.Is and errors.As still see the original.
func stagedError(err error, stage, dir string) error {
	if err == nil || stage == "" || !strings.Contains(err.Error(), stage) {
		return err
	}
	return renamedError{msg: strings.ReplaceAll(err.Error(), stage, dir), err: err}
}

type renamedError struct {
	msg string
	err error
}

func (e renamedError) Error() string { return e.msg }
func (e renamedError) Unwrap() error { return e.err }
