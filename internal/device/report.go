package device

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// CPUReport is the CPU part of procgen devices' report.
type CPUReport struct {
	Model        string `json:"model,omitempty"`
	LogicalCores int    `json:"logical_cores"`
	GOMAXPROCS   int    `json:"gomaxprocs"`
}

// Report is what procgen devices prints: the CPU, what CUDA support was
// found (and why not), and the host calibration auto applies.
type Report struct {
	CPU  CPUReport  `json:"cpu"`
	CUDA gpu.Report `json:"cuda"`
	// Calibration is the host calibration --device auto applies.
	Calibration CalibrationStatus `json:"calibration"`
}

// Report probes this host: the CPU, the CUDA driver and devices, and the
// policy's calibration. It opens no device.
func (p *Policy) Report() Report {
	r := Report{
		CPU:         CPUReport{Model: CPUModel(), LogicalCores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0)},
		CUDA:        gpu.Probe(),
		Calibration: p.CalibrationStatus(),
	}
	r.CUDA.RuntimeCompiler = gpu.RuntimeCompiler()
	return r
}

// WriteReport writes r as indented JSON, or as the human report.
func WriteReport(w io.Writer, r Report, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return writeText(w, r)
}

// Check opens the device --device asks for (an explicit request that
// cannot be met is an UnavailableError) and says which it got; with prepare
// it then compiles and caches the kernels the driver builds for that GPU
// from PTX.
func (p *Policy) Check(prepare bool) error {
	dev, err := p.Open()
	if err != nil {
		return err
	}
	if dev == nil {
		p.log.Infof("check: --device %s: using the CPU", p.s.Device)
		return nil
	}
	defer dev.Close()
	info := dev.Info()
	p.log.Infof("check: --device %s: using CUDA device %d (%s)", p.s.Device, info.Ordinal, info.Name)
	if !prepare {
		return nil
	}
	start := time.Now()
	families, err := dev.PrepareKernels()
	if err != nil {
		return err
	}
	if len(families) == 0 {
		p.log.Infof("prepare: nothing to compile: %s runs the embedded kernels", info.Name)
		return nil
	}
	p.log.Infof("prepare: %s kernels compiled for %s and cached in %s (%.1f s)",
		strings.Join(families, ", "), info.Name, gpu.DefaultJITDir(), time.Since(start).Seconds())
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// writeText is the human report: the CPU and CUDA as aligned key: value
// lines, then a table of the GPUs found.
func writeText(w io.Writer, r Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	model := r.CPU.Model
	if model == "" {
		model = "unknown"
	}
	fmt.Fprintf(tw, "CPU\n")
	fmt.Fprintf(tw, "  model:\t%s\n", model)
	fmt.Fprintf(tw, "  logical cores:\t%d\n", r.CPU.LogicalCores)
	fmt.Fprintf(tw, "  GOMAXPROCS:\t%d\n", r.CPU.GOMAXPROCS)
	cal := r.Calibration.Why
	if r.Calibration.Path != "" {
		cal = r.Calibration.Path + ": " + cal
	}
	fmt.Fprintf(tw, "  auto calibration:\t%s\n", cal)
	c := r.CUDA
	fmt.Fprintf(tw, "CUDA\n")
	fmt.Fprintf(tw, "  built with CUDA:\t%s\n", yesNo(c.BuiltWithCUDA))
	if c.Available {
		fmt.Fprintf(tw, "  available:\tyes\n")
	} else {
		fmt.Fprintf(tw, "  available:\tno: %s\n", c.Reason)
	}
	if c.DriverVersion != 0 {
		fmt.Fprintf(tw, "  driver supports:\tCUDA %s\n", gpu.DriverVersionString(c.DriverVersion))
	}
	if len(c.EmbeddedArchs) > 0 {
		fmt.Fprintf(tw, "  embedded kernels:\t%s\n", strings.Join(c.EmbeddedArchs, " "))
	}
	if c.RuntimeCompiler != "" {
		fmt.Fprintf(tw, "  run-time compiler:\t%s\n", c.RuntimeCompiler)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(c.Devices) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  #\tNAME\tCC\tSMS\tMEMORY\tRUNNABLE\n")
	for _, d := range c.Devices {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%d\t%.1f GiB\t%s\n", d.Ordinal, d.Name, d.ComputeCapability(), d.SMs,
			float64(d.MemoryBytes)/(1<<30), yesNo(d.Runnable))
	}
	return tw.Flush()
}
