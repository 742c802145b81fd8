package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
)

type flameOptions struct {
	Width       int     `mapstructure:"width"`
	Height      int     `mapstructure:"height"`
	Quality     float64 `mapstructure:"quality"`
	Supersample int     `mapstructure:"supersample"`
	PNG16       bool    `mapstructure:"png16"`
	Compression string  `mapstructure:"compression"`
	Palettes    string  `mapstructure:"palettes"`
	Strict      bool    `mapstructure:"strict"`
	EarlyClip   bool    `mapstructure:"earlyclip"`
	Transparent bool    `mapstructure:"transparent"`
	JPEGQuality int     `mapstructure:"jpeg-quality"`
}

func (o *flameOptions) validate() error {
	switch {
	case o.Width < 0 || o.Width > 1<<16:
		return usageErrorf("invalid --width %d: want 0..65536", o.Width)
	case o.Height < 0 || o.Height > 1<<16:
		return usageErrorf("invalid --height %d: want 0..65536", o.Height)
	case !(o.Quality >= 0) || o.Quality > 1e12:
		return usageErrorf("invalid --quality %g: want 0..1e12 samples per pixel (0: the genome's)", o.Quality)
	case o.Supersample < 0 || o.Supersample > 16:
		return usageErrorf("invalid --supersample %d: want 1..16", o.Supersample)
	case o.JPEGQuality < 1 || o.JPEGQuality > 100:
		return usageErrorf("invalid --jpeg-quality %d: want 1..100", o.JPEGQuality)
	}
	if _, ok := pngCompression[o.Compression]; !ok {
		return usageErrorf("invalid --compression %q: want fast, default or best", o.Compression)
	}
	return nil
}

var pngCompression = map[string]output.Compression{
	"fast": output.CompressFast, "default": output.CompressDefault, "best": output.CompressBest,
}

func (a *app) newFlameCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "flame",
		Short: "Fractal flames: render flam3 genomes and animations",
	}
	cmd.AddCommand(a.newFlameRenderCmd())
	cmd.AddCommand(a.newFlameAnimateCmd())
	cmd.AddCommand(a.newFlameSequenceCmd())
	cmd.AddCommand(a.newFlameMergeCmd())
	return cmd
}

