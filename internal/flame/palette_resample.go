package flame

// Fractorium and JWildfire write palettes of more than 256 entries (512
// and 1024 occur). flam3's model, and so procgen's renderers, hold 256:
// a longer palette is resampled to 256 by averaging, for each of the 256
// entries, the span of the long palette it covers (a box filter, with
// fractional end weights when the length is not a multiple of 256). Colour
// coordinate c then picks (step mode) the mean of the entries the writing
// program would pick among for coordinates within 1/256 of c.

// maxPaletteCount bounds <palette count=...>: far over what any program
// writes, small enough that the hex text stays a few megabytes.
const maxPaletteCount = 1 << 16

// resamplePalette box-filters n > 256 colours down to 256.
func resamplePalette(cols [][4]float64) [][4]float64 {
	n := float64(len(cols))
	out := make([][4]float64, 256)
	span := n / 256
	for i := range out {
		lo, hi := float64(i)*span, float64(i+1)*span
		var sum [4]float64
		for j := int(lo); j < len(cols) && float64(j) < hi; j++ {
			// The part of entry j's interval [j, j+1) inside [lo, hi).
			w := min(hi, float64(j+1)) - max(lo, float64(j))
			for k := range 4 {
				sum[k] += w * cols[j][k]
			}
		}
		for k := range 4 {
			out[i][k] = sum[k] / span
		}
	}
	return out
}
