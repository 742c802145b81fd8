package device

import (
	"context"
	"fmt"
	"go/format"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output"
)

// calibrationRun is what one calibration measures.
type calibrationRun struct {
	// scale multiplies every probe's work: 1 for a calibration (the
	// reference rates were measured so), less in tests.
	scale float64
	// openGPU times the GPU's fixed cost (timeGPUOpen); nil: no GPU, and
	// a zero time: none opened. An error stops the calibration.
	openGPU func() (name string, seconds float64, err error)
	ref     calibrationRef
	// procgen is this binary's version and commit.
	procgen string
	// progress hears each probe as it starts.
	progress func(key string)
}

// runCalibration measures this host: the GPU first, as a run meets it (the
// driver's start-up included), then every CPU probe.
func runCalibration(ctx context.Context, r calibrationRun) (*calibrationFile, error) {
	start := time.Now()
	c := &calibrationFile{Format: calibrationFormat, Reference: r.ref.key(), Host: thisHost(),
		Procgen: r.procgen, Date: start.UTC().Format(time.RFC3339)}
	if r.openGPU != nil {
		name, sec, err := r.openGPU()
		if err != nil {
			return nil, err
		}
		c.Host.GPU, c.GPUOpen = name, sec
	}
	cores := float64(runtime.GOMAXPROCS(0))
	rates := map[string]float64{}
	for _, p := range cpuProbes() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r.progress != nil {
			r.progress(p.key)
		}
		res, err := measure(ctx, p, r.scale)
		if err != nil {
			return nil, err
		}
		rate := res.rate()
		if p.key != rulesSingleKey {
			rate /= cores
		}
		rates[p.key] = rate
		c.Probes = append(c.Probes, probeEntry{Key: p.key, Input: p.input, Rate: rate, Reference: r.ref.CPU[p.key],
			Factor: rate / r.ref.CPU[p.key], Seconds: res.Seconds})
	}
	jobs, err := factorsFor(rates, c.GPUOpen, r.ref)
	if err != nil {
		return nil, err
	}
	c.Jobs = jobs
	c.Seconds = time.Since(start).Seconds()
	return c, nil
}

// timeGPUOpen opens device ordinal, runs the self-test kernel from its
// freshly loaded module and closes the device: the fixed cost every GPU run
// pays, as the process's first open pays it (driver start-up included).
func timeGPUOpen(ordinal int) (string, float64, error) {
	start := time.Now()
	dev, err := gpu.Open(ordinal)
	if err != nil {
		return "", 0, err
	}
	defer dev.Close()
	// SelfTest exists in the CUDA build only, where Open can succeed.
	if st, ok := any(dev).(interface{ SelfTest() error }); ok {
		if err := st.SelfTest(); err != nil {
			return "", 0, err
		}
	}
	return dev.Info().Name, time.Since(start).Seconds(), nil
}

// CalibrateOptions say where a calibration goes and who hears of it.
type CalibrateOptions struct {
	// Path is the calibration file (CalibrationPath; the caller refuses "").
	Path string
	// JSON prints the calibration to Stdout as JSON instead of a table.
	JSON   bool
	Stdout io.Writer
	// Reference also writes the Go table of reference rates to Stderr (-v),
	// to bake a reference host's run.
	Reference bool
	Stderr    io.Writer
	// Procgen is this binary's version and commit, recorded in the file.
	Procgen string
	// Progress hears each probe as it starts.
	Progress func(key string)
	// scale multiplies every probe's work (calibrationRun.scale); 0 is 1.
	scale float64
}

// Calibrate is devices --calibrate: it measures this host, writes the
// calibration atomically to o.Path and prints what it measured.
func (p *Policy) Calibrate(ctx context.Context, o CalibrateOptions) error {
	path := o.Path
	// The file is checked before the seconds of probes, as every output is.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	if _, err := output.Resolve(path); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	scale := o.scale
	if scale == 0 {
		scale = 1
	}
	run := calibrationRun{scale: scale, ref: calibrationReference, procgen: o.Procgen, progress: o.Progress}
	switch {
	case p.s.Device == "cpu":
		p.log.Debugf("calibrate: no GPU measured (--device cpu): auto keeps the built-in fixed costs")
	case gpu.BuiltWithCUDA || p.s.Device == "cuda":
		run.openGPU = p.calibrationGPU(p.Ordinals()[0])
	}
	c, err := runCalibration(ctx, run)
	if err != nil {
		return err
	}
	for _, job := range sortedJobs(c.Jobs) {
		if err := c.Jobs[job].check(); err != nil {
			p.log.Warnf("calibrate: %s: %v: a probe was disturbed or the reference is far off; auto will "+
				"ignore this calibration (rerun on an idle host)", job, err)
		}
	}
	if err := output.WriteJSON(path, c); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	if o.JSON {
		err = output.EncodeJSON(o.Stdout, c)
	} else {
		err = writeCalibration(o.Stdout, c)
	}
	if err != nil {
		return err
	}
	p.log.Infof("calibrate: wrote %s in %.1f s (cpu %s); --device auto uses it on this host", path, c.Seconds,
		cpuFactorSpan(c.Jobs))
	if o.Reference {
		return writeReferenceTable(o.Stderr, c)
	}
	return nil
}

