package main

import (
	"fmt"
	"strings"

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
		if a.batchDev != nil {
			return a.batchDev, nil
		}
		dev, err, ok := a.takePrefetched()
		if !ok {
			dev, err = gpu.Open(a.deviceOrdinals()[0])
		}
		if err != nil {
			if a.opts.Device == "auto" {
				a.log.Debugf("device: cpu (CUDA not used: %v)", err)
				return nil, nil
			}
			return nil, deviceError{fmt.Errorf("cannot use %s cuda: %w; %s", a.settingName("device"), err, gpu.HowToGetCUDA)}
		}
		dev.SetSync(a.opts.Sync)
		if err := dev.SetJIT(a.opts.jitPolicy(), ""); err != nil {
			dev.Close()
			return nil, err
		}
		info := dev.Info()
		a.log.Debugf("device: cuda %d, %s (compute capability %s)", info.Ordinal, info.Name, info.ComputeCapability())
		if a.batchKeep {
			a.batchDev = dev
		}
		return dev, nil
	default:
		// validate rejected anything else before any command ran.
		return nil, usageErrorf("invalid --device %q: want auto, cpu or cuda", a.opts.Device)
	}
}

// hintJIT says, once, that faster kernels for this GPU exist but are not
// compiled yet, when family just ran from its fatbin although the device
// could use its vector-reduction variant.
func (a *app) hintJIT(dev *gpu.Device, family string) {
	if dev == nil || a.jitHinted || a.opts.jitPolicy() != gpu.JITCached || !dev.VectorReductionsSupported() {
		return
	}
	if v := dev.KernelVariant(family); v == "" || strings.Contains(v, "vector") {
		return
	}
	a.jitHinted = true
	a.log.Infof("note: this GPU can run faster %s kernels; compile them once with 'procgen devices --prepare' "+
		"(about 20 s, cached in %s) or pass --jit always", family, gpu.DefaultJITDir())
}

// keepDeviceOpen makes the inputs of a batch share one GPU context and its
// loaded kernels instead of opening the device for each (~0.1-0.2 s each):
// releaseDevice leaves it open, and the returned function closes it.
func (a *app) keepDeviceOpen() (done func()) {
	a.batchKeep = true
	return func() {
		a.batchKeep = false
		if a.batchDev != nil {
			a.batchDev.Close()
			a.batchDev = nil
		}
	}
}

// releaseDevice closes a job's device unless a batch shares it.
func (a *app) releaseDevice(dev *gpu.Device) {
	if dev != nil && dev != a.batchDev {
		dev.Close()
	}
}
