package pga

import (
	"bytes"
	"context"
	"testing"
)

// The encoders tell their progress: terminals done, rising to all of them.
func TestEncodeProgress(t *testing.T) {
	g, axioms, opt := scenes["CityOverview"].load(t, 12, 10)
	ts, err := g.Evaluate(axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []struct {
		name string
		run  func(p func(done, total int64)) error
	}{
		{"obj", func(p func(done, total int64)) error {
			return writeOBJ(context.Background(), &bytes.Buffer{}, g, ts, "x.mtl", p)
		}},
		{"glb", func(p func(done, total int64)) error {
			return writeGLB(context.Background(), &bytes.Buffer{}, g, ts, p)
		}},
	} {
		var last, calls int64
		err := enc.run(func(done, total int64) {
			if total != int64(len(ts)) || done < last || done > total {
				t.Fatalf("%s: progress %d of %d after %d", enc.name, done, total, last)
			}
			last = done
			calls++
		})
		if err != nil {
			t.Fatal(err)
		}
		if last != int64(len(ts)) || calls < 2 {
			t.Fatalf("%s: ended at %d of %d after %d calls", enc.name, last, len(ts), calls)
		}
	}
}
