//go:build cuda

package gpu

import (
	"errors"

	"github.com/procgen-dev/procgen/internal/rng"
	"os"
	"sync"
	"testing"
)

// One device for the whole test binary: opening a context costs ~100 ms.
var testDev struct {
	once sync.Once
	dev  *Device
	err  error
}

// device returns the shared test device or skips when none opens, which is
// what happens on CI (the CUDA build, no driver): that path is tested too.
func device(t testing.TB) *Device {
	t.Helper()
	testDev.once.Do(func() { testDev.dev, testDev.err = Open(0) })
	if testDev.err != nil {
		if os.Getenv("PROCGEN_REQUIRE_GPU") != "" {
			t.Fatalf("no device: %v", testDev.err)
		}
		t.Skipf("no CUDA device: %v", testDev.err)
	}
	return testDev.dev
}

func TestProbeExplains(t *testing.T) {
	rep := Probe()
	if !rep.BuiltWithCUDA {
		t.Fatal("cuda build reports BuiltWithCUDA=false")
	}
	if len(rep.EmbeddedArchs) == 0 {
		t.Fatal("no embedded architectures: kernels/archs.txt missing or empty")
	}
	if !rep.Available && rep.Reason == "" {
		t.Fatal("CUDA unavailable without a reason")
	}
	if rep.Available && len(rep.Devices) == 0 {
		t.Fatal("available without devices")
	}
	t.Logf("probe: available=%v reason=%q driver=%d devices=%+v archs=%v",
		rep.Available, rep.Reason, rep.DriverVersion, rep.Devices, rep.EmbeddedArchs)
}

func TestOpenFailsWithUnavailable(t *testing.T) {
	if _, err := Open(1 << 20); err == nil || !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Open(huge ordinal) = %v, want an error wrapping ErrUnavailable", err)
	}
}

func TestSelfTest(t *testing.T) {
	d := device(t)
	if err := d.SelfTest(); err != nil {
		t.Fatal(err)
	}
	d.SetSync(true)
	defer d.SetSync(false)
	if err := d.SelfTest(); err != nil {
		t.Fatalf("with --sync: %v", err)
	}
}

func TestBufferRoundTrip(t *testing.T) {
	d := device(t)
	src := []float64{1.5, -2, 3e300, 0}
	b, err := Upload(d, src)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	got, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i := range src {
		if got[i] != src[i] {
			t.Fatalf("value %d: got %v, want %v", i, got[i], src[i])
		}
	}
	if err := b.WriteAt([]float64{7}, 2); err != nil {
		t.Fatal(err)
	}
	one := make([]float64, 2)
	if err := b.ReadAt(one, 1); err != nil || one[0] != -2 || one[1] != 7 {
		t.Fatalf("ReadAt = %v, %v", one, err)
	}
	if err := b.WriteAt([]float64{1, 2}, 3); err == nil {
		t.Fatal("write past the end accepted")
	}
	if err := b.ReadAt(one, -1); err == nil {
		t.Fatal("negative offset accepted")
	}
	c, err := Alloc[float64](d, 6)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	if err := c.Zero(); err != nil {
		t.Fatal(err)
	}
	if err := c.CopyFrom(b); err != nil {
		t.Fatal(err)
	}
	all, _ := c.Download()
	if all[2] != 7 || all[4] != 0 || all[5] != 0 {
		t.Fatalf("after CopyFrom: %v", all)
	}
	if err := b.CopyFrom(c); err == nil {
		t.Fatal("copy of a larger buffer accepted")
	}
	empty, err := Alloc[int32](d, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := empty.Download(); err != nil || len(got) != 0 {
		t.Fatalf("empty buffer: %v, %v", got, err)
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Fatalf("second Free: %v", err)
	}
}

func TestCounterHashMatchesCPU(t *testing.T) {
	d := device(t)
	f, err := selftestHash.Load(d)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	out, err := Alloc[uint64](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	seed := uint64(0x1234_5678_9abc_def0)
	if err := f.Launch(Dim((n+255)/256), Dim(256), 0, hashArgs{seed, out.Ptr(), n}); err != nil {
		t.Fatal(err)
	}
	got, err := out.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if want := rng.Hash64(seed, uint64(i)); g != want {
			t.Fatalf("hash %d: GPU %#x, CPU %#x", i, g, want)
		}
	}
}

func TestUnknownKernel(t *testing.T) {
	d := device(t)
	if _, err := d.function("prims", "no_such_kernel"); err == nil {
		t.Fatal("unknown kernel found")
	}
	if _, err := d.function("no_such_family", "x"); err == nil {
		t.Fatal("unknown family found")
	}
}

// TestResidentBlocks: one wave is a whole number of blocks per SM, at least
// one, and fewer blocks fit when each asks for more shared memory.
func TestResidentBlocks(t *testing.T) {
	d := device(t)
	f, err := selftestHash.Load(d)
	if err != nil {
		t.Fatal(err)
	}
	sms := d.Info().SMs
	small, err := f.ResidentBlocks(256, 0)
	if err != nil {
		t.Fatal(err)
	}
	big, err := f.ResidentBlocks(256, 40<<10)
	if err != nil {
		t.Fatal(err)
	}
	if small < sms || small%sms != 0 || big < sms || big%sms != 0 || big > small {
		t.Fatalf("%d SMs: %d blocks resident without shared memory, %d with 40 KiB each", sms, small, big)
	}
}
