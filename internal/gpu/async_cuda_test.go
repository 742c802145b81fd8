//go:build cuda

package gpu

import "testing"

// A round trip through queued copies returns what went in, once the event
// after them has been waited for; out-of-range copies are refused.
func TestQueuedCopiesRoundTrip(t *testing.T) {
	d := device(t)
	const n = 3<<20 + 17 // values: not a multiple of anything in particular
	h, err := d.AllocPinned(2*n*4 + 8)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Free()
	in := PinnedView[uint32](h, 0, n)
	for i := range in {
		in[i] = uint32(i)*2654435761 + 3
	}
	b, err := Alloc[uint32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	if err := b.WriteFromPinned(nil, h, 0, n); err != nil {
		t.Fatal(err)
	}
	if err := b.ReadToPinned(nil, h, n*4+8, n); err != nil {
		t.Fatal(err)
	}
	ev, err := d.RecordEvent()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatalf("second Wait: %v", err)
	}
	out := PinnedView[uint32](h, n*4+8, n)
	for i := range out {
		if out[i] != in[i] {
			t.Fatalf("value %d came back %d, want %d", i, out[i], in[i])
		}
	}
	if err := b.WriteFromPinned(nil, h, h.n-4, 2); err == nil {
		t.Error("a write from past the pinned memory was queued")
	}
	if err := b.ReadToPinned(nil, h, 0, n+1); err == nil {
		t.Error("a read past the buffer was queued")
	}
	defer func() {
		if recover() == nil {
			t.Error("a misaligned view did not panic")
		}
	}()
	PinnedView[uint32](h, 2, 1)
}

// End fixes a timer's end where it is called: work queued after it is not
// timed, and Stop still returns the time.
func TestTimerEnd(t *testing.T) {
	d := device(t)
	tm, err := d.StartTimer()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Alloc[uint32](d, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	if err := b.Zero(); err != nil {
		t.Fatal(err)
	}
	if err := tm.End(); err != nil {
		t.Fatal(err)
	}
	if err := b.Zero(); err != nil {
		t.Fatal(err)
	}
	dt, err := tm.Stop()
	if err != nil || dt < 0 {
		t.Fatalf("Stop after End: %v, %v", dt, err)
	}
}