func (a *app) newFlameRenderCmd() *cobra.Command {
	var out string
	var resume bool
	var shardSpec string
	cmd := &cobra.Command{
		Use:   "render GENOME.flam3|DIR|IMAGE.png|- ... [-o OUT]",
		Short: "Render flam3 genomes to PNG",
		Long: `Render fractal flames from flam3 genomes (as written by flam3, Apophysis,
Fractorium and Electric Sheep) with the flam3 algorithm: chaos game, log-density
accumulation, density estimation, spatial filter, gamma and vibrancy.

One genome file with one flame renders to -o FILE: .png (8-bit, or --png16),
.jpg/.jpeg (--jpeg-quality), or - for a PNG on standard output (default: the
genome's name with .png). Several files, a directory, or a file holding several flames render
every flame into the directory -o DIR (default: the current directory), named
after the file and the flame; a bad genome does not stop the others, and the
failures are listed at the end (exit 1). --resume skips outputs that exist.

A PNG keeps the genome it was rendered from, as flam3 keeps it (a
flam3_genome text chunk, with --width/--height/--quality applied, beside
flam3_version, flam3_samples and flam3_error_rate; not flam3_time, so the
same input and --seed give the same file), and a PNG by procgen or flam3
renders again: 'procgen flame render old.png -o new.png'.
- reads one genome file from standard input.

Size and quality default to the genome's own; --width/--height rescale the
framing, --quality sets samples per output pixel. The same --seed gives the
same image on the same backend, whatever the number of threads.

--shard I/N renders only flames k (files in order, then the flames of each)
with k mod N = I, so N runs write exactly one run's files; in a Slurm job
array it defaults to the task's (SLURM_ARRAY_TASK_ID, _COUNT, _MIN), in a
Kubernetes indexed Job to JOB_COMPLETION_INDEX of PROCGEN_SHARD_COUNT (but one
flame alone is rendered whole); the flag wins. With -o PART.accum one genome's samples are split instead: each shard
writes its raw accumulation (CPU or GPU, not mixed), and 'procgen flame merge' finishes them.`,
		Example: `  procgen flame render sheep.flam3 -o sheep.png
  procgen flame render sheep.flam3 --width 1920 --quality 2000 --png16 -o sheep.png
  procgen flame render genomes/ -o renders/ --resume
  procgen flame render sheep.png --quality 4000 -o sheep-hq.png
  curl -s https://example.org/sheep.flam3 | procgen flame render - -o sheep.png
  procgen --device cpu flame render sheep.flam3 --seed 7
  procgen flame render genomes/ -o renders/ --shard 2/8
  procgen --device cpu flame render poster.flam3 --quality 20000 --shard 2/8 -o part2.accum`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o flameOptions
			if err := a.decode("flame", &o); err != nil {
				return err
			}
			if err := o.validate(); err != nil {
				return err
			}
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			if isAccum(out) {
				return a.flameRenderAccum(cmd, args, out, sh, o)
			}
			return a.flameRender(cmd, args, out, resume, sh, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output `FILE` (.png, .jpg; - for stdout) for one flame, or a directory for several")
	f.BoolVar(&resume, "resume", false, "skip flames whose output file already exists")
	addShardFlag(f, &shardSpec)
	a.bindFlag(f, "flame.width", "width", "")
	a.bindFlag(f, "flame.height", "height", "")
	a.bindFlag(f, "flame.quality", "quality", "")
	a.bindFlag(f, "flame.supersample", "supersample", "")
	a.bindFlag(f, "flame.png16", "png16", "")
	a.bindFlag(f, "flame.jpeg-quality", "jpeg-quality", "")
	a.bindFlag(f, "flame.compression", "compression", "")
	a.bindFlag(f, "flame.palettes", "palettes", "")
	a.bindFlag(f, "flame.strict", "strict", "")
	a.bindFlag(f, "flame.earlyclip", "earlyclip", "")
	a.bindFlag(f, "flame.transparent", "transparent", "")
	return cmd
}

// flameJob is one flame to render and where its image goes.
type flameJob struct {
	genome *flame.Genome
	source string
	out    string
	slot   int // position in the batch, for --shard
}

// flameImageExts are the image files -o can name; anything else is a directory.
var flameImageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true}

func isJPEG(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".jpg" || ext == ".jpeg"
}

func (a *app) flameRender(cmd *cobra.Command, args []string, out string, resume bool, sh shard, o flameOptions) error {
	ctx := cmd.Context()
	a.dev.Prefetch()
	files, err := genomeFiles(args)
	if err != nil {
		return usageError{Err: err}
	}
	// Where the images go is settled before any genome is parsed: a file
	// (-o x.png, x.jpg or -) or a directory, which must exist or be creatable.
	single := len(args) == 1 && !isDir(args[0])
	outIsFile := out == output.Stdout || flameImageExts[strings.ToLower(filepath.Ext(out))] || existsNotDir(out) || isStream(out)
	switch {
	case outIsFile && !single:
		return usageErrorf("-o %s names one image, but %d genome files (or a directory) were given: give a directory", out, len(files))
	case outIsFile && isJPEG(out) && o.PNG16:
		return usageErrorf("--png16 with -o %s: JPEG has 8 bits per channel; write a .png", out)
	case !outIsFile && out != "" && filepath.Ext(out) != "" && !isDir(out):
		return usageErrorf("-o %s: want a .png, .jpg or .jpeg file, - for standard output, or a directory", out)
	}
	plan := output.NewPlan(a.stdout)
	outDir := ""
	switch {
	case outIsFile:
		if plan, err = a.planOutputs(files, out); err != nil {
			return err
		}
	case out != "" || !single:
		if outDir = out; outDir == "" {
			outDir = "."
		}
		if err := output.ProbeCreatableDir(outDir); err != nil {
			return usageError{Err: err}
		}
	default:
		if err := output.ProbeCreatableDir("."); err != nil {
			return usageError{Err: err}
		}
	}
	parseOpts, err := flameParseOptions(o)
	if err != nil {
		return err
	}
	parseOpts.Context = ctx
	phase.Enter(ctx, "flame.parse")
	var jobs []flameJob
	var failures []string
	parseFailures := 0
	slot := 0
	for _, path := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		gs, warns, err := a.parseGenomes(ctx, path, parseOpts)
		for _, w := range warns {
			a.log.Warnf("%s", w)
		}
		if err != nil {
			if len(files) == 1 {
				return err
			}
			if slot++; sh.Owns(slot - 1) { // a bad file is one item of the batch
				failures = append(failures, err.Error())
				parseFailures++
			}
			continue
		}
		for i, g := range gs {
			jobs = append(jobs, flameJob{genome: g, source: path, out: outputName(path, g, i, len(gs)), slot: slot})
			slot++
		}
	}
	if outIsFile && len(jobs) > 1 {
		return usageErrorf("-o %s names one image, but %s holds %d flames: give a directory", out, files[0], len(jobs))
	}
	// A directory that does not exist yet holds nothing to resolve: the
	// names need only be distinct. One that exists may hold links.
	dirExists := outDir == "" || isDir(outDir)
	claimed := map[string]string{}
	for i := range jobs {
		switch {
		case outIsFile:
			jobs[i].out = out
			continue
		case outDir != "":
			jobs[i].out = filepath.Join(outDir, jobs[i].out)
		}
		if prev, ok := claimed[jobs[i].out]; ok {
			return usageErrorf("%s and %s would both write %s: render them into separate directories",
				prev, jobs[i].source, jobs[i].out)
		}
		claimed[jobs[i].out] = jobs[i].source
		if dirExists {
			if _, err := plan.Add(jobs[i].out); err != nil {
				return usageErrorf("%s: %v", jobs[i].source, err)
			}
		}
	}
	if err := plan.RefuseInputs(files...); err != nil {
		return usageError{Err: err}
	}
	// Every size is checked before the first render, so a batch never
	// stops half-way on a genome it could have refused at the start.
	work := 0.0
	for _, j := range jobs {
		if err := ctx.Err(); err != nil { // 100,000 flames take seconds to check
			return err
		}
		fp, err := a.checkFlameSize(j, o)
		if err != nil {
			return err
		}
		work += device.FlameWork(fp.Samples, fp.Buckets)
	}
	// Every shard checks the whole batch and picks the device by its whole
	// work, as one run would, then renders only its own flames.
	jobs = a.shardFlameJobs(jobs, slot, sh)
	dev, err := a.dev.OpenFor("flame", work)
	if err != nil {
		return err
	}
	if dev != nil {
		defer dev.Close()
	}
	devs, err := a.dev.More(dev)
	if err != nil {
		return err
	}
	defer a.dev.CloseMore(devs)
	for _, d := range devs {
		for _, j := range jobs {
			if err := a.checkFlameDeviceSize(j, o, d); err != nil {
				return err
			}
		}
	}
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return err
		}
	}
	depth := output.Depth8
	if o.PNG16 {
		depth = output.Depth16
	}
	batch := len(jobs) // before --resume skips any
	if resume {
		kept := jobs[:0]
		for _, j := range jobs {
			if j.out != output.Stdout {
				if _, err := os.Stat(j.out); err == nil {
					a.log.Infof("skip %s: exists (--resume)", j.out)
					continue
				}
			}
			kept = append(kept, j)
		}
		jobs = kept
	}
	var errs []error
	if len(devs) > 1 && len(jobs) > 1 {
		errs = a.renderOnDevices(cmd, devs, plan, jobs, o, depth)
	} else {
		r := flame.NewRenderer(dev)
		if len(devs) > 1 {
			r = flame.NewMultiRenderer(devs) // one still: its samples split over the devices
		}
		for _, j := range jobs {
			if err := ctx.Err(); err != nil {
				return err
			}
			err := a.renderOne(cmd, r, plan, j, o, depth, nil)
			a.dev.HintJIT(dev, "flame")
			if err != nil {
				if errors.Is(err, ctx.Err()) || batch == 1 {
					return err
				}
				errs = append(errs, err)
				a.log.Warnf("%v", err)
			}
		}
	}
	for _, err := range errs {
		if errors.Is(err, ctx.Err()) || batch == 1 {
			return err
		}
		failures = append(failures, err.Error())
	}
	if len(failures) > 0 {
		return fmt.Errorf("flame: %d of %d flames failed:\n  %s", len(failures), batch+parseFailures,
			strings.Join(failures, "\n  "))
	}
	return nil
}

