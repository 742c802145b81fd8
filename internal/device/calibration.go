package device

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// A host calibration (procgen devices --calibrate) scales the cost models
// of --device auto to the host it runs on: costModels were fitted on one
// host, and the hosts a binary meets differ (CPUs up to 40 % apart), which
// moves every near-tie. It holds, per model, this host's CPU rate over the
// reference host's (probes of each job's own CPU code, run on all cores)
// and its GPU's fixed cost over the reference's. auto reads it only when it
// weighs, ignores it quietly (one -v line) when it is for another host, and
// falls back to the constants without one.

// calibrationFormat is the file's format; another is ignored.
const calibrationFormat = 1

// calibrationFile is the JSON written to calibrationPath.
type calibrationFile struct {
	Format int `json:"format"`
	// Reference names the reference rates the factors are relative to
	// (calibrationReference.key()): a file measured against other ones (an
	// older binary's) is ignored.
	Reference string       `json:"reference"`
	Host      hostKey      `json:"host"`
	Procgen   string       `json:"procgen"`
	Date      string       `json:"date"`
	Seconds   float64      `json:"seconds"` // the calibration's wall time
	Probes    []probeEntry `json:"probes"`
	// GPUOpen is the time to open the device and run a kernel from a
	// freshly loaded module (0: no GPU opened).
	GPUOpen float64 `json:"gpu_open_seconds,omitempty"`
	// Jobs are the factors auto applies, by cost model key.
	Jobs map[string]jobFactors `json:"jobs"`
}

// hostKey is what must match for a calibration to apply: the same CPU and
// as many of its threads, the same platform.
type hostKey struct {
	CPUModel     string `json:"cpu_model"`
	LogicalCores int    `json:"logical_cores"`
	GOMAXPROCS   int    `json:"gomaxprocs"` // informative: the model counts it at run time
	OS           string `json:"os"`
	Arch         string `json:"arch"`
	// GPU is the device that opened, when one did: informative, since
	// auto weighs before it opens any.
	GPU string `json:"gpu,omitempty"`
}

// thisHost is the running host's key.
func thisHost() hostKey {
	return hostKey{CPUModel: CPUModel(), LogicalCores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		OS: runtime.GOOS, Arch: runtime.GOARCH}
}

// CPUModel is the first "model name" in /proc/cpuinfo, "" where there is none.
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(name) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return ""
}

// matches says whether a calibration measured on h applies on o, and if
// not, why.
func (h hostKey) matches(o hostKey) error {
	switch {
	case h.CPUModel != o.CPUModel:
		return fmt.Errorf("measured on CPU %q, this is %q", h.CPUModel, o.CPUModel)
	case h.LogicalCores != o.LogicalCores:
		return fmt.Errorf("measured with %d logical cores, this host has %d", h.LogicalCores, o.LogicalCores)
	case h.OS != o.OS || h.Arch != o.Arch:
		return fmt.Errorf("measured on %s/%s, this is %s/%s", h.OS, h.Arch, o.OS, o.Arch)
	}
	return nil
}

// probeEntry is one probe's measurement, as -v prints it.
type probeEntry struct {
	Key       string  `json:"key"`
	Input     string  `json:"input"`
	Rate      float64 `json:"rate_per_core"` // work per second and core (one core: rulesSingleKey)
	Reference float64 `json:"reference_per_core"`
	Factor    float64 `json:"factor"`
	Seconds   float64 `json:"seconds"` // the fastest run
}

// jobFactors scale one cost model to this host (costModel.calibrated).
type jobFactors struct {
	// CPU is this host's CPU rate per core over the reference's.
	CPU float64 `json:"cpu_factor"`
	// Work is, for a job whose work is timed on this host (rules: one-core
	// seconds), this host's one-core speed over the reference's; 0 or 1
	// where work is counted.
	Work float64 `json:"work_factor,omitempty"`
	// GPUFixed is the GPU's fixed cost over the reference's (0: none
	// measured: the constant stands).
	GPUFixed float64 `json:"gpu_fixed_factor,omitempty"`
}

