package rules

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// A 1024x1024 Life board (2^20 indices, past the narrow kernels' 2^19)
// compiles and runs on the CPU, matching the plain loop; the GPU backend
// takes it, on its wide kernels, as it takes a rule over 2^31 indices.
func TestRangeBeyondGPU(t *testing.T) {
	const w, h, gens = 1024, 1024, 2
	p := compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"})
	if err := GPUSupports(p); err != nil || !ptx.NeedsWide(p) {
		t.Fatalf("GPUSupports: %v, wide %v", err, ptx.NeedsWide(p))
	}
	if q := compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "512"}); GPUSupports(q) != nil || ptx.NeedsWide(q) {
		t.Fatalf("1024x512: GPUSupports %v, wide %v", GPUSupports(q), ptx.NeedsWide(q))
	}
	if q := compileSrc(t, "state { int a }\nrule r over i in 0..2147483648 { a = 1 }"); GPUSupports(q) != nil || !ptx.NeedsWide(q) {
		t.Fatalf("2^31 indices: GPUSupports %v, wide %v", GPUSupports(q), ptx.NeedsWide(q))
	}
	st := Generate(p, 1, 3)
	cells := make([]byte, w*h)
	for k, v := range st.Data {
		cells[k] = byte(v)
	}
	want := lifeLoop(cells, make([]byte, w*h), w, h, gens)
	runCPU(t, p, st, Options{Steps: gens})
	for k, v := range st.Data {
		if byte(v) != want[k] {
			t.Fatalf("cell %d: %d, want %d", k, v, want[k])
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"state { int a }\nrule r over i in -1..2147483647 + 1 { a = 1 }", "at most 2147483648 indices"},
		{"state { int a }\nrule r over i in 0..2147483647 + 2 { a = 1 }", "at most 2147483648 indices"},
		{"state { int a }\nrule r over i in -2147483647 - 2..-2147483647 { a = 1 }", "at most 2147483648 indices"},
	} {
		if _, err := Compile("big.rules", []byte(tc.src), nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v", tc.src, err)
		}
	}
	if _, err := Compile("big.rules", []byte("state { int a }\nrule r over i in 0..2147483647 { a = 1 }"), nil); err != nil {
		t.Errorf("a range of 2^31-1 indices: %v", err)
	}
}

// With NoFiredPerStep, what a run allocates does not grow with --steps.
func TestNoFiredPerStepIsConstantMemory(t *testing.T) {
	p := compileConfig(t, "sandpile.rules", map[string]string{"W": "5", "H": "5"})
	for _, path := range []CPU{{Path: PathBatch}, {Path: PathInterpret}} {
		st := Generate(p, 3, 1)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := path.Run(context.Background(), p, st, Options{Steps: 1 << 24, UntilFixpoint: true, NoFiredPerStep: true})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
			t.Errorf("path %d: %d bytes allocated for 2^24 steps", path.Path, grew)
		}
		if !res.FixpointReached || res.Fired != nil || res.FiredTotal[0] == 0 {
			t.Errorf("path %d: result %+v", path.Path, res)
		}
		ref := Generate(p, 3, 1)
		want := runCPU(t, p, ref, Options{Steps: 1000, UntilFixpoint: true})
		total := int64(0)
		for _, f := range want.Fired {
			total += f[0]
		}
		if total != res.FiredTotal[0] || want.Steps != res.Steps {
			t.Errorf("path %d: total %d in %d steps, want %d in %d", path.Path, res.FiredTotal[0], res.Steps, total, want.Steps)
		}
	}
}

// Cancelling ends a run inside one application of a rule over a huge
// range, on every CPU path.
func TestCancelInsideHugeRange(t *testing.T) {
	p := compileSrc(t, "state { int a }\nrule r over i in 0..2147483647 when i >= 0 { a += 1 }")
	for _, path := range []CPU{{Path: PathBatch}, {Path: PathInterpret}} {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		start := time.Now()
		_, err := path.Run(ctx, p, NewStates(p, 1), Options{Steps: 1})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
			t.Errorf("path %d: %v after %v", path.Path, err, time.Since(start))
		}
	}
}

