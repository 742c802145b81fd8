package parallel

// ExclusiveScan writes the exclusive prefix sums of src to dst (which may be
// src itself) and returns the sum of all of src. Sums wrap modulo 2^32, as on
// the GPU. dst must be at least as long as src.
func ExclusiveScan(dst, src []uint32) uint32 {
	n := len(src)
	dst = dst[:n]
	b := Chunks(n, minChunk)
	k := len(b) - 1
	if k == 1 {
		return scanSerial(dst, src, 0)
	}
	// Pass 1: each chunk's sum. Pass 2: scan the chunk sums. Pass 3: each
	// chunk scans itself from its offset.
	sums := make([]uint32, k)
	For(n, minChunk, func(c, lo, hi int) {
		var s uint32
		for _, v := range src[lo:hi] {
			s += v
		}
		sums[c] = s
	})
	var total uint32
	for c, s := range sums {
		sums[c] = total
		total += s
	}
	For(n, minChunk, func(c, lo, hi int) { scanSerial(dst[lo:hi], src[lo:hi], sums[c]) })
	return total
}

func scanSerial(dst, src []uint32, acc uint32) uint32 {
	for i, v := range src {
		dst[i] = acc
		acc += v
	}
	return acc
}

// Compact returns, in order, values[i] for every i whose flags[i] is non-zero;
// with values nil it returns those indices i instead.
func Compact(flags, values []uint32) []uint32 {
	n := len(flags)
	b := Chunks(n, minChunk)
	counts := make([]int, len(b)-1)
	For(n, minChunk, func(c, lo, hi int) {
		m := 0
		for _, f := range flags[lo:hi] {
			if f != 0 {
				m++
			}
		}
		counts[c] = m
	})
	total := 0
	for c, m := range counts {
		counts[c] = total
		total += m
	}
	out := make([]uint32, total)
	For(n, minChunk, func(c, lo, hi int) {
		j := counts[c]
		for i := lo; i < hi; i++ {
			if flags[i] == 0 {
				continue
			}
			if values != nil {
				out[j] = values[i]
			} else {
				out[j] = uint32(i)
			}
			j++
		}
	})
	return out
}
