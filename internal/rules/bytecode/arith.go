package bytecode

import "math"

// The integer arithmetic the interpreter, the constant folder and the GPU
// share, where Go's own operators differ from CUDA's or the language's.

// idiv truncates; MinInt32 / -1 wraps to MinInt32.
func IDiv(a, b int32) int32 {
	if b == -1 {
		return -a
	}
	return a / b
}

// imod is Euclidean: the result lies in [0, |b|).
func IMod(a, b int32) int32 {
	if b == -1 || b == 1 {
		return 0
	}
	r := a % b
	if r < 0 {
		if b < 0 {
			r -= b
		} else {
			r += b
		}
	}
	return r
}

func IAbs(a int32) int32 {
	if a < 0 {
		return -a
	}
	return a
}

// f2i truncates toward zero, saturating, with NaN -> 0 (CUDA's cvt.rzi.s32.f32).
func F2I(f float32) int32 {
	switch {
	case f != f:
		return 0
	case f >= 2147483648.0:
		return math.MaxInt32
	case f <= -2147483648.0:
		return math.MinInt32
	}
	return int32(f)
}
