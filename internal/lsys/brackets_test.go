package lsys

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// seqBrackets is the textbook serial stack algorithm.
func seqBrackets(syms []Symbol) ([]int32, error) {
	m := make([]int32, len(syms))
	var st []int32
	for i, s := range syms {
		m[i] = -1
		switch s {
		case '[':
			st = append(st, int32(i))
		case ']':
			if len(st) == 0 {
				return nil, &BracketError{Pos: i, Close: true}
			}
			j := st[len(st)-1]
			st = st[:len(st)-1]
			m[i], m[j] = j, int32(i)
		}
	}
	if len(st) > 0 {
		return nil, &BracketError{Pos: int(st[0])}
	}
	return m, nil
}

// randomBracketed is a balanced string of n modules with branches nested up
// to about depth levels deep, so chunk boundaries fall at every depth.
func randomBracketed(r *rand.Rand, n, depth int) []Symbol {
	s := make([]Symbol, 0, n)
	open := 0
	for len(s)+open < n {
		switch x := r.IntN(10); {
		case x < 2 && open < depth && len(s)+open+2 <= n:
			s = append(s, '[')
			open++
		case x < 4 && open > 0:
			s = append(s, ']')
			open--
		default:
			s = append(s, "FAB+-"[r.IntN(5)])
		}
	}
	for ; open > 0; open-- {
		s = append(s, ']')
	}
	return s
}

func TestBrackets(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, n := range []int{0, 1, 2, 100, chunkSize - 1, chunkSize, chunkSize + 1, 5*chunkSize + 17, 1_000_003} {
		for _, depth := range []int{1, 8, 1000, 1 << 20} {
			s := randomBracketed(r, n, depth)
			want, _ := seqBrackets(s)
			for _, w := range []int{1, 3, 8} {
				got, err := Brackets(s, w)
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("n=%d depth=%d workers=%d: err %v, matches differ", n, depth, w, err)
				}
				if got := depthBuckets(s, w); !slices.Equal(got, want) {
					t.Fatalf("n=%d depth=%d workers=%d: depthBuckets differs", n, depth, w)
				}
			}
		}
	}
	// Deep nesting across many chunks: [[[...]]].
	deep := make([]Symbol, 6*chunkSize)
	for i := range deep {
		deep[i] = '['
		if i >= len(deep)/2 {
			deep[i] = ']'
		}
	}
	want, _ := seqBrackets(deep)
	if got, err := Brackets(deep, 4); err != nil || !slices.Equal(got, want) {
		t.Fatalf("deep nesting: err %v", err)
	}
}

func TestBracketsUnbalanced(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	for i := 0; i < 200; i++ {
		n := 1 + r.IntN(4*chunkSize)
		s := randomBracketed(r, n, 50)
		// Flip, drop or add one bracket somewhere.
		k := r.IntN(len(s))
		switch r.IntN(3) {
		case 0:
			s[k] = '['
		case 1:
			s[k] = ']'
		default:
			s = slices.Insert(s, k, Symbol("[]"[r.IntN(2)]))
		}
		_, wantErr := seqBrackets(s)
		got, err := Brackets(s, 3)
		var be, wbe *BracketError
		if wantErr == nil {
			if err != nil {
				t.Fatalf("balanced string reported %v", err)
			}
			want, _ := seqBrackets(s)
			if !slices.Equal(got, want) {
				t.Fatal("matches differ")
			}
			continue
		}
		if !errors.As(err, &be) || !errors.As(wantErr, &wbe) || *be != *wbe {
			t.Fatalf("err %v, want %v", err, wantErr)
		}
	}
	if _, err := Brackets([]Symbol("F]["), 1); err == nil || err.Error() != "unbalanced brackets: ']' at module 1 closes no branch" {
		t.Errorf("err = %v", err)
	}
	if _, err := Brackets([]Symbol("[[F]"), 1); err == nil || err.Error() != "unbalanced brackets: '[' at module 0 is never closed" {
		t.Errorf("err = %v", err)
	}
}

// depthBuckets is the paper's parallel hierarchy extraction (section
// 5.2.1), for comparison with matchBrackets: (1) each chunk's depth change
// and deepest level, (2) a scan giving each chunk's starting depth, (3) per
// chunk, how many brackets open or close each level, (4) a scan of those
// counts per level, packed into one array, (5) every bracket's position
// written into its level's bucket, where (6) consecutive entries pair up.
// It handles balanced strings only.
func depthBuckets(syms []Symbol, workers int) []int32 {
	ctx := context.Background()
	n := len(syms)
	nc := numChunks(n, chunkSize)
	delta, deepest := make([]int, nc), make([]int, nc)
	forChunks(ctx, n, chunkSize, workers, func(w, c, lo, hi int) error {
		d, mx := 0, 0
		for _, s := range syms[lo:hi] {
			if s == '[' {
				d++
				mx = max(mx, d)
			} else if s == ']' {
				d--
			}
		}
		delta[c], deepest[c] = d, mx
		return nil
	})
	start := make([]int, nc)
	levels, acc := 0, 0
	for c := range start {
		start[c] = acc
		levels = max(levels, acc+deepest[c])
		acc += delta[c]
	}
	counts := make([]int32, nc*levels)
	forChunks(ctx, n, chunkSize, workers, func(w, c, lo, hi int) error {
		d, row := start[c], counts[c*levels:(c+1)*levels]
		for _, s := range syms[lo:hi] {
			if s == '[' {
				row[d]++
				d++
			} else if s == ']' {
				d--
				row[d]++
			}
		}
		return nil
	})
	var base int32
	for j := 0; j < levels; j++ {
		for c := 0; c < nc; c++ {
			v := counts[c*levels+j]
			counts[c*levels+j] = base
			base += v
		}
	}
	bucket := make([]int32, base)
	match := make([]int32, n)
	forChunks(ctx, n, chunkSize, workers, func(w, c, lo, hi int) error {
		d, off := start[c], counts[c*levels:(c+1)*levels]
		for i, s := range syms[lo:hi] {
			match[lo+i] = -1
			if s == '[' {
				bucket[off[d]] = int32(lo + i)
				off[d]++
				d++
			} else if s == ']' {
				d--
				bucket[off[d]] = int32(lo + i)
				off[d]++
			}
		}
		return nil
	})
	forChunks(ctx, len(bucket)/2, chunkSize, workers, func(w, c, lo, hi int) error {
		for k := lo; k < hi; k++ {
			o, cl := bucket[2*k], bucket[2*k+1]
			match[o], match[cl] = cl, o
		}
		return nil
	})
	return match
}

func BenchmarkBrackets(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	// The 2D plant's w_8 (45M modules, 36% brackets) and a random string.
	plant := derive(b, plant2D(), DeriveOptions{Steps: 8}).String.Syms
	for _, c := range []struct {
		name string
		s    []Symbol
	}{{"plant2D-8", plant}, {"random-16M", randomBracketed(r, 1<<24, 64)}} {
		b.Run(c.name+"/stack", func(b *testing.B) {
			dst := make([]int32, len(c.s))
			for b.Loop() {
				if _, err := matchBrackets(b.Context(), dst, c.s, 0); err != nil {
					b.Fatal(err)
				}
			}
			reportPerMS(b, int64(len(c.s)), "modules/ms")
		})
		b.Run(c.name+"/depth-buckets", func(b *testing.B) {
			for b.Loop() {
				depthBuckets(c.s, 0)
			}
			reportPerMS(b, int64(len(c.s)), "modules/ms")
		})
	}
}