// renderOne renders one genome and writes its image. progress, when not
// nil, replaces the genome's own progress bar.
func (a *app) renderOne(cmd *cobra.Command, r flame.Renderer, plan *output.Plan, j flameJob, o flameOptions,
	depth output.BitDepth, progress func(done, total int64)) error {
	ctx := cmd.Context()
	name := j.genome.Name
	if name == "" {
		name = filepath.Base(j.source)
	}
	if progress == nil {
		var mu sync.Mutex
		bar := a.newProgress(1, "flame "+name)
		progress = func(done, total int64) {
			mu.Lock() // backends may report from several goroutines
			defer mu.Unlock()
			bar(done, total)
		}
	}
	start := time.Now()
	frame, st, err := r.Render(ctx, j.genome, flame.Options{
		Width: o.Width, Height: o.Height, Quality: o.Quality, Supersample: o.Supersample,
		Seed: a.opts.Seed, EarlyClip: o.EarlyClip, Transparent: o.Transparent, Progress: progress,
	})
	if err != nil {
		return fmt.Errorf("%s: %w", j.source, err)
	}
	rendered := time.Now()
	if st.BadValues > 0 {
		a.log.Debugf("%s: %d of %d points went bad (NaN/inf) and were dropped", name, st.BadValues, st.Samples)
	}
	level := pngCompression[o.Compression]
	text, err := flam3Text(j.genome, flame.Options{Width: o.Width, Height: o.Height, Quality: o.Quality,
		Supersample: o.Supersample}, st)
	if err != nil {
		return fmt.Errorf("%s: %w", j.source, err)
	}
	encode := func(w io.Writer) error {
		switch {
		case isJPEG(j.out):
			return output.EncodeJPEG(ctx, w, frame.NRGBA(), o.JPEGQuality)
		case depth == output.Depth16:
			return output.EncodePNGText(ctx, w, frame.NRGBA64(), depth, level, text)
		}
		return output.EncodePNGText(ctx, w, frame.NRGBA(), depth, level, text)
	}
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, []output.Write{{Path: j.out, Func: encode}}); err != nil {
		return err
	}
	a.log.Debugf("%s: iterate %.3f s, render %.3f s, write %.3f s", name, st.IterateSeconds,
		rendered.Sub(start).Seconds(), time.Since(rendered).Seconds())
	if st.Kernel != "" {
		a.log.Debugf("%s: iterate kernel %s", name, st.Kernel)
	}
	if st.PartsWallSeconds > 0 {
		a.log.Debugf("%s: on several devices: iterate %.3f s of wall time, histograms summed in %.3f s", name,
			st.PartsWallSeconds, st.MergeSeconds)
	}
	if j.out != output.Stdout {
		a.log.Infof("wrote %s (%dx%d, %d samples)", j.out, frame.Width, frame.Height, st.Samples)
	}
	return nil
}

