package main

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules"
)

// rulesDeviceFits hands back a GPU that cannot run prog (a rule ranging
// over more indices than the GPU backend takes): under --device auto the
// run goes to the CPU and -v says why; an explicit --device cuda fails
// (exit code 3) naming the rule.
func (a *app) rulesDeviceFits(prog *rules.Program, dev *gpu.Device) (*gpu.Device, error) {
	why := rules.GPUSupports(prog)
	if why == nil {
		return dev, nil
	}
	if dev != nil {
		dev.Close()
	}
	if a.opts.Device == "cuda" {
		return nil, deviceError{fmt.Errorf("cannot use %s cuda: %w; run it with --device cpu or auto", a.settingName("device"), why)}
	}
	if a.opts.Device == "auto" {
		a.log.Debugf("device: cpu (auto: %v)", why)
	}
	return nil, nil
}