// TestProgressPerStep: the CPU reports progress in steps of states, so a
// single board's long run moves the bar; it only grows and ends at the
// total, also when states stop early at their fixed point.
func TestProgressPerStep(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		defs       map[string]string
		states     int
		o          Options
	}{
		// Rule 30 never settles: every step is one of the bar's.
		{"one board", "eca.rules", map[string]string{"RULE": "30", "N": "64"}, 1, Options{Steps: 2000}},
		{"many states", "life.rules", map[string]string{"W": "12", "H": "10"}, 300, Options{Steps: 30}},
		{"fixed points", "life.rules", map[string]string{"W": "12", "H": "10"}, 40, Options{Steps: 500, UntilFixpoint: true}},
	} {
		p := compileConfig(t, tc.file, tc.defs)
		st := Generate(p, tc.states, 3)
		var calls int
		var last, total int64
		o := tc.o
		o.Progress = func(done, tot int64) {
			if done <= last || tot != int64(tc.states)*int64(o.Steps) {
				t.Errorf("%s: progress %d of %d after %d", tc.name, done, tot, last)
			}
			calls++
			last, total = done, tot
		}
		if _, err := (CPU{}).Run(context.Background(), p, st, o); err != nil && !tc.o.UntilFixpoint {
			t.Fatal(err)
		}
		if last != total || calls < 50 || calls > 1100 {
			t.Errorf("%s: %d calls, ended at %d of %d", tc.name, calls, last, total)
		}
	}
}

// A field of more than 2^24 cells (a 4097x4097 board) compiles and runs on
// the CPU, matching the plain loop, and the GPU backend takes it (states of
// up to 2^31-32 words, tiled); a state of 2^31-1 words it says it does
// not. A field may hold up to 2^31-1 cells (int constants are int32), and
// two of them that together pass 2^31 words are refused.
func TestFieldBeyondGPU(t *testing.T) {
	const w, h = 4097, 4097
	p := compileConfig(t, "life.rules", map[string]string{"W": "4097", "H": "4097"})
	if err := GPUSupports(p); err != nil {
		t.Fatalf("GPUSupports: %v", err)
	}
	huge, err := Compile("big.rules", []byte("state { int a[2147483647] }\nrule r over i in 0..1 { a[i] = 1 }"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := GPUSupports(huge); !errors.Is(err, ErrNotOnGPU) || !strings.Contains(err.Error(), "2147483647 words") {
		t.Fatalf("GPUSupports of 2^31-1 words: %v", err)
	}
	st := Generate(p, 1, 3)
	cells := make([]byte, w*h)
	for k, v := range st.Data {
		cells[k] = byte(v)
	}
	want := lifeLoop(cells, make([]byte, w*h), w, h, 1)
	runCPU(t, p, st, Options{Steps: 1})
	for k, v := range st.Data {
		if byte(v) != want[k] {
			t.Fatalf("cell %d: %d, want %d", k, v, want[k])
		}
	}
	if q := compileConfig(t, "life.rules", map[string]string{"W": "46340", "H": "46340"}); q.Words != 46340*46340 {
		t.Fatalf("46340x46340: %d words", q.Words)
	}
	if _, err := Compile("big.rules", []byte("state { int a[2147483647] }\nrule r over i in 0..1 { a[i] = 1 }"), nil); err != nil {
		t.Errorf("a field of 2^31-1 cells: %v", err)
	}
	if _, err := Compile("big.rules", []byte("state {\n int a[2000000000]\n int b[2000000000]\n}\nrule r over i in 0..1 { a[i] = 1 }"), nil); err == nil ||
		!strings.Contains(err.Error(), "big.rules:3:6: the state exceeds 2147483648 words") {
		t.Errorf("two fields of 2e9 cells: %v", err)
	}
}