// checkFlameSize refuses a render whose sample count or host memory is out
// of bounds, naming the flags that change it, and returns its footprint.
func (a *app) checkFlameSize(j flameJob, o flameOptions) (flame.Footprint, error) {
	fp, err := flame.Estimate(j.genome, flame.Options{Width: o.Width, Height: o.Height, Quality: o.Quality,
		Supersample: o.Supersample})
	switch {
	case flame.IsKernelError(err): // it names the genome's attributes to lower
		return fp, usageErrorf("%s: %v", j.source, err)
	case errors.Is(err, flame.ErrTooLarge):
		return fp, usageErrorf("%s: %v: lower --width/--height, --quality or --supersample", j.source, err)
	case err != nil:
		return fp, fmt.Errorf("%s: %w", j.source, err)
	}
	what := fmt.Sprintf("%s: %dx%d at supersample %d", j.source, fp.Width, fp.Height, fp.Supersample)
	// The CPU's footprint bounds the GPU path's host side too.
	return fp, a.checkMemory(what, fp.CPUBytes, flameMemoryFlags(fp))
}

// checkFlameDeviceSize refuses a render the GPU's memory cannot hold.
func (a *app) checkFlameDeviceSize(j flameJob, o flameOptions, dev *gpu.Device) error {
	fp, err := flame.Estimate(j.genome, flame.Options{Width: o.Width, Height: o.Height, Quality: o.Quality,
		Supersample: o.Supersample})
	if err != nil {
		return fmt.Errorf("%s: %w", j.source, err)
	}
	what := fmt.Sprintf("%s: %dx%d at supersample %d", j.source, fp.Width, fp.Height, fp.Supersample)
	return checkDeviceMemory(what, fp.DeviceBytes, dev.Info().MemoryBytes, flameMemoryFlags(fp))
}

