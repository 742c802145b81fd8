package device

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// Near-ties of the e2e table flip with the host: a CPU 30 % faster than the
// reference's keeps them on the CPU, one 30 % slower sends them to the GPU,
// and a GPU whose fixed cost is 30 % lower or higher flips them the other
// way.
func TestCostModelCalibratedDecisions(t *testing.T) {
	tests := []struct {
		name    string
		job     string
		work    float64
		f       jobFactors
		wantGPU bool
	}{
		// Life 4096 x 200, probed at 16 core-seconds: 0.33 s on 16 cores of the reference, 0.38 s on its GPU.
		{"life, fast cpu", "rules", 16, jobFactors{CPU: 1.3}, false},
		{"life, slow cpu", "rules", 16, jobFactors{CPU: 0.7}, true},
		{"life, cheap gpu", "rules", 16, jobFactors{CPU: 1, GPUFixed: 0.7}, true},
		{"life, dear gpu", "rules", 16, jobFactors{CPU: 1, GPUFixed: 1.3}, false},
		// Suburban 66x64 (6.1e6 terminals): 0.45 s on 16 cores, 0.57 s on the GPU.
		{"suburban, fast cpu", "pga", 6.1e6, jobFactors{CPU: 1.3}, false},
		{"suburban, slow cpu", "pga", 6.1e6, jobFactors{CPU: 0.7}, true},
		// Forest fft, 1e5 trees (5e5 cells): 0.31 s against 0.46 s.
		{"fft, slow cpu", "forest-fft", 5e5, jobFactors{CPU: 0.6}, true},
		{"fft, fast cpu", "forest-fft", 5e5, jobFactors{CPU: 1.3}, false},
	}
	for _, tt := range tests {
		m := costModels[tt.job].calibrated(tt.f)
		cpu, gpu := m.predict(tt.work, 16, math.Inf(1))
		if got := gpu < cpu; got != tt.wantGPU {
			t.Errorf("%s: cpu %.3g s, gpu %.3g s: GPU chosen = %v, want %v", tt.name, cpu, gpu, got, tt.wantGPU)
		}
	}
}

// Rules' work is timed on the host: on one whose cores are all 1.3x the
// reference's, the probe reads 1/1.3 of the reference's core-seconds, which
// already makes the CPU 1.3x faster (the factor must not count it twice),
// while the GPU takes what it takes on the reference.
func TestCalibratedTimedWork(t *testing.T) {
	const refWork, speed = 16.0, 1.3
	m := costModels["rules"]
	wantCPU, wantGPU := m.predict(refWork, 16, 1024)
	gotCPU, gotGPU := m.calibrated(jobFactors{CPU: speed, Work: speed}).predict(refWork/speed, 16, 1024)
	if math.Abs(gotCPU-wantCPU/speed) > 1e-12 || math.Abs(gotGPU-wantGPU) > 1e-12 {
		t.Errorf("host 1.3x faster: cpu %g gpu %g, want %g %g", gotCPU, gotGPU, wantCPU/speed, wantGPU)
	}
	// A host whose one core is as fast as the reference's but whose cores
	// together are slower (memory bandwidth): the CPU's time grows, the
	// GPU's does not.
	gotCPU, gotGPU = m.calibrated(jobFactors{CPU: 0.8, Work: 1}).predict(refWork, 16, 1024)
	if math.Abs(gotCPU-wantCPU/0.8) > 1e-12 || gotGPU != wantGPU {
		t.Errorf("cores 0.8x: cpu %g gpu %g, want %g %g", gotCPU, gotGPU, wantCPU/0.8, wantGPU)
	}
	// Counted work: the factor scales the CPU's rate only.
	f := costModels["flame"]
	c0, g0 := f.predict(1e8, 16, math.Inf(1))
	c1, g1 := f.calibrated(jobFactors{CPU: 2}).predict(1e8, 16, math.Inf(1))
	if math.Abs((c1-f.cpuFixed)*2-(c0-f.cpuFixed)) > 1e-12 || g1 != g0 {
		t.Errorf("flame at cpu x2: cpu %g gpu %g from %g %g", c1, g1, c0, g0)
	}
}

// testCalibration is a calibration of this host against ref with every
// job's factors f.
func testCalibration(ref string, f jobFactors) *calibrationFile {
	c := &calibrationFile{Format: calibrationFormat, Reference: ref, Host: thisHost(), Jobs: map[string]jobFactors{}}
	for job := range costModels {
		c.Jobs[job] = f
	}
	return c
}

func writeTestCalibration(t *testing.T, c any) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "calibration.json")
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// testLog logs as procgen's logger does, to w: Debugf at verbose 1.
type testLog struct {
	w       io.Writer
	verbose int
}

