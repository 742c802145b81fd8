package output

import "math"

// halfBits is f as an IEEE 754 binary16 (OpenEXR's HALF), rounded to
// nearest, ties to even; values past the largest half (65504) become
// infinities and NaN stays NaN, as OpenEXR's own conversion does.
func halfBits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	switch {
	case exp == 0xff: // infinity or NaN; a NaN keeps a non-zero mantissa
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp > 127+15: // too large for a half
		return sign | 0x7c00
	case exp >= 127-14: // a normal half
		e := uint32(exp-127+15) << 10
		m := mant >> 13
		h := e | m
		// Round to nearest even on the 13 dropped bits; a carry into the
		// exponent is right, up to infinity.
		rest := mant & 0x1fff
		if rest > 0x1000 || (rest == 0x1000 && m&1 == 1) {
			h++
		}
		return sign | uint16(h)
	case exp < 127-25: // below half the smallest subnormal: zero
		return sign
	}
	// A subnormal half: the implicit bit made explicit, shifted into place.
	m := mant | 0x800000
	shift := uint(126 - exp) // 14 for the largest, 24 for the smallest
	h := m >> shift
	rest := m & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rest > half || (rest == half && h&1 == 1) {
		h++
	}
	return sign | uint16(h)
}
