//go:build cuda

package gpu

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Ptr passes the buffer to a kernel as a pointer to its first value.
func (b *Buffer[T]) Ptr() Ptr { return Ptr{uint64(b.ptr)} }

// PtrAt passes a pointer to value i of the buffer.
func (b *Buffer[T]) PtrAt(i int) Ptr { return Ptr{uint64(b.ptr) + uint64(i)*uint64(elemSize[T]())} }

// Func is a declared kernel loaded on a device: its launches take P. Only
// Kernel.Load and LoadFrom make one, so every launch goes through a
// declaration.
type Func[P any] struct{ fn *Function }

// Load looks the kernel up in its family's module on d (loading the module
// on first use).
func (k Kernel[P]) Load(d *Device) (Func[P], error) {
	f, err := d.function(k.Family, k.Name)
	return Func[P]{f}, err
}

// LoadFrom looks the kernel's name up in another family, a module loaded at
// run time (LoadPTXModule) whose kernel has the same parameters.
func (k Kernel[P]) LoadFrom(d *Device, family string) (Func[P], error) {
	f, err := d.function(family, k.Name)
	return Func[P]{f}, err
}

// SetMaxDynamicShared is Function.SetMaxDynamicShared.
func (f Func[P]) SetMaxDynamicShared(bytes int) error { return f.fn.SetMaxDynamicShared(bytes) }

// ResidentBlocks is Function.ResidentBlocks.
func (f Func[P]) ResidentBlocks(blockThreads, dynShared int) (int, error) {
	return f.fn.ResidentBlocks(blockThreads, dynShared)
}

// Launch queues the kernel on the device's default stream.
func (f Func[P]) Launch(grid, block Dim3, sharedBytes int, p P) error {
	return f.LaunchOn(nil, grid, block, sharedBytes, p)
}

// LaunchOn queues the kernel on stream s.
func (f Func[P]) LaunchOn(s *Stream, grid, block Dim3, sharedBytes int, p P) error {
	args, err := f.args(&p)
	if err != nil {
		return fmt.Errorf("gpu: launch %s: %w", f.fn.name, err)
	}
	return f.fn.launchOn(s, grid, block, sharedBytes, args...)
}

// Queue adds the launch to batch b, to run with the batch's other work.
func (f Func[P]) Queue(b *Batch, grid, block Dim3, sharedBytes int, p P) {
	args, err := f.args(&p)
	if err != nil {
		err = fmt.Errorf("gpu: launch %s: %w", f.fn.name, err)
		b.ops = append(b.ops, func() error { return err })
		return
	}
	b.launch(f.fn, grid, block, sharedBytes, args...)
}

// argPlan says where each kernel parameter lies in a parameter struct
// type: its offset, and whether it is 8 bytes wide (else 4). Made once per
// kernel and type with reflect, so a launch copies bits without it.
type argPlan struct {
	t    reflect.Type
	offs []uintptr
	wide []bool
}

func planFor(t reflect.Type) (*argPlan, error) {
	if _, err := paramKinds(t); err != nil {
		return nil, err
	}
	pl := &argPlan{t: t}
	var walk func(t reflect.Type, base uintptr)
	walk = func(t reflect.Type, base uintptr) {
		for i := range t.NumField() {
			f := t.Field(i)
			if kindOf(f.Type) == 0 { // a nested struct of parameters (paramKinds checked it)
				walk(f.Type, base+f.Offset)
				continue
			}
			pl.offs = append(pl.offs, base+f.Offset)
			pl.wide = append(pl.wide, f.Type.Size() == 8)
		}
	}
	walk(t, 0)
	return pl, nil
}

// args flattens *p into launch arguments: a 4-byte parameter's bits in the
// low half (as the driver reads a 32-bit parameter), Ptr's address whole.
func (f Func[P]) args(p *P) ([]arg, error) {
	t := reflect.TypeFor[P]()
	pl := f.fn.plan.Load()
	if pl == nil || pl.t != t {
		var err error
		if pl, err = planFor(t); err != nil {
			return nil, err
		}
		f.fn.plan.Store(pl)
	}
	args := make([]arg, len(pl.offs))
	base := unsafe.Pointer(p)
	for i, off := range pl.offs {
		if q := unsafe.Add(base, off); pl.wide[i] {
			args[i] = arg{*(*uint64)(q)}
		} else {
			args[i] = arg{uint64(*(*uint32)(q))}
		}
	}
	return args, nil
}