func (l *testLog) Infof(format string, args ...any) { fmt.Fprintf(l.w, format+"\n", args...) }
func (l *testLog) Warnf(format string, args ...any) {
	fmt.Fprintf(l.w, "procgen: warning: "+format+"\n", args...)
}
func (l *testLog) Debugf(format string, args ...any) {
	if l.verbose > 0 {
		fmt.Fprintf(l.w, "procgen: "+format+"\n", args...)
	}
}

// testPolicy is a policy of s logging at -v to stderr.
func testPolicy(s Settings, stderr io.Writer) *Policy {
	return New(s, &testLog{w: stderr, verbose: 1})
}

// calibPolicy is an auto policy at -v that reads the calibration at path.
func calibPolicy(path string, stderr io.Writer) *Policy {
	return testPolicy(Settings{Device: "auto", Calibration: path}, stderr)
}

// A calibration for this host scales auto's models and says so at -v;
// one for another host, of another reference or format, with an absurd
// factor, or that does not parse is ignored with one -v line, and a
// missing one silently.
func TestHostCalibrationApplies(t *testing.T) {
	good := testCalibration(calibrationReference.key(), jobFactors{CPU: 0.5, GPUFixed: 1.25})
	var stderr bytes.Buffer
	a := calibPolicy(writeTestCalibration(t, good), &stderr)
	m, note, ok := a.model("pga")
	want := costModels["pga"]
	if !ok || m.cpuRate != want.cpuRate*0.5 || m.gpuFixed != want.gpuFixed*1.25 || m.gpuRate != want.gpuRate {
		t.Errorf("calibrated pga model %+v from %+v", m, want)
	}
	if note != "host calibration: cpu x0.50, gpu fixed cost x1.25" {
		t.Errorf("note %q", note)
	}
	if _, _, _ = a.model("flame"); stderr.Len() != 0 {
		t.Errorf("a calibration that applies logs %q", stderr.String())
	}
	if st := a.CalibrationStatus(); !st.Applies || !strings.Contains(st.Why, "cpu x0.50, gpu fixed cost x1.25") {
		t.Errorf("devices reports %+v", st)
	}

	other := testCalibration(calibrationReference.key(), jobFactors{CPU: 0.5})
	other.Host.CPUModel += " (another)"
	otherCores := testCalibration(calibrationReference.key(), jobFactors{CPU: 0.5})
	otherCores.Host.LogicalCores++
	absurd := testCalibration(calibrationReference.key(), jobFactors{CPU: 50})
	oldRef := testCalibration("an-older-reference", jobFactors{CPU: 0.5})
	format := testCalibration(calibrationReference.key(), jobFactors{CPU: 0.5})
	format.Format = calibrationFormat + 1
	for name, tc := range map[string]struct {
		file any
		why  string
	}{
		"another CPU":        {other, "for another host: measured on CPU"},
		"another core count": {otherCores, "logical cores, this host has"},
		"absurd factor":      {absurd, "cpu_factor 50 out of"},
		"older reference":    {oldRef, `reference "an-older-reference"`},
		"another format":     {format, "format 2"},
		"corrupt":            {json.RawMessage(`{"format": 1, "jobs": {"pga": {"cpu_factor": "fast"}}}`), "does not parse"},
	} {
		var stderr bytes.Buffer
		a := calibPolicy(writeTestCalibration(t, tc.file), &stderr)
		for _, job := range []string{"pga", "rules", "flame"} {
			m, note, ok := a.model(job)
			if !ok || m != costModels[job] || note != "uncalibrated" {
				t.Errorf("%s: %s model %+v (%q), want the constants", name, job, m, note)
			}
		}
		if lines := strings.Count(stderr.String(), "\n"); lines != 1 || !strings.Contains(stderr.String(), tc.why) ||
			!strings.Contains(stderr.String(), "ignored") {
			t.Errorf("%s: %d lines at -v, want one saying %q:\n%s", name, lines, tc.why, stderr.String())
		}
		if st := a.CalibrationStatus(); st.Applies || !strings.Contains(st.Why, tc.why) {
			t.Errorf("%s: devices reports %+v", name, st)
		}
		a.log.(*testLog).verbose = 0
		stderr.Reset()
		a.calibRead = false
		a.model("pga")
		if stderr.Len() != 0 {
			t.Errorf("%s: without -v: %q", name, stderr.String())
		}
	}

	stderr.Reset()
	a = calibPolicy(filepath.Join(t.TempDir(), "missing.json"), &stderr)
	if m, note, _ := a.model("pga"); m != costModels["pga"] || note != "uncalibrated" || stderr.Len() != 0 {
		t.Errorf("no file: %+v %q, logged %q", m, note, stderr.String())
	}
	a = calibPolicy(CalibrationNone, &stderr)
	if m, _, _ := a.model("pga"); m != costModels["pga"] || stderr.Len() != 0 {
		t.Errorf("--calibration none: %+v, logged %q", m, stderr.String())
	}
}