// flameMemoryFlags names what to lower for a footprint over the limit: the
// genome's kernel attributes where their kernels are most of it.
func flameMemoryFlags(fp flame.Footprint) string {
	if fp.KernelBytes > fp.CPUBytes/2 {
		return "the genome's filter or estimator_radius (or --supersample)"
	}
	return "--width/--height or --supersample"
}

// genomeFiles expands the arguments: files as given, directories to their
// *.flam3 and *.flame files (sorted, not recursive).
func genomeFiles(args []string) ([]string, error) {
	var files []string
	for _, arg := range args {
		if arg == output.Stdout {
			if len(args) > 1 {
				return nil, fmt.Errorf("flame: - (the genome on standard input) must be the only input")
			}
			return args, nil
		}
		fi, err := os.Stat(arg)
		if err != nil {
			return nil, fmt.Errorf("flame: %w", err)
		}
		if !fi.IsDir() {
			files = append(files, arg)
			continue
		}
		entries, err := os.ReadDir(arg)
		if err != nil {
			return nil, err
		}
		var found []string
		for _, e := range entries {
			ext := strings.ToLower(filepath.Ext(e.Name()))
			if !e.IsDir() && (ext == ".flam3" || ext == ".flame" || ext == ".xml") {
				found = append(found, filepath.Join(arg, e.Name()))
			}
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("flame: no .flam3, .flame or .xml genomes in %s", arg)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// outputName is the PNG name for flame i of n in the file at path.
func outputName(path string, g *flame.Genome, i, n int) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if path == output.Stdout {
		base = "stdin"
	}
	if n == 1 {
		return base + ".png"
	}
	name := sanitize(g.Name)
	if name == "" {
		name = fmt.Sprintf("%03d", i)
	}
	return fmt.Sprintf("%s-%s.png", base, name)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// existsNotDir: p is (or links to) a file, device or FIFO: -o names one image.
func existsNotDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// flameParseOptions are the genome parser's options from the flame settings:
// --strict, and the --palettes library (checked as an input, then loaded).
func flameParseOptions(o flameOptions) (flame.ParseOptions, error) {
	opts := flame.ParseOptions{Strict: o.Strict}
	if o.Palettes == "" {
		return opts, nil
	}
	if err := checkInputFile("flame: palettes", o.Palettes); err != nil {
		return opts, err
	}
	pf, err := flame.LoadPaletteFile(o.Palettes)
	if err != nil {
		return opts, fmt.Errorf("flame: palettes: %w", err)
	}
	opts.Palettes = pf
	return opts, nil
}
