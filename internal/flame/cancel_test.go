package flame

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"
)

// manyFlames is a document of n small flames, as a 57 MB file of 100,000
// flames is, scaled down.
func manyFlames(n int) []byte {
	var b bytes.Buffer
	b.WriteString("<flames>\n")
	for i := range n {
		fmt.Fprintf(&b, `<flame name="f%d" size="64 48" quality="10">`+
			`<xform weight="0.5" color="0" linear="1" coefs="0.5 0 0 0.5 0 0"/>`+
			`<xform weight="0.5" color="1" spherical="1" coefs="0.5 0 0 0.5 0.5 0"/>`+
			`<color index="0" rgb="255 0 0"/><color index="255" rgb="0 0 255"/></flame>`+"\n", i)
	}
	b.WriteString("</flames>\n")
	return b.Bytes()
}

// cancelAfter runs f with a context cancelled after delay and returns how
// long f took to return after the cancel, failing unless it returned the
// context's error. A run that finished before the cancel is a test that
// checked nothing: it fails too.
func cancelAfter(t *testing.T, delay time.Duration, f func(ctx context.Context) error) time.Duration {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled time.Time
	timer := time.AfterFunc(delay, func() { cancelled = time.Now(); cancel() })
	defer timer.Stop()
	err := f(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("returned %v, want context.Canceled (did the work finish before %v? make it larger)", err, delay)
	}
	return time.Since(cancelled)
}

// TestParseCancel: parsing a document of many flames stops within a
// second of the context ending (it took 3.7-6.8 s for 100,000 flames).
func TestParseCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 40,000-flame document")
	}
	doc := manyFlames(40000)
	late := cancelAfter(t, 200*time.Millisecond, func(ctx context.Context) error {
		_, _, err := Parse(bytes.NewReader(doc), "many.flam3", ParseOptions{Context: ctx})
		return err
	})
	if late > time.Second {
		t.Errorf("Parse returned %v after the cancel, want under 1 s", late)
	}
	late = cancelAfter(t, 200*time.Millisecond, func(ctx context.Context) error {
		_, _, err := ParseAnimGenomes(doc, "many.flam3", ParseOptions{Context: ctx})
		return err
	})
	if late > time.Second {
		t.Errorf("ParseAnimGenomes returned %v after the cancel, want under 1 s", late)
	}
}

// TestSequenceCancel: a long loop stops within a second of the context
// ending, while keyframes stream to the writer (65,536 of them took
// 9-11 s to stop).
func TestSequenceCancel(t *testing.T) {
	ks, _, err := ParseAnimGenomes(manyFlames(2), "two.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	emitted := 0
	late := cancelAfter(t, 200*time.Millisecond, func(ctx context.Context) error {
		return WriteAnimationEach(io.Discard, func(emit func(*AnimGenome) error) error {
			return SequenceEach(ctx, ks, SequenceOptions{LoopFrames: 1 << 20, EdgeFrames: 1 << 20}, func(k *AnimGenome) error {
				emitted++
				return emit(k)
			})
		})
	})
	if late > time.Second || emitted == 0 {
		t.Errorf("SequenceEach returned %v after the cancel (%d keyframes), want under 1 s", late, emitted)
	}
}

// TestSequenceEachMatchesSequence: streaming writes the same file as
// writing the held keyframes.
func TestSequenceEachMatchesSequence(t *testing.T) {
	ks, _, err := ParseAnimGenomes(manyFlames(3), "three.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := SequenceOptions{LoopFrames: 3, EdgeFrames: 4, Stagger: 0.5}
	keys, err := Sequence(ks, o)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(keys)) != SequenceLen(len(ks), o) {
		t.Errorf("%d keyframes, SequenceLen says %d", len(keys), SequenceLen(len(ks), o))
	}
	var held, streamed bytes.Buffer
	if err := WriteAnimation(&held, keys); err != nil {
		t.Fatal(err)
	}
	if err := WriteAnimationEach(&streamed, func(emit func(*AnimGenome) error) error {
		return SequenceEach(context.Background(), ks, o, emit)
	}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(held.Bytes(), streamed.Bytes()) || held.Len() == 0 {
		t.Errorf("streamed %d bytes, held keyframes write %d, not the same", streamed.Len(), held.Len())
	}
}