// The whole calibration, in short mode: every probe runs its job's CPU code
// and returns a positive, finite rate; the factors are the rates over the
// reference's, the GPU's fixed-cost factor its open time over the
// reference's; and the file written round-trips through readCalibration.
func TestRunCalibrationShort(t *testing.T) {
	ref := calibrationRef{ID: "test-ref", CPU: map[string]float64{}, GPUOpenSeconds: 0.2}
	for _, p := range cpuProbes() {
		ref.CPU[p.key] = 1000
	}
	var seen []string
	c, err := runCalibration(context.Background(), calibrationRun{scale: 0.05, ref: ref,
		openGPU:  func() (string, float64, error) { return "Test GPU", 0.3, nil },
		progress: func(key string) { seen = append(seen, key) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(cpuProbes()) || len(c.Probes) != len(seen) {
		t.Fatalf("probes run %v, recorded %d", seen, len(c.Probes))
	}
	for _, p := range c.Probes {
		if !(p.Rate > 0) || math.IsInf(p.Rate, 0) || !(p.Seconds > 0) || p.Factor != p.Rate/1000 {
			t.Errorf("probe %s: %+v", p.Key, p)
		}
	}
	rates := map[string]float64{}
	for _, p := range c.Probes {
		rates[p.Key] = p.Rate
	}
	for job := range costModels {
		key := job
		if k, ok := probeOf[job]; ok {
			key = k
		}
		f, ok := c.Jobs[job]
		if !ok || f.CPU != rates[key]/1000 || math.Abs(f.GPUFixed-1.5) > 1e-12 {
			t.Errorf("%s: factors %+v", job, f)
		}
	}
	if w := c.Jobs["rules"].Work; w != rates[rulesSingleKey]/1000 {
		t.Errorf("rules work factor %g", w)
	}
	if c.Host.GPU != "Test GPU" || c.Host.CPUModel != thisHost().CPUModel || c.Reference != ref.key() || c.Date == "" {
		t.Errorf("calibration header %+v", c)
	}

	// The factors are made sane for the round trip (the test reference is not).
	for job := range c.Jobs {
		c.Jobs[job] = jobFactors{CPU: 0.9, Work: 1.1, GPUFixed: 1.5}
	}
	path := writeTestCalibration(t, c)
	back, err := readCalibration(path, thisHost(), ref.key())
	if err != nil {
		t.Fatal(err)
	}
	if back.Jobs["rules"] != c.Jobs["rules"] || len(back.Probes) != len(c.Probes) || back.GPUOpen != 0.3 {
		t.Errorf("round trip: %+v", back)
	}
	// Without a GPU: no GPU factor, the constants' fixed cost stands.
	c, err = runCalibration(context.Background(), calibrationRun{scale: 0.05, ref: ref})
	if err != nil {
		t.Fatal(err)
	}
	if c.Host.GPU != "" || c.Jobs["flame"].GPUFixed != 0 {
		t.Errorf("no GPU: %q, %+v", c.Host.GPU, c.Jobs["flame"])
	}
}

// The reference table covers every probe with a positive rate.
func TestCalibrationReferenceComplete(t *testing.T) {
	for _, p := range cpuProbes() {
		if r := calibrationReference.CPU[p.key]; !(r > 0) || math.IsInf(r, 0) {
			t.Errorf("reference rate of %s: %g", p.key, r)
		}
	}
	if len(calibrationReference.CPU) != len(cpuProbes()) || calibrationReference.ID == "" {
		t.Errorf("reference %+v: one rate per probe, and an ID", calibrationReference)
	}
	// A new rate under the same ID is another reference: files measured
	// against the old one no longer apply.
	other := calibrationRef{ID: calibrationReference.ID, CPU: map[string]float64{}}
	for k, v := range calibrationReference.CPU {
		other.CPU[k] = v
	}
	if other.key() != calibrationReference.key() {
		t.Errorf("the same rates, keys %q and %q", other.key(), calibrationReference.key())
	}
	other.CPU["pga"] *= 1.01
	if other.key() == calibrationReference.key() {
		t.Errorf("another pga rate, the same key %q", other.key())
	}
}

// Calibrate writes the calibration atomically where it is told, prints
// every probe, and the reference table when asked; a later policy on this
// host applies it. Under --device cuda a GPU that does not open is an
// UnavailableError before any probe runs.
func TestCalibrate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "cal.json")
	var stdout, stderr bytes.Buffer
	p := testPolicy(Settings{Device: "auto", Calibration: path}, &stderr)
	err := p.Calibrate(context.Background(), CalibrateOptions{Path: path, Stdout: &stdout, Reference: true,
		Stderr: &stderr, Procgen: "test 0123456789abcdef", scale: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range cpuProbes() {
		if !strings.Contains(stdout.String(), "  "+p.key+" ") {
			t.Errorf("no %s row in:\n%s", p.key, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "var calibrationReference = calibrationRef{") ||
		!strings.Contains(stderr.String(), "wrote "+path) || !strings.Contains(stderr.String(), "-0123456789ab\"") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	c, err := parseCalibrationFile(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Jobs) != len(costModels) || c.Procgen != "test 0123456789abcdef" {
		t.Errorf("jobs %v, procgen %q", c.Jobs, c.Procgen)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("left beside the file: %v", entries)
	}
	if !gpu.Probe().Available {
		p := testPolicy(Settings{Device: "cuda", Calibration: path, Name: func(k string) string { return "--" + k }}, &stderr)
		probed := false
		err := p.Calibrate(context.Background(), CalibrateOptions{Path: path, Stdout: io.Discard, Stderr: io.Discard,
			scale: 0.05, Progress: func(string) { probed = true }})
		if !errors.Is(err, gpu.ErrUnavailable) || probed || !strings.Contains(err.Error(), "calibrate: cannot use --device cuda") {
			t.Errorf("--device cuda without a GPU: %v (probed: %v)", err, probed)
		}
	}
}

// parseCalibrationFile reads path as Calibrate wrote it; the short probes'
// factors need not be believable, so they are not checked.
func parseCalibrationFile(t *testing.T, path string) (*calibrationFile, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c calibrationFile
	return &c, json.Unmarshal(data, &c)
}

// Reading the calibration (once per run that weighs) must cost well under
// a millisecond: it is the host key (/proc/cpuinfo's first model name) and
// a small JSON file.
func BenchmarkHostCalibration(b *testing.B) {
	c, err := runCalibration(context.Background(), calibrationRun{scale: 0.02, ref: calibrationReference})
	if err != nil {
		b.Fatal(err)
	}
	for job := range c.Jobs { // short probes' factors are not believable
		c.Jobs[job] = jobFactors{CPU: 1.1, GPUFixed: 0.9}
	}
	path := filepath.Join(b.TempDir(), "calibration.json")
	data, _ := json.MarshalIndent(c, "", "  ")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	a := calibPolicy(path, io.Discard)
	b.ResetTimer()
	for range b.N {
		a.calibRead = false
		if a.hostCalibration() == nil {
			b.Fatal("not applied")
		}
	}
}

// FuzzParseCalibration: no file may crash the reader, and whatever it
// accepts gives every model positive, finite times.
func FuzzParseCalibration(f *testing.F) {
	good, err := json.Marshal(testCalibration("ref", jobFactors{CPU: 0.8, Work: 1.2, GPUFixed: 1.1}))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format": 1, "reference": "ref", "jobs": {"rules": {"cpu_factor": 1e-300}}}`))
	f.Add([]byte(`{"format": 1, "reference": "ref", "host": {}, "jobs": {"pga": {"cpu_factor": 0}}}`))
	f.Add([]byte(`{"format": 1e400}`))
	f.Add([]byte(`[]`))
	host := thisHost()
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseCalibration(data, host, "ref")
		if err != nil {
			return
		}
		for job, fs := range c.Jobs {
			m, ok := costModels[job]
			if !ok {
				continue
			}
			for _, items := range []float64{1, math.Inf(1)} {
				cpu, gpu := m.calibrated(fs).predict(1e6, 16, items)
				if !(cpu > 0) || !(gpu > 0) || math.IsInf(cpu, 0) || math.IsInf(gpu, 0) {
					t.Fatalf("%s with %+v: cpu %g gpu %g", job, fs, cpu, gpu)
				}
			}
		}
	})
}

// On a machine with a GPU, the GPU probe opens it, runs the self-test
// kernel and times it; without one it fails (and calibrateHost carries on
// without a GPU factor under auto).
func TestTimeGPUOpen(t *testing.T) {
	name, sec, err := timeGPUOpen(0)
	if !gpu.Probe().Available {
		if err == nil {
			t.Errorf("no GPU, yet timeGPUOpen gave %q in %g s", name, sec)
		}
		t.Skip("no CUDA device")
	}
	if err != nil {
		t.Fatal(err)
	}
	if name == "" || !(sec > 0 && sec < 60) {
		t.Errorf("GPU %q opened in %g s", name, sec)
	}
	t.Logf("%s: open, load and run a kernel in %.3f s (other tests of this process may have started the driver)", name, sec)
}
