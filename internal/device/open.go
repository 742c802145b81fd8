// Package device is procgen's --device policy: which backend a job runs on
// (--device auto|cpu|cuda, --devices), auto's cost model and its host
// calibration, opening the GPU ahead of need, and dealing work over several
// GPUs. It knows nothing of the command line: the caller passes the
// validated settings, a Logger for stderr, and how each setting was given
// (Settings.Name), for messages.
package device

import (
	"fmt"
	"strings"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// Logger is where the policy says what it chose and why: Debugf at -v,
// Infof unless quiet, Warnf always.
type Logger interface {
	Infof(format string, args ...any)
	Debugf(format string, args ...any)
	Warnf(format string, args ...any)
}

// Settings are the validated settings the policy obeys.
type Settings struct {
	// Device is auto, cpu or cuda.
	Device string
	// Devices is "all" or a list of GPU ordinals (ParseDevices).
	Devices string
	// Sync synchronizes after every launch (debugging).
	Sync bool
	JIT  gpu.JITPolicy
	// Calibration is the host calibration file, "" for the default path,
	// or CalibrationNone.
	Calibration string
	// Name says how the user gave a setting ("--device", "PROCGEN_DEVICE",
	// "device (procgen.yaml)"), for messages; nil: the key itself.
	Name func(key string) string
}

// Policy is one run's device policy. It keeps what a run shares between
// its jobs: a GPU opened ahead, the GPU a batch keeps open, the host
// calibration read once. Not safe for concurrent use.
type Policy struct {
	s   Settings
	log Logger
	// jitHinted: the --jit note was printed already.
	jitHinted bool
	// devOpen delivers a GPU opened ahead of need (Prefetch).
	devOpen chan openResult
	// batchDev is the GPU a batch of inputs shares (KeepOpen): opened by
	// the first input that runs on it, closed when the batch ends.
	batchDev  *gpu.Device
	batchKeep bool
	// calib is the host calibration auto applies, read once
	// (hostCalibration; calibRead: it was looked for).
	calib     *calibrationFile
	calibRead bool
}

// New is the policy of settings s, logging to log.
func New(s Settings, log Logger) *Policy {
	return &Policy{s: s, log: log}
}

// name is how key was set, for messages.
func (p *Policy) name(key string) string {
	if p.s.Name == nil {
		return key
	}
	return p.s.Name(key)
}

// UnavailableError is an explicit device request that cannot be met. It is
// gpu.ErrUnavailable, whatever the error it wraps, so that callers map it
// to "device unavailable" in one place.
type UnavailableError struct{ Err error }

func (e UnavailableError) Error() string        { return e.Err.Error() }
func (e UnavailableError) Unwrap() error        { return e.Err }
func (e UnavailableError) Is(target error) bool { return target == gpu.ErrUnavailable }

// Open opens the device --device asks for. A nil device and nil error
// mean "use the CPU". An explicit cuda that cannot be met is an
// UnavailableError that says how to get a working CUDA build; auto falls
// back to the CPU, saying why only with --verbose. The caller closes the
// device (Release).
func (p *Policy) Open() (*gpu.Device, error) {
	switch p.s.Device {
	case "cpu":
		p.log.Debugf("device: cpu (--device cpu)")
		return nil, nil
	case "cuda", "auto":
		if p.batchDev != nil {
			return p.batchDev, nil
		}
		dev, err, ok := p.takePrefetched()
		if !ok {
			dev, err = gpu.Open(p.Ordinals()[0])
		}
		if err != nil {
			if p.s.Device == "auto" {
				p.log.Debugf("device: cpu (CUDA not used: %v)", err)
				return nil, nil
			}
			return nil, UnavailableError{fmt.Errorf("cannot use %s cuda: %w; %s", p.name("device"), err, gpu.HowToGetCUDA)}
		}
		dev.SetSync(p.s.Sync)
		if err := dev.SetJIT(p.s.JIT, ""); err != nil {
			dev.Close()
			return nil, err
		}
		info := dev.Info()
		p.log.Debugf("device: cuda %d, %s (compute capability %s)", info.Ordinal, info.Name, info.ComputeCapability())
		if p.batchKeep {
			p.batchDev = dev
		}
		return dev, nil
	default:
		// The caller validated the setting before any job ran.
		return nil, fmt.Errorf("invalid --device %q: want auto, cpu or cuda", p.s.Device)
	}
}

// HintJIT says, once, that faster kernels for this GPU exist but are not
// compiled yet, when family just ran from its fatbin although the device
// could use its vector-reduction variant.
func (p *Policy) HintJIT(dev *gpu.Device, family string) {
	if dev == nil || p.jitHinted || p.s.JIT != gpu.JITCached || !dev.VectorReductionsSupported() {
		return
	}
	if v := dev.KernelVariant(family); v == "" || strings.Contains(v, "vector") {
		return
	}
	p.jitHinted = true
	p.log.Infof("note: this GPU can run faster %s kernels; compile them once with 'procgen devices --prepare' "+
		"(about 20 s, cached in %s) or pass --jit always", family, gpu.DefaultJITDir())
}

// KeepOpen makes the inputs of a batch share one GPU context and its
// loaded kernels instead of opening the device for each (~0.1-0.2 s each):
// Release leaves it open, and the returned function closes it.
func (p *Policy) KeepOpen() (done func()) {
	p.batchKeep = true
	return func() {
		p.batchKeep = false
		if p.batchDev != nil {
			p.batchDev.Close()
			p.batchDev = nil
		}
	}
}

// Release closes a job's device unless a batch shares it.
func (p *Policy) Release(dev *gpu.Device) {
	if dev != nil && dev != p.batchDev {
		dev.Close()
	}
}
