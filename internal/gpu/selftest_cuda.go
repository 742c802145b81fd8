//go:build cuda

package gpu

import (
	"fmt"
	"math"
)

// SelfTest launches a kernel with one argument of every kind and checks what
// arrived, proving the module loads and the launch path works on this device.
func (d *Device) SelfTest() error {
	f, err := selftestArgs.Load(d)
	if err != nil {
		return err
	}
	out, err := Alloc[uint64](d, 5)
	if err != nil {
		return err
	}
	defer out.Free()
	var (
		a  = int32(-123456789)
		b  = int64(-1234567890123456789)
		c  = float32(3.25)
		dv = math.Pi
		e  = uint32(0xdeadbeef)
	)
	if err := f.Launch(Dim(1), Dim(32), 0, selftestParams{a, b, c, dv, e, out.Ptr()}); err != nil {
		return err
	}
	got, err := out.Download()
	if err != nil {
		return err
	}
	want := []uint64{uint64(int64(a)), uint64(b), uint64(math.Float32bits(c)), math.Float64bits(dv), uint64(e)}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("gpu: self-test: argument %d arrived as %#x, sent %#x", i, got[i], want[i])
		}
	}
	return nil
}
