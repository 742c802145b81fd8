package main

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// openDevice opens the device --device asks for. A nil device and nil error
// mean "use the CPU". An explicit cuda that cannot be met is an error that
// exits with code 3 and says how to get a working CUDA build; auto falls back
// to the CPU, saying why only with --verbose. The caller closes the device.
func (a *app) openDevice() (*gpu.Device, error) {
	switch a.opts.Device {
	case "cpu":
		a.log.Debugf("device: cpu (--device cpu)")
		return nil, nil
	case "cuda", "auto":
		dev, err := gpu.Open(0)
		if err != nil {
			if a.opts.Device == "auto" {
				a.log.Debugf("device: cpu (CUDA not used: %v)", err)
				return nil, nil
			}
			return nil, deviceError{fmt.Errorf("cannot use %s cuda: %w; %s", a.settingName("device"), err, gpu.HowToGetCUDA)}
		}
		dev.SetSync(a.opts.Sync)
		info := dev.Info()
		a.log.Debugf("device: cuda %d, %s (compute capability %s)", info.Ordinal, info.Name, info.ComputeCapability())
		return dev, nil
	default:
		// validate rejected anything else before any command ran.
		return nil, usageErrorf("invalid --device %q: want auto, cpu or cuda", a.opts.Device)
	}
}
