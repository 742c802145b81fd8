//go:build cuda

package gpu

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Work on two streams runs in order within each stream: a buffer zeroed,
// filled by a kernel and read back on its own stream holds the kernel's
// values once the stream's event is waited for, whatever the other stream
// does to its own buffer meanwhile; and the default stream's Read, queued
// after both, sees both (streams are blocking).
func TestStreamsOrderTheirWork(t *testing.T) {
	d := device(t)
	f, err := selftestHash.Load(d)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 22
	var streams [2]*Stream
	var bufs [2]*Buffer[uint64]
	h, err := d.AllocPinned(2 * n * 8)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Free()
	for i := range streams {
		if streams[i], err = d.NewStream(); err != nil {
			t.Fatal(err)
		}
		defer streams[i].Free()
		if bufs[i], err = Alloc[uint64](d, n); err != nil {
			t.Fatal(err)
		}
		defer bufs[i].Free()
	}
	var events [2]*Event
	for i, s := range streams {
		for rep := 0; rep < 3; rep++ { // zero, fill, zero, fill...: only the order makes the last fill stick
			if err := bufs[i].ZeroOn(s); err != nil {
				t.Fatal(err)
			}
			if err := f.LaunchOn(s, Dim(n/256), Dim(256), 0, hashArgs{uint64(i + 1), bufs[i].Ptr(), n}); err != nil {
				t.Fatal(err)
			}
		}
		if err := bufs[i].ReadToPinned(s, h, i*n*8, n); err != nil {
			t.Fatal(err)
		}
		if events[i], err = d.RecordEventOn(s); err != nil {
			t.Fatal(err)
		}
	}
	for i := range streams {
		if err := events[i].Wait(); err != nil {
			t.Fatal(err)
		}
		got := PinnedView[uint64](h, i*n*8, n)
		for _, j := range []int{0, 1, n / 2, n - 1} {
			if want := rng.Hash64(uint64(i+1), uint64(j)); got[j] != want {
				t.Fatalf("stream %d value %d: %#x, want %#x", i, j, got[j], want)
			}
		}
	}
	// Queued on stream 0, read on the default stream without waiting.
	if err := bufs[0].ZeroOn(streams[0]); err != nil {
		t.Fatal(err)
	}
	var last [1]uint64
	if err := bufs[0].ReadAt(last[:], n-1); err != nil {
		t.Fatal(err)
	}
	if last[0] != 0 {
		t.Fatalf("the default stream read %#x before the stream's zeroing", last[0])
	}
	tm, err := d.StartTimerOn(streams[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := f.LaunchOn(streams[1], Dim(n/256), Dim(256), 0, hashArgs{9, bufs[1].Ptr(), n}); err != nil {
		t.Fatal(err)
	}
	if dt, err := tm.Stop(); err != nil || dt <= 0 {
		t.Fatalf("timer on a stream: %v, %v", dt, err)
	}
	if err := streams[0].Free(); err != nil {
		t.Fatal(err)
	}
	if err := streams[0].Free(); err != nil {
		t.Fatalf("second Free: %v", err)
	}
}
