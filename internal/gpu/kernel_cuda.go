//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"reflect"
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
	args, err := argsOf(p)
	if err != nil {
		return fmt.Errorf("gpu: launch %s: %w", f.fn.name, err)
	}
	return f.fn.launchOn(s, grid, block, sharedBytes, args...)
}

// Queue adds the launch to batch b (Batch.Launch).
func (f Func[P]) Queue(b *Batch, grid, block Dim3, sharedBytes int, p P) {
	args, err := argsOf(p)
	if err != nil {
		err = fmt.Errorf("gpu: launch %s: %w", f.fn.name, err)
		b.ops = append(b.ops, func() error { return err })
		return
	}
	b.launch(f.fn, grid, block, sharedBytes, args...)
}

// argsOf flattens a parameter struct into launch arguments, field by
// field, a struct field's own fields in its place.
func argsOf(p any) ([]arg, error) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("parameters %v: not a struct", v.Type())
	}
	return appendArgs(nil, v)
}

func appendArgs(args []arg, v reflect.Value) ([]arg, error) {
	for i := range v.NumField() {
		f := v.Field(i)
		switch kindOf(f.Type()) {
		case PtrParam:
			args = append(args, arg{f.Field(0).Uint()})
		case S32Param:
			args = append(args, arg{uint64(uint32(int32(f.Int())))})
		case S64Param:
			args = append(args, arg{uint64(f.Int())})
		case U32Param, U64Param:
			args = append(args, arg{f.Uint()})
		case F32Param:
			args = append(args, arg{uint64(math.Float32bits(float32(f.Float())))})
		case F64Param:
			args = append(args, arg{math.Float64bits(f.Float())})
		default:
			if f.Kind() != reflect.Struct {
				return nil, fmt.Errorf("parameters %v: field %d has type %v", v.Type(), i, f.Type())
			}
			var err error
			if args, err = appendArgs(args, f); err != nil {
				return nil, err
			}
		}
	}
	return args, nil
}
