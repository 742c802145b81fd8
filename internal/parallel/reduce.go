package parallel

import "math"

// reduce folds each chunk serially and then the chunk results in order, so a
// float result depends only on the input and GOMAXPROCS.
func reduce[T any, A any](src []T, zero A, lift func(A, T) A, combine func(A, A) A) A {
	b := Chunks(len(src), minChunk)
	parts := make([]A, len(b)-1)
	For(len(src), minChunk, func(c, lo, hi int) {
		acc := zero
		for _, v := range src[lo:hi] {
			acc = lift(acc, v)
		}
		parts[c] = acc
	})
	acc := zero
	for _, p := range parts {
		acc = combine(acc, p)
	}
	return acc
}

// SumInt32 returns the exact sum of src.
func SumInt32(src []int32) int64 {
	return reduce(src, int64(0), func(a int64, v int32) int64 { return a + int64(v) },
		func(a, b int64) int64 { return a + b })
}

// MaxInt32 returns the largest value of src; ok is false when src is empty.
func MaxInt32(src []int32) (max int32, ok bool) {
	if len(src) == 0 {
		return 0, false
	}
	return reduce(src, int32(math.MinInt32), func(a int32, v int32) int32 { return maxOf(a, v) }, maxOf[int32]), true
}

// SumFloat32 returns the sum of src accumulated in float64.
func SumFloat32(src []float32) float64 {
	return reduce(src, 0.0, func(a float64, v float32) float64 { return a + float64(v) },
		func(a, b float64) float64 { return a + b })
}

// MaxFloat32 returns the largest value of src, ignoring NaN (all-NaN gives
// -Inf); ok is false when src is empty.
func MaxFloat32(src []float32) (max float32, ok bool) {
	if len(src) == 0 {
		return 0, false
	}
	fmax := func(a, b float32) float32 {
		if b > a || a != a {
			return b
		}
		return a
	}
	neg := float32(math.Inf(-1))
	m := reduce(src, neg, func(a, v float32) float32 {
		if v != v {
			return a
		}
		return fmax(a, v)
	}, fmax)
	return m, true
}

func maxOf[T int32 | int64](a, b T) T {
	if b > a {
		return b
	}
	return a
}
