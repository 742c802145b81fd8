//go:build cuda

package gpu

/*
#include "driver_cuda.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
)

// BuiltWithCUDA reports whether this binary contains the CUDA backend.
const BuiltWithCUDA = true

// Device is an open CUDA device: its primary context, the modules loaded into
// it, and the goroutine that owns the context. Safe for concurrent use: every
// driver call is handed to the owning goroutine.
type Device struct {
	info    DeviceInfo
	handle  C.pg_device
	ctx     C.pg_context
	calls   chan func()
	sync    bool // synchronize and check after every launch (--sync)
	closeMu sync.Mutex
	closed  bool

	modMu   sync.Mutex
	modules map[string]*module
	jit     JITPolicy // when to use the vector-reduction PTX variants
	jitDir  string    // where their compiled cubins are cached; "" = nowhere

	scratchMu sync.Mutex // serialises primitives that share the scratch buffer
	scratch   *Buffer[uint64]
}

// Probe reports whether CUDA can be used and describes every device, or says
// exactly why CUDA is unavailable. It opens no context.
func Probe() Report {
	rep := Report{BuiltWithCUDA: true, EmbeddedArchs: embeddedArchs()}
	version, err := loadDriver()
	rep.DriverVersion = version
	if err != nil {
		rep.Reason = trimUnavailable(err)
		return rep
	}
	var n C.int
	if err := check("cuDeviceGetCount", C.pg_device_count(&n)); err != nil {
		rep.Reason = err.Error()
		return rep
	}
	if n == 0 {
		rep.Reason = "the NVIDIA driver is installed but reports no CUDA device"
		return rep
	}
	for i := 0; i < int(n); i++ {
		info, err := queryDevice(i)
		if err != nil {
			rep.Reason = err.Error()
			return rep
		}
		rep.Devices = append(rep.Devices, info)
	}
	for _, d := range rep.Devices {
		if d.Runnable {
			rep.Available = true
		}
	}
	if !rep.Available {
		rep.Reason = fmt.Sprintf("no device can run the embedded kernels (%v)", rep.EmbeddedArchs)
	}
	return rep
}

// Device attributes are read-only and need no context, so Probe may call this
// from any thread.
func queryDevice(ordinal int) (DeviceInfo, error) {
	var h C.pg_device
	if err := check("cuDeviceGet", C.pg_device_get(&h, C.int(ordinal))); err != nil {
		return DeviceInfo{}, err
	}
	var name [256]C.char
	if err := check("cuDeviceGetName", C.pg_device_name(&name[0], C.int(len(name)), h)); err != nil {
		return DeviceInfo{}, err
	}
	attr := func(a C.int) int {
		var v C.int
		if C.pg_device_attr(&v, a, h) != C.PG_SUCCESS {
			return 0
		}
		return int(v)
	}
	var mem C.size_t
	if err := check("cuDeviceTotalMem", C.pg_device_total_mem(&mem, h)); err != nil {
		return DeviceInfo{}, err
	}
	info := DeviceInfo{
		Ordinal:      ordinal,
		Name:         C.GoString(&name[0]),
		Major:        attr(C.PG_ATTR_COMPUTE_CAPABILITY_MAJOR),
		Minor:        attr(C.PG_ATTR_COMPUTE_CAPABILITY_MINOR),
		SMs:          attr(C.PG_ATTR_MULTIPROCESSOR_COUNT),
		MemoryBytes:  uint64(mem),
		ClockKHz:     attr(C.PG_ATTR_CLOCK_RATE),
		L2Bytes:      attr(C.PG_ATTR_L2_CACHE_SIZE),
		BusWidthBits: attr(C.PG_ATTR_GLOBAL_MEMORY_BUS_WIDTH),
	}
	info.Runnable = canRun(embeddedArchs(), info.Major, info.Minor)
	return info, nil
}

// Open retains the primary context of device ordinal and starts the goroutine
// that owns it. Errors that mean "no usable device" wrap ErrUnavailable.
func Open(ordinal int) (*Device, error) {
	if _, err := loadDriver(); err != nil {
		return nil, fmt.Errorf("gpu: open device %d: %w", ordinal, err)
	}
	var n C.int
	if err := check("cuDeviceGetCount", C.pg_device_count(&n)); err != nil {
		return nil, fmt.Errorf("gpu: open device %d: %w: %v", ordinal, ErrUnavailable, err)
	}
	if ordinal < 0 || ordinal >= int(n) {
		return nil, fmt.Errorf("gpu: open device %d: %w: %d CUDA device(s) present", ordinal, ErrUnavailable, int(n))
	}
	info, err := queryDevice(ordinal)
	if err != nil {
		return nil, fmt.Errorf("gpu: open device %d: %w: %v", ordinal, ErrUnavailable, err)
	}
	if !info.Runnable {
		return nil, fmt.Errorf("gpu: open device %d: %w: %s (compute capability %s) cannot run the embedded kernels %v",
			ordinal, ErrUnavailable, info.Name, info.ComputeCapability(), embeddedArchs())
	}
	d := &Device{info: info, calls: make(chan func()), modules: map[string]*module{}, jit: JITCached, jitDir: defaultJITDir()}
	ready := make(chan error)
	go d.own(ordinal, ready)
	if err := <-ready; err != nil {
		return nil, fmt.Errorf("gpu: open device %d: %w: %v", ordinal, ErrUnavailable, err)
	}
	return d, nil
}

// own is the goroutine that holds the device's context current on its locked
// OS thread and runs every driver call for the device.
func (d *Device) own(ordinal int, ready chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := check("cuDeviceGet", C.pg_device_get(&d.handle, C.int(ordinal))); err != nil {
		ready <- err
		return
	}
	if err := check("cuDevicePrimaryCtxRetain", C.pg_primary_ctx_retain(&d.ctx, d.handle)); err != nil {
		ready <- err
		return
	}
	if err := check("cuCtxSetCurrent", C.pg_ctx_set_current(d.ctx)); err != nil {
		C.pg_primary_ctx_release(d.handle)
		ready <- err
		return
	}
	ready <- nil
	for f := range d.calls {
		f()
	}
	C.pg_primary_ctx_release(d.handle)
}

// do runs f on the device's goroutine and waits for it.
func (d *Device) do(f func() error) error {
	d.closeMu.Lock()
	closed := d.closed
	d.closeMu.Unlock()
	if closed {
		return fmt.Errorf("gpu: device %d is closed", d.info.Ordinal)
	}
	done := make(chan error, 1)
	d.calls <- func() { done <- f() }
	return <-done
}

// Info describes the device.
func (d *Device) Info() DeviceInfo { return d.info }

// SetSync makes every launch synchronize and check for errors, so a failing
// kernel is named at once instead of at the next copy (--sync, for debugging).
func (d *Device) SetSync(on bool) { d.sync = on }

// Synchronize waits for all work queued on the device.
func (d *Device) Synchronize() error {
	return d.do(func() error { return check("cuCtxSynchronize", C.pg_ctx_synchronize()) })
}

// MemInfo returns the free and total device memory in bytes.
func (d *Device) MemInfo() (free, total uint64, err error) {
	err = d.do(func() error {
		var f, t C.size_t
		if err := check("cuMemGetInfo", C.pg_mem_get_info(&f, &t)); err != nil {
			return err
		}
		free, total = uint64(f), uint64(t)
		return nil
	})
	return free, total, err
}

// Close frees the scratch memory, unloads modules and releases the context.
// Buffers the caller still holds become invalid.
func (d *Device) Close() error {
	d.closeMu.Lock()
	if d.closed {
		d.closeMu.Unlock()
		return nil
	}
	d.closeMu.Unlock()
	var firstErr error
	if d.scratch != nil {
		firstErr = d.scratch.Free()
		d.scratch = nil
	}
	err := d.do(func() error {
		var errs error
		for name, m := range d.modules {
			if err := check("cuModuleUnload", C.pg_module_unload(m.handle)); err != nil && errs == nil {
				errs = err
			}
			m.free()
			delete(d.modules, name)
		}
		return errs
	})
	if firstErr == nil {
		firstErr = err
	}
	d.closeMu.Lock()
	d.closed = true
	d.closeMu.Unlock()
	close(d.calls)
	return firstErr
}
