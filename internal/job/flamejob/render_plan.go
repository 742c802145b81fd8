package flamejob

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/shard"
)

// destination is where a render's images go: one file (-o x.png, x.jpg or
// -), or a directory (dir; "" with one input and no -o: the current one).
type destination struct {
	plan   *output.Plan
	dir    string
	isFile bool
	format imageFormat // of every image written
}

// planDestination settles where the images go before any genome is parsed:
// a file, or a directory, which must exist or be creatable.
func planDestination(env *job.Env, args, files []string, out string, o Options) (destination, error) {
	single := len(args) == 1 && !job.IsDir(args[0])
	outIsFile := out == output.Stdout || isImagePath(out) || existsNotDir(out) || job.IsStream(out)
	switch {
	case outIsFile && !single:
		return destination{}, job.Usagef("-o %s names one image, but %d genome files (or a directory) were given: give a directory", out, len(files))
	case !outIsFile && out != "" && filepath.Ext(out) != "" && !job.IsDir(out):
		return destination{}, job.Usagef("-o %s: want a .png, .jpg, .tif or .exr file, - for standard output, or a directory", out)
	}
	f, err := resolveFormat(out, o.Format, o.PNG16, !outIsFile)
	if err != nil {
		return destination{}, err
	}
	d := destination{plan: output.NewPlan(env.Stdout), isFile: outIsFile, format: f}
	switch {
	case outIsFile:
		if d.plan, err = env.PlanOutputs(files, out); err != nil {
			return d, err
		}
	case out != "" || !single:
		if d.dir = out; d.dir == "" {
			d.dir = "."
		}
		if err := output.ProbeCreatableDir(d.dir); err != nil {
			return d, job.UsageError{Err: err}
		}
	default:
		if err := output.ProbeCreatableDir("."); err != nil {
			return d, job.UsageError{Err: err}
		}
	}
	return d, nil
}

// claim names each flame's output and adds it to the plan: two flames on
// one file, or an output that is an input, is a usage error.
func (d destination) claim(jobs []flameJob, out string, files []string) error {
	// A directory that does not exist yet holds nothing to resolve: the
	// names need only be distinct. One that exists may hold links.
	dirExists := d.dir == "" || job.IsDir(d.dir)
	claimed := map[string]string{}
	for i := range jobs {
		switch {
		case d.isFile:
			jobs[i].out = out
			continue
		case d.dir != "":
			jobs[i].out = filepath.Join(d.dir, jobs[i].out)
		}
		jobs[i].out = strings.TrimSuffix(jobs[i].out, ".png") + d.format.ext() // outputName's names are PNGs
		if prev, ok := claimed[jobs[i].out]; ok {
			return job.Usagef("%s and %s would both write %s: render them into separate directories",
				prev, jobs[i].source, jobs[i].out)
		}
		claimed[jobs[i].out] = jobs[i].source
		if dirExists {
			if _, err := d.plan.Add(jobs[i].out); err != nil {
				return job.Usagef("%s: %v", jobs[i].source, err)
			}
		}
	}
	if err := d.plan.RefuseInputs(files...); err != nil {
		return job.UsageError{Err: err}
	}
	return nil
}

// parseBatch parses every genome file. One file that fails is the run's
// error; in a batch it is one failed item (of this shard's, if it owns it).
func parseBatch(ctx context.Context, env *job.Env, files []string, opts flame.ParseOptions, sh shard.Shard) (parsed, error) {
	var b parsed
	for _, path := range files {
		if err := ctx.Err(); err != nil {
			return b, err
		}
		gs, warns, err := parseGenomes(ctx, env.Stdin, path, opts)
		for _, w := range warns {
			env.Log.Warnf("%s", w)
		}
		if err != nil {
			if len(files) == 1 {
				return b, err
			}
			if b.items++; sh.Owns(b.items - 1) { // a bad file is one item of the batch
				b.failures = append(b.failures, err.Error())
				b.parseFailures++
			}
			continue
		}
		for i, g := range gs {
			b.jobs = append(b.jobs, flameJob{genome: g, source: path, out: outputName(path, g, i, len(gs)), slot: b.items})
			b.items++
		}
	}
	return b, nil
}

// shardJobs keeps the flames of the batch (items items, bad files
// included) that are this shard's. A batch of one flame with the shard from
// the environment is rendered whole: an array whose tasks each name their own
// genome (genome_$SLURM_ARRAY_TASK_ID.flam3) is not a split batch.
func shardJobs(log job.Logger, jobs []flameJob, items int, sh shard.Shard) []flameJob {
	if !sh.Active() {
		return jobs
	}
	if items == 1 && sh.FromEnv() {
		log.Debugf("%s ignored: one flame (-o PART.accum splits one still's samples)", sh.From)
		return jobs
	}
	own := shard.Owned(sh, jobs, func(j flameJob) int { return j.slot })
	if len(own) == 0 {
		hint := "--shard 0/1 renders them all"
		if items == 1 {
			hint = "-o PART.accum splits one still's samples; --shard 0/1 renders it whole"
		}
		log.Warnf("shard %s (from %s) owns none of the %d flames: nothing rendered; %s", sh, sh.From, items, hint)
	}
	return own
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
	name := job.SafeName(g.Name)
	if name == "" {
		name = fmt.Sprintf("%03d", i)
	}
	return fmt.Sprintf("%s-%s.png", base, name)
}

// existsNotDir: p is (or links to) a file, device or FIFO: -o names one image.
func existsNotDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
