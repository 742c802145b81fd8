//go:build cuda

package gpu

import "testing"

// TestCopyPeer copies a buffer from every device to every device (the same
// device included) and checks the values arrive; with one GPU only the
// same-device path runs.
func TestCopyPeer(t *testing.T) {
	devs := []*Device{device(t)}
	for _, info := range Probe().Devices[1:] {
		d, err := Open(info.Ordinal)
		if err != nil {
			t.Fatalf("open device %d: %v", info.Ordinal, err)
		}
		defer d.Close()
		devs = append(devs, d)
	}
	want := make([]uint32, 1<<20+3)
	for i := range want {
		want[i] = uint32(i*2654435761) ^ 0x5bd1e995
	}
	for i, sd := range devs {
		src, err := Upload(sd, want)
		if err != nil {
			t.Fatal(err)
		}
		for j, dd := range devs {
			dst, err := Alloc[uint32](dd, len(want)+5)
			if err != nil {
				t.Fatal(err)
			}
			if err := dst.Zero(); err != nil {
				t.Fatal(err)
			}
			if err := dst.CopyPeer(src); err != nil {
				t.Fatalf("device %d -> %d: %v", i, j, err)
			}
			got := make([]uint32, len(want)+5)
			if err := dst.Read(got); err != nil {
				t.Fatal(err)
			}
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("device %d -> %d: value %d is %d, want %d", i, j, k, got[k], want[k])
				}
			}
			if got[len(want)] != 0 {
				t.Fatalf("device %d -> %d: copied past the source", i, j)
			}
			dst.Free()
		}
		small, err := Alloc[uint32](sd, 4)
		if err != nil {
			t.Fatal(err)
		}
		if small.CopyPeer(src) == nil {
			t.Fatal("a copy into a smaller buffer did not fail")
		}
		small.Free()
		src.Free()
	}
}
