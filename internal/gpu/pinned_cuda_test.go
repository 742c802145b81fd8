//go:build cuda

package gpu

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"
)

// stagedSource is n uint32 values over several staging chunks and a tail,
// on the host and uploaded (freed when the test ends).
func stagedSource(t *testing.T) ([]uint32, *Buffer[uint32]) {
	t.Helper()
	d := device(t)
	const n = (pinnedMin+3*pinnedChunk)/4 + 12345
	src := make([]uint32, n)
	for i := range src {
		src[i] = uint32(i)*2654435761 + 7
	}
	b, err := Upload(d, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return src, b
}

// ReadLarge returns exactly what ReadAt returns, at sizes below, at and
// above the staging threshold, not multiples of the chunk, at offsets.
func TestReadLargeMatchesReadAt(t *testing.T) {
	src, b := stagedSource(t)
	n := len(src)
	for _, c := range []struct{ off, len int }{
		{0, 1000}, {0, pinnedMin / 4}, {0, pinnedMin/4 - 1}, {3, n - 3}, {0, n}, {pinnedChunk/4 + 1, pinnedMin/4 + 5},
	} {
		got := make([]uint32, c.len)
		if err := b.ReadLarge(got, c.off); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		for i, v := range got {
			if v != src[c.off+i] {
				t.Fatalf("%+v: value %d is %d, want %d", c, i, v, src[c.off+i])
			}
		}
	}
	if err := b.ReadLarge(make([]uint32, 2), n-1); err == nil {
		t.Fatal("a read past the end succeeded")
	}
	type pair struct{ A, B uint32 }
	ps := make([]pair, n/2)
	if err := ReadStructsLarge(b, ps); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if p.A != src[2*i] || p.B != src[2*i+1] {
			t.Fatalf("struct %d: %+v", i, p)
		}
	}
}

// WriteTo streams exactly the buffer's bytes (below and above the staging
// threshold, at offsets, not multiples of the chunk), stops at the
// writer's first error, and stops when the context is done.
func TestWriteToStreamsBytes(t *testing.T) {
	src, b := stagedSource(t)
	n := len(src)
	for _, c := range []struct{ off, len int }{{0, 1000}, {0, n}, {5, n - 5}, {0, 0}} {
		var got bytes.Buffer
		if err := b.WriteTo(context.Background(), &got, c.off, c.len); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if got.Len() != 4*c.len {
			t.Fatalf("%+v: %d bytes", c, got.Len())
		}
		for i := range c.len {
			if v := binary.LittleEndian.Uint32(got.Bytes()[4*i:]); v != src[c.off+i] {
				t.Fatalf("%+v: value %d is %d, want %d", c, i, v, src[c.off+i])
			}
		}
	}
	if err := b.WriteTo(context.Background(), io.Discard, n-1, 2); err == nil {
		t.Fatal("a write past the end succeeded")
	}
	bad := errors.New("disk full")
	w := &failAfter{n: pinnedChunk + 1, err: bad}
	if err := b.WriteTo(context.Background(), w, 0, n); !errors.Is(err, bad) || w.calls > 2 {
		t.Fatalf("writer failing at its second piece: %v after %d writes", err, w.calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.WriteTo(ctx, io.Discard, 0, n); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// failAfter takes n bytes, then fails every write with err.
type failAfter struct {
	n, calls int
	err      error
}

func (f *failAfter) Write(p []byte) (int, error) {
	f.calls++
	if len(p) > f.n {
		return 0, f.err
	}
	f.n -= len(p)
	return len(p), nil
}

func TestPinned(t *testing.T) {
	d := device(t)
	if _, err := d.AllocPinned(0); err == nil {
		t.Fatal("a pinned buffer of 0 bytes")
	}
	h, err := d.AllocPinned(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	b := h.Bytes()
	for i := range b {
		b[i] = byte(i)
	}
	if len(b) != 1<<20 || b[12345] != byte(12345%256) {
		t.Fatal("pinned memory does not hold what was written")
	}
	if err := h.Free(); err != nil {
		t.Fatal(err)
	}
	if err := h.Free(); err != nil {
		t.Fatalf("second free: %v", err)
	}
}

// BenchmarkReadLarge: GB/s of a download into fresh Go memory (as a caller
// allocating its result sees it), pageable ReadAt against ReadLarge.
func BenchmarkReadLarge(b *testing.B) {
	d := device(b)
	for _, mb := range []int{64, 512, 2048} {
		n := mb << 20
		buf, err := Alloc[byte](d, n)
		if err != nil {
			b.Skip(err)
		}
		if err := buf.Zero(); err != nil {
			b.Fatal(err)
		}
		for _, how := range []string{"pageable", "pinned"} {
			b.Run(fmt.Sprintf("%dMB/%s", mb, how), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					dst := make([]byte, n)
					var err error
					if how == "pinned" {
						err = buf.ReadLarge(dst, 0)
					} else {
						err = buf.ReadAt(dst, 0)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		buf.Free()
	}
}

// Preload puts a family's module in the context (a later lookup finds it
// there), is harmless twice, and fails for a family with no kernels.
func TestPreload(t *testing.T) {
	d := device(t)
	if err := d.Preload("selftest"); err != nil {
		t.Fatal(err)
	}
	d.modMu.Lock()
	_, ok := d.modules["selftest"]
	d.modMu.Unlock()
	if !ok {
		t.Fatal("selftest not loaded")
	}
	if err := d.Preload("selftest"); err != nil {
		t.Fatal(err)
	}
	if _, err := selftestHash.Load(d); err != nil {
		t.Fatal(err)
	}
	if err := d.Preload("no-such-family"); err == nil {
		t.Fatal("a family with no kernels loaded")
	}
}