// factorRange bounds a believable factor: outside it a probe was
// disturbed (or the file edited), and the file is ignored.
const factorMin, factorMax = 0.1, 10.0

func validFactor(f float64) bool { return f >= factorMin && f <= factorMax }

// check rejects factors auto must not apply.
func (f jobFactors) check() error {
	if !validFactor(f.CPU) {
		return fmt.Errorf("cpu_factor %g out of [%g, %g]", f.CPU, factorMin, factorMax)
	}
	if f.Work != 0 && !validFactor(f.Work) {
		return fmt.Errorf("work_factor %g out of [%g, %g]", f.Work, factorMin, factorMax)
	}
	if f.GPUFixed != 0 && !validFactor(f.GPUFixed) {
		return fmt.Errorf("gpu_fixed_factor %g out of [%g, %g]", f.GPUFixed, factorMin, factorMax)
	}
	return nil
}

// calibrated is m on a host with factors f. Work counted in the model's
// unit takes CPU time work/(cpuRate·f.CPU·cores). Work timed on this host
// (rules) is in this host's one-core seconds, worth f.Work of the
// reference's: the CPU's rate then scales by f.CPU/f.Work and the GPU's,
// which does not care how fast this CPU is, by 1/f.Work.
func (m costModel) calibrated(f jobFactors) costModel {
	w := f.Work
	if w == 0 {
		w = 1
	}
	m.cpuRate *= f.CPU / w
	m.gpuRate /= w
	if f.GPUFixed != 0 {
		m.gpuFixed *= f.GPUFixed
	}
	return m
}

// describe is f as the -v device line shows it.
func (f jobFactors) describe() string {
	s := fmt.Sprintf("host calibration: cpu x%.2f", f.CPU)
	if f.Work != 0 && f.Work != 1 {
		s += fmt.Sprintf(" (one core x%.2f)", f.Work)
	}
	if f.GPUFixed != 0 {
		s += fmt.Sprintf(", gpu fixed cost x%.2f", f.GPUFixed)
	}
	return s
}

// CalibrationNone is the --calibration value that turns calibration off.
const CalibrationNone = "none"

// CalibrationPath is where the calibration lives: --calibration, else
// procgen/calibration.json in the user's cache directory ("" when there
// is none, or with --calibration none).
func (p *Policy) CalibrationPath() (string, error) {
	switch path := p.s.Calibration; path {
	case CalibrationNone:
		return "", nil
	case "":
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, "procgen", "calibration.json"), nil
	default:
		return path, nil
	}
}

// readCalibration reads and checks the calibration at path for host: an
// error says why it does not apply; a missing file is fs.ErrNotExist.
func readCalibration(path string, host hostKey, reference string) (*calibrationFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseCalibration(data, host, reference)
}

// parseCalibration is readCalibration of the file's contents.
func parseCalibration(data []byte, host hostKey, reference string) (*calibrationFile, error) {
	var c calibrationFile
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("does not parse: %w", err)
	}
	if c.Format != calibrationFormat {
		return nil, fmt.Errorf("format %d, this binary reads %d", c.Format, calibrationFormat)
	}
	if c.Reference != reference {
		return nil, fmt.Errorf("measured against reference %q, this binary's is %q", c.Reference, reference)
	}
	if err := c.Host.matches(host); err != nil {
		return nil, fmt.Errorf("for another host: %w", err)
	}
	for job, f := range c.Jobs {
		if err := f.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", job, err)
		}
	}
	return &c, nil
}

// hostCalibration is the calibration auto applies on this host, read once
// per run; nil when there is none or it does not apply (said once at -v:
// never a warning, since runs on render farms and CI must stay quiet).
func (p *Policy) hostCalibration() *calibrationFile {
	if p.calibRead {
		return p.calib
	}
	p.calibRead = true
	path, err := p.CalibrationPath()
	if path == "" {
		if err != nil {
			p.log.Debugf("calibration: no cache directory (%v): the cost models' constants stand", err)
		}
		return nil
	}
	c, err := readCalibration(path, thisHost(), calibrationReference.key())
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil // the device line says "uncalibrated"
	case err != nil:
		p.log.Debugf("calibration: %s ignored: %v ('procgen devices --calibrate' measures this host)",
			path, err)
		return nil
	}
	p.calib = c
	return c
}

