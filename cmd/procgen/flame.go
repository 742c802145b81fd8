package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/output"
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
}

func (o *flameOptions) validate() error {
	switch {
	case o.Width < 0 || o.Width > 1<<16:
		return usageErrorf("invalid --width %d: want 0..65536", o.Width)
	case o.Height < 0 || o.Height > 1<<16:
		return usageErrorf("invalid --height %d: want 0..65536", o.Height)
	case o.Quality < 0 || o.Quality != o.Quality:
		return usageErrorf("invalid --quality %g: want a positive number of samples per pixel", o.Quality)
	case o.Supersample < 0 || o.Supersample > 16:
		return usageErrorf("invalid --supersample %d: want 1..16", o.Supersample)
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
		Short: "Fractal flames: render flam3 genomes",
	}
	cmd.AddCommand(a.newFlameRenderCmd())
	return cmd
}

func (a *app) newFlameRenderCmd() *cobra.Command {
	var out string
	var resume bool
	cmd := &cobra.Command{
		Use:   "render GENOME.flam3|DIR ... [-o OUT]",
		Short: "Render flam3 genomes to PNG",
		Long: `Render fractal flames from flam3 genomes (as written by flam3, Apophysis,
Fractorium and Electric Sheep) with the flam3 algorithm: chaos game, log-density
accumulation, density estimation, spatial filter, gamma and vibrancy.

One genome file with one flame renders to -o FILE (default: the genome's name
with .png). Several files, a directory, or a file holding several flames render
every flame into the directory -o DIR (default: the current directory), named
after the file and the flame; a bad genome does not stop the others, and the
failures are listed at the end (exit 1). --resume skips outputs that exist.

Size and quality default to the genome's own; --width/--height rescale the
framing, --quality sets samples per output pixel. The same --seed gives the
same image on the same backend, whatever the number of threads.`,
		Example: `  procgen flame render sheep.flam3 -o sheep.png
  procgen flame render sheep.flam3 --width 1920 --quality 2000 --png16 -o sheep.png
  procgen flame render genomes/ -o renders/ --resume
  procgen --device cpu flame render sheep.flam3 --seed 7`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o flameOptions
			if err := a.decode("flame", &o); err != nil {
				return err
			}
			if err := o.validate(); err != nil {
				return err
			}
			return a.flameRender(cmd, args, out, resume, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output `FILE` (one flame) or directory (several)")
	f.BoolVar(&resume, "resume", false, "skip flames whose output file already exists")
	a.bindFlag(f, "flame.width", "width", "")
	a.bindFlag(f, "flame.height", "height", "")
	a.bindFlag(f, "flame.quality", "quality", "")
	a.bindFlag(f, "flame.supersample", "supersample", "")
	a.bindFlag(f, "flame.png16", "png16", "")
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
}

func (a *app) flameRender(cmd *cobra.Command, args []string, out string, resume bool, o flameOptions) error {
	ctx := cmd.Context()
	var parseOpts flame.ParseOptions
	parseOpts.Strict = o.Strict
	if o.Palettes != "" {
		pf, err := flame.LoadPaletteFile(o.Palettes)
		if err != nil {
			return fmt.Errorf("flame: palettes: %w", err)
		}
		parseOpts.Palettes = pf
	}
	files, err := genomeFiles(args)
	if err != nil {
		return usageError{err}
	}
	var jobs []flameJob
	var failures []string
	parseFailures := 0
	for _, path := range files {
		gs, warns, err := flame.ParseFile(path, parseOpts)
		for _, w := range warns {
			a.log.Warnf("%s", w)
		}
		if err != nil {
			if len(files) == 1 {
				return err
			}
			failures = append(failures, err.Error())
			parseFailures++
			continue
		}
		for i, g := range gs {
			jobs = append(jobs, flameJob{genome: g, source: path, out: outputName(path, g, i, len(gs))})
		}
	}
	single := len(files) == 1 && len(jobs) == 1 && !isDir(args[0])
	for i := range jobs {
		switch {
		case single && out != "":
			jobs[i].out = out
		case single:
			// default: name.png beside the working directory
		default:
			dir := out
			if dir == "" {
				dir = "."
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			jobs[i].out = filepath.Join(dir, jobs[i].out)
		}
	}
	dev, err := a.openDevice()
	if err != nil {
		return err
	}
	if dev != nil {
		defer dev.Close()
	}
	r := flame.NewRenderer(dev)
	depth := output.Depth8
	if o.PNG16 {
		depth = output.Depth16
	}
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if resume {
			if _, err := os.Stat(j.out); err == nil {
				a.log.Infof("skip %s: exists (--resume)", j.out)
				continue
			}
		}
		err := a.renderOne(cmd, r, j, o, depth)
		a.hintJIT(dev, "flame")
		if err != nil {
			if errors.Is(err, ctx.Err()) || single {
				return err
			}
			failures = append(failures, err.Error())
			a.log.Warnf("%v", err)
		}
	}
	if len(failures) > 0 {
		return fmt.Errorf("flame: %d of %d flames failed:\n  %s", len(failures), len(jobs)+parseFailures,
			strings.Join(failures, "\n  "))
	}
	return nil
}

func (a *app) renderOne(cmd *cobra.Command, r flame.Renderer, j flameJob, o flameOptions, depth output.BitDepth) error {
	name := j.genome.Name
	if name == "" {
		name = filepath.Base(j.source)
	}
	var mu sync.Mutex
	bar := a.newProgress(1, "flame "+name)
	progress := func(done, total int64) {
		mu.Lock() // backends may report from several goroutines
		defer mu.Unlock()
		bar(done, total)
	}
	start := time.Now()
	frame, st, err := r.Render(cmd.Context(), j.genome, flame.Options{
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
	if depth == output.Depth16 {
		err = output.WritePNGCompressed(j.out, frame.NRGBA64(), depth, level)
	} else {
		err = output.WritePNGCompressed(j.out, frame.NRGBA(), depth, level)
	}
	if err != nil {
		return err
	}
	a.log.Debugf("%s: iterate %.3f s, render %.3f s, write %.3f s", name, st.IterateSeconds,
		rendered.Sub(start).Seconds(), time.Since(rendered).Seconds())
	a.log.Infof("wrote %s (%dx%d, %d samples)", j.out, frame.Width, frame.Height, st.Samples)
	return nil
}

// genomeFiles expands the arguments: files as given, directories to their
// *.flam3 and *.flame files (sorted, not recursive).
func genomeFiles(args []string) ([]string, error) {
	var files []string
	for _, arg := range args {
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

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
