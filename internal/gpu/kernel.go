package gpu

import (
	"fmt"
	"reflect"
)

// Ptr is a device pointer passed to a kernel. Only this package makes one
// (Buffer.Ptr, Buffer.PtrAt); the zero Ptr is a null pointer.
type Ptr struct {
	addr uint64 //lint:ignore U1000 set and read in the cuda build (kernel_cuda.go)
}

// ParamKind is the C type class of one kernel parameter, as the kernel's
// declaration in cuda/*.cu spells it.
type ParamKind uint8

// The parameter kinds a kernel may take: anything wider goes through a buffer.
const (
	PtrParam ParamKind = iota + 1 // any T *
	S32Param                      // int, int32_t
	U32Param                      // unsigned, uint32_t
	S64Param                      // long long, int64_t
	U64Param                      // unsigned long long, uint64_t, size_t
	F32Param                      // float
	F64Param                      // double
)

func (k ParamKind) String() string {
	switch k {
	case PtrParam:
		return "pointer"
	case S32Param:
		return "s32"
	case U32Param:
		return "u32"
	case S64Param:
		return "s64"
	case U64Param:
		return "u64"
	case F32Param:
		return "f32"
	case F64Param:
		return "f64"
	}
	return fmt.Sprintf("ParamKind(%d)", uint8(k))
}

// Kernel declares a kernel and its parameter list once on the Go side: P is
// a struct whose fields, in order, are the kernel's parameters, each a Ptr,
// int32, uint32, int64, uint64, float32 or float64, or a struct of such
// fields standing for a run of parameters several kernels share. Launch sites fill a P
// (an unkeyed literal of a package-local P checks count and types at compile
// time), and kerneltest checks P against the kernel's C declaration.
type Kernel[P any] struct {
	Family string // the fatbin: cuda/<Family>.cu
	Name   string // the extern "C" kernel name
}

// KernelDecl is what kerneltest needs of any Kernel.
type KernelDecl interface {
	Ident() (family, name string)
	Params() ([]ParamKind, error)
}

// Ident is the kernel's family and name.
func (k Kernel[P]) Ident() (family, name string) { return k.Family, k.Name }

// Params is P's parameter list.
func (k Kernel[P]) Params() ([]ParamKind, error) {
	return paramKinds(reflect.TypeFor[P]())
}

var ptrType = reflect.TypeFor[Ptr]()

func paramKinds(t reflect.Type) ([]ParamKind, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("gpu: kernel parameters %v: not a struct", t)
	}
	var kinds []ParamKind
	for i := range t.NumField() {
		f := t.Field(i)
		k := kindOf(f.Type)
		switch {
		case k != 0:
			kinds = append(kinds, k)
		case f.Type.Kind() == reflect.Struct:
			sub, err := paramKinds(f.Type)
			if err != nil {
				return nil, err
			}
			kinds = append(kinds, sub...)
		default:
			return nil, fmt.Errorf("gpu: kernel parameters %v: field %s has type %v, not a Ptr or a 32/64-bit number",
				t, f.Name, f.Type)
		}
	}
	return kinds, nil
}

func kindOf(t reflect.Type) ParamKind {
	if t == ptrType {
		return PtrParam
	}
	switch t.Kind() {
	case reflect.Int32:
		return S32Param
	case reflect.Uint32:
		return U32Param
	case reflect.Int64:
		return S64Param
	case reflect.Uint64:
		return U64Param
	case reflect.Float32:
		return F32Param
	case reflect.Float64:
		return F64Param
	}
	return 0
}