// model is job's cost model on this host, calibrated when a
// calibration applies, and what -v says of that.
func (p *Policy) model(job string) (costModel, string, bool) {
	m, ok := costModels[job]
	if !ok {
		return m, "", false
	}
	c := p.hostCalibration()
	if c == nil {
		return m, "uncalibrated", true
	}
	f, ok := c.Jobs[job]
	if !ok {
		return m, "uncalibrated (the calibration has no " + job + " entry)", true
	}
	return m.calibrated(f), f.describe(), true
}

// factorsFor derives each cost model's factors from the probes' results
// (by probe key) and the GPU's open time, against ref.
func factorsFor(probes map[string]float64, gpuOpen float64, ref calibrationRef) (map[string]jobFactors, error) {
	gpuFactor := 0.0
	if gpuOpen > 0 && ref.GPUOpenSeconds > 0 {
		gpuFactor = gpuOpen / ref.GPUOpenSeconds
	}
	jobs := map[string]jobFactors{}
	for job := range costModels {
		key := job
		if k, ok := probeOf[job]; ok {
			key = k
		}
		rate, ok := probes[key]
		if !ok {
			return nil, fmt.Errorf("calibrate: no probe for %s", job)
		}
		f := jobFactors{CPU: rate / ref.CPU[key], GPUFixed: gpuFactor}
		if job == "rules" {
			f.Work = probes[rulesSingleKey] / ref.CPU[rulesSingleKey]
		}
		for _, v := range []float64{f.CPU, f.Work, f.GPUFixed} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("calibrate: %s: factor %g (no reference rate?)", job, v)
			}
		}
		jobs[job] = f
	}
	return jobs, nil
}

// probeOf names the probe a job's factors come from where it has none of
// its own: a packed rules run's CPU side is the rules engine's, a GLB
// city's the grammar's.
var probeOf = map[string]string{"rules-packed": "rules", "pga-glb": "pga"}

// cpuFactorSpan is "x0.83 to x1.10" over every job's CPU factor.
func cpuFactorSpan(jobs map[string]jobFactors) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, f := range jobs {
		lo, hi = math.Min(lo, f.CPU), math.Max(hi, f.CPU)
	}
	switch {
	case lo > hi:
		return "none"
	case fmt.Sprintf("%.2f", lo) == fmt.Sprintf("%.2f", hi):
		return fmt.Sprintf("x%.2f", lo)
	}
	return fmt.Sprintf("x%.2f to x%.2f", lo, hi)
}

// CalibrationStatus is what procgen devices reports of the calibration.
type CalibrationStatus struct {
	Path    string `json:"path,omitempty"`
	Applies bool   `json:"applies"`
	// Why is the date and factors when it applies, else why not.
	Why string `json:"why"`
}

// CalibrationStatus says whether auto would apply a calibration here.
func (p *Policy) CalibrationStatus() CalibrationStatus {
	path, err := p.CalibrationPath()
	switch {
	case err != nil:
		return CalibrationStatus{Why: fmt.Sprintf("no cache directory (%v)", err)}
	case path == "":
		return CalibrationStatus{Why: "off (" + p.name("calibration") + " none)"}
	}
	c, err := readCalibration(path, thisHost(), calibrationReference.key())
	switch {
	case errors.Is(err, os.ErrNotExist):
		return CalibrationStatus{Path: path, Why: "none ('procgen devices --calibrate' measures this host)"}
	case err != nil:
		return CalibrationStatus{Path: path, Why: "ignored: " + err.Error()}
	}
	why := fmt.Sprintf("measured %s: cpu %s", c.Date, cpuFactorSpan(c.Jobs))
	if f := c.Jobs["flame"]; f.GPUFixed != 0 { // one GPU factor for every job
		why += fmt.Sprintf(", gpu fixed cost x%.2f", f.GPUFixed)
	}
	return CalibrationStatus{Path: path, Applies: true, Why: why}
}