// calibrationGPU is the calibration's GPU probe on device ordinal: a GPU
// that does not open is an UnavailableError under --device cuda, and no
// GPU factor under auto.
func (p *Policy) calibrationGPU(ordinal int) func() (string, float64, error) {
	return func() (string, float64, error) {
		name, sec, err := timeGPUOpen(ordinal)
		switch {
		case err == nil:
			return name, sec, nil
		case p.s.Device == "cuda":
			return "", 0, UnavailableError{fmt.Errorf("calibrate: cannot use %s cuda: %w; %s",
				p.name("device"), err, gpu.HowToGetCUDA)}
		}
		p.log.Debugf("calibrate: no GPU measured (auto keeps the built-in fixed costs): %v", err)
		return "", 0, nil
	}
}

// sortedJobs is the jobs' keys in order.
func sortedJobs(jobs map[string]jobFactors) []string {
	keys := make([]string, 0, len(jobs))
	for k := range jobs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeCalibration prints every probe's rate, the reference's and their
// ratio, then the GPU's.
func writeCalibration(w io.Writer, c *calibrationFile) error {
	model := c.Host.CPUModel
	if model == "" {
		model = "unknown CPU"
	}
	fmt.Fprintf(w, "calibration of %s, %d logical cores (GOMAXPROCS %d), against reference %q\n\n", model,
		c.Host.LogicalCores, c.Host.GOMAXPROCS, c.Reference)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  PROBE\tINPUT\tBEST RUN\tRATE/CORE\tREFERENCE\tFACTOR\n")
	for _, p := range c.Probes {
		fmt.Fprintf(tw, "  %s\t%s\t%.1f ms\t%.4g\t%.4g\t%.2f\n", p.Key, p.Input, 1e3*p.Seconds, p.Rate, p.Reference, p.Factor)
	}
	switch ref := calibrationReference.GPUOpenSeconds; {
	case c.GPUOpen == 0:
		fmt.Fprintf(tw, "  gpu\tno GPU opened\t\t\t\t\n")
	case ref > 0:
		fmt.Fprintf(tw, "  gpu\t%s: open, load, run a kernel\t%.3f s\t\t%.3f s\t%.2f\n", c.Host.GPU, c.GPUOpen, ref,
			c.GPUOpen/ref)
	default:
		fmt.Fprintf(tw, "  gpu\t%s: open, load, run a kernel\t%.3f s\t\tnone\t-\n", c.Host.GPU, c.GPUOpen)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  MODEL\tCPU FACTOR\tGPU FIXED-COST FACTOR\n")
	for _, job := range sortedJobs(c.Jobs) {
		f := c.Jobs[job]
		cpu := fmt.Sprintf("%.2f", f.CPU)
		if f.Work != 0 {
			cpu += fmt.Sprintf(" (one core %.2f)", f.Work)
		}
		g := "-"
		if f.GPUFixed != 0 {
			g = fmt.Sprintf("%.2f", f.GPUFixed)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", job, cpu, g)
	}
	return tw.Flush()
}

// writeReferenceTable writes calibrationReference as this run would set
// it, to be pasted over calibrate_reference.go's from a run on the
// reference host.
func writeReferenceTable(w io.Writer, c *calibrationFile) error {
	commit := c.Procgen
	if i := strings.LastIndexByte(commit, ' '); i >= 0 {
		commit = commit[i+1:]
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	model := c.Host.CPUModel
	if model == "" {
		model = "unknown CPU"
	}
	gpuName := c.Host.GPU
	if gpuName == "" {
		gpuName = "no GPU"
	}
	host := fmt.Sprintf("%s, %d logical cores (GOMAXPROCS %d), %s; procgen %s, %s", model, c.Host.LogicalCores,
		c.Host.GOMAXPROCS, gpuName, c.Procgen, c.Date[:min(len(c.Date), 10)])
	var b strings.Builder
	doc := "calibrationReference is the one table of reference rates; costModels are fitted on the " +
		"reference host, so its factors are 1 there. Measured by 'procgen devices --calibrate -v' on " + host + "."
	line := "//"
	for _, word := range strings.Fields(doc) {
		if len(line)+1+len(word) > 78 {
			b.WriteString(line + "\n")
			line = "//"
		}
		line += " " + word
	}
	b.WriteString(line + "\n")
	fmt.Fprintf(&b, "var calibrationReference = calibrationRef{\n")
	fmt.Fprintf(&b, "ID: %q,\n", fmt.Sprintf("%s-%dc-%s", hostSlug(gpuName, model), c.Host.LogicalCores, commit))
	fmt.Fprintf(&b, "Host: %q,\n", host)
	fmt.Fprintf(&b, "CPU: map[string]float64{\n")
	for _, p := range c.Probes {
		fmt.Fprintf(&b, "%q: %.4g,\n", p.Key, p.Rate)
	}
	fmt.Fprintf(&b, "},\n")
	fmt.Fprintf(&b, "GPUOpenSeconds: %.4g,\n}\n", c.GPUOpen)
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return fmt.Errorf("calibrate: reference table: %w", err)
	}
	_, err = fmt.Fprintf(w, "\n// To make this host the reference, replace the end of\n"+
		"// internal/device/calibrate_reference.go (from its comment) with:\n\n%s", src)
	return err
}

// hostSlug is a short lower-case name for a reference host: its GPU's
// model, else its CPU's first word.
func hostSlug(gpuName, cpu string) string {
	name := cpu
	if gpuName != "no GPU" {
		name = strings.TrimPrefix(gpuName, "NVIDIA ")
	}
	f := strings.Fields(strings.ToLower(name))
	if len(f) == 0 {
		return "host"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, f[0])
}
