package flame

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func loadGenome(t *testing.T, path string) *Genome {
	t.Helper()
	gs, _, err := ParseFile(path, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return gs[0]
}

// encodeParts renders shards 0..n-1 of g and returns their files.
func encodeParts(t *testing.T, g *Genome, o Options, n int) [][]byte {
	t.Helper()
	ctx := context.Background()
	var files [][]byte
	var samples int64
	for i := 0; i < n; i++ {
		a, st, err := CPU{Workers: 1 + i%3}.Accumulate(ctx, g, o, i, n)
		if err != nil {
			t.Fatal(err)
		}
		if st.Samples != a.Info().Samples {
			t.Fatalf("shard %d: stats say %d samples, header %d", i, st.Samples, a.Info().Samples)
		}
		samples += st.Samples
		var b bytes.Buffer
		if err := a.Encode(ctx, &b); err != nil {
			t.Fatal(err)
		}
		files = append(files, b.Bytes())
	}
	return files
}

func mergeParts(ctx context.Context, files [][]byte) (*Accum, error) {
	var sum *Accum
	for i, f := range files {
		ar, err := OpenAccum(bytes.NewReader(f), "part"+string(rune('0'+i)))
		if err != nil {
			return nil, err
		}
		if sum == nil {
			if sum, err = NewAccumSum(ar.Info()); err != nil {
				return nil, err
			}
		}
		if err := sum.Add(ctx, ar); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

// The sum of n shards is the one-shot render's histogram, so the finished
// image equals the one-shot image exactly, for any n and worker counts,
// with hit counts from alpha and with a separate count array.
func TestAccumShardsEqualOneShot(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		path     string
		o        Options
		opacity  bool
		shards   []int
		earlyCut bool
	}{
		{name: "simple", path: "../../testdata/flame/simple.flam3", o: Options{Width: 64, Quality: 30, Seed: 3}, shards: []int{1, 2, 5}},
		{name: "heavy-opacity", path: "../../testdata/flame/heavy.flam3", o: Options{Width: 48, Quality: 25, Seed: 9, EarlyClip: true}, opacity: true, shards: []int{3}},
		// More shards than sub-batches: some shards hold no samples.
		{name: "tiny", path: "../../testdata/flame/simple.flam3", o: Options{Width: 16, Quality: 50, Seed: 1}, shards: []int{7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := loadGenome(t, tc.path)
			if tc.opacity {
				g.Xforms[0].Opacity = 0.5
			}
			want, st, err := CPU{Workers: 2}.Render(ctx, g, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range tc.shards {
				sum, err := mergeParts(ctx, encodeParts(t, g, tc.o, n))
				if err != nil {
					t.Fatal(err)
				}
				if tc.opacity == sum.Info().AlphaHits {
					t.Fatalf("alpha hits %v with opacity %v", sum.Info().AlphaHits, tc.opacity)
				}
				if sum.Info().Samples != st.Samples {
					t.Fatalf("%d shards hold %d samples, the one-shot render %d", n, sum.Info().Samples, st.Samples)
				}
				got, err := sum.Finish(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if got.Width != want.Width || got.Height != want.Height {
					t.Fatalf("size %dx%d, want %dx%d", got.Width, got.Height, want.Width, want.Height)
				}
				for i := range got.Pix {
					if got.Pix[i] != want.Pix[i] {
						t.Fatalf("%d shards: value %d is %v, one-shot %v", n, i, got.Pix[i], want.Pix[i])
					}
				}
			}
		})
	}
}

func TestShardSamples(t *testing.T) {
	for _, total := range []int64{1, 9999, 10000, 10001, 123456, 1000000} {
		for _, n := range []int64{1, 2, 3, 7, 13, 200} {
			sum := int64(0)
			for i := int64(0); i < n; i++ {
				sum += shardSamples(total, i, n)
			}
			if sum != total {
				t.Fatalf("total %d over %d shards: parts sum to %d", total, n, sum)
			}
		}
	}
}

func TestAccumFileErrors(t *testing.T) {
	ctx := context.Background()
	g := loadGenome(t, "../../testdata/flame/simple.flam3")
	o := Options{Width: 32, Quality: 20, Seed: 2}
	parts := encodeParts(t, g, o, 2)
	bad := func(name string, files [][]byte, want string) {
		t.Helper()
		sum, err := mergeParts(ctx, files)
		if err == nil {
			_, err = sum.Finish(ctx)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, want)
		}
	}
	mod := func(b []byte, f func([]byte)) []byte {
		c := bytes.Clone(b)
		f(c)
		return c
	}
	for _, cut := range []int{0, 5, 12, 20, 200, len(parts[1]) / 2, len(parts[1]) - 1} {
		bad("truncated", [][]byte{parts[0], parts[1][:cut]}, "truncated")
	}
	bad("version", [][]byte{mod(parts[0], func(b []byte) { b[8] = 2 }), parts[1]}, "format version 2")
	bad("magic", [][]byte{[]byte("<flame>not an accumulation</flame>")}, "not a procgen accumulation")
	bad("header bit", [][]byte{mod(parts[0], func(b []byte) { b[30] ^= 1 }), parts[1]}, "header checksum")
	bad("body bit", [][]byte{parts[0], mod(parts[1], func(b []byte) { b[len(b)-100] ^= 4 })}, "histogram checksum")
	bad("trailing", [][]byte{parts[0], append(bytes.Clone(parts[1]), 0)}, "data after the end")
	bad("missing", [][]byte{parts[0]}, "lacks shard 1 of 2")
	bad("twice", [][]byte{parts[0], parts[0]}, "given twice")
	other := encodeParts(t, g, Options{Width: 32, Quality: 20, Seed: 5}, 2)
	bad("other seed", [][]byte{parts[0], other[1]}, "seed 5")
	third := encodeParts(t, g, o, 3)
	bad("other count", [][]byte{parts[0], third[1]}, "one of 3 shards")
	_, err := mergeParts(ctx, [][]byte{parts[0][:3]})
	if !errors.Is(err, ErrAccum) {
		t.Errorf("truncated magic: %v does not wrap ErrAccum", err)
	}
}

func TestAccumCancel(t *testing.T) {
	g := loadGenome(t, "../../testdata/flame/simple.flam3")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := (CPU{}).Accumulate(ctx, g, Options{Width: 64, Quality: 50}, 0, 2); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled accumulate: %v", err)
	}
}

// BenchmarkAccumMerge measures reading and summing one part (bytes/s of
// .accum file), the cost a merge pays per part on top of the file system.
func BenchmarkAccumMerge(b *testing.B) {
	gs, _, err := ParseFile("../../testdata/flame/simple.flam3", ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	a, _, err := CPU{}.Accumulate(ctx, gs[0], Options{Width: 256, Quality: 1, Seed: 1}, 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	var file bytes.Buffer
	if err := a.Encode(ctx, &file); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(file.Len()))
	b.ResetTimer()
	for range b.N {
		ar, err := OpenAccum(bytes.NewReader(file.Bytes()), "bench")
		if err != nil {
			b.Fatal(err)
		}
		sum, err := NewAccumSum(ar.Info())
		if err != nil {
			b.Fatal(err)
		}
		if err := sum.Add(ctx, ar); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAccumRefusesMixedBackends: a part marked as the GPU's does not merge
// with the CPU's parts of the same render.
func TestAccumRefusesMixedBackends(t *testing.T) {
	g := loadGenome(t, "../../testdata/flame/simple.flam3")
	files := encodeParts(t, g, Options{Width: 32, Quality: 2, Seed: 3}, 2)
	ar, err := OpenAccum(bytes.NewReader(files[0]), "part0")
	if err != nil {
		t.Fatal(err)
	}
	gpuInfo := ar.Info()
	gpuInfo.Backend = "cuda"
	if msg := describeMismatch(ar.Info(), gpuInfo); !strings.Contains(msg, "rendered on cuda, the first part on the CPU") {
		t.Fatalf("mismatch message %q", msg)
	}
	if sameRender(ar.Info(), gpuInfo) {
		t.Fatal("a GPU part counts as the same render as a CPU part")
	}
}
