package forest

import "math"

// fastExp is exp(x) for x in [-708, 708]: no special cases and no calls, so
// the exact method's inner loops stay a few dozen instructions. On
// [-708, 0], the kernel's range, it is within 2 ulp of math.Exp; on the
// positive side (the power of two then raises the exponent field instead of
// lowering it: the Weibull's r^theta in the fit's AtLog) within 2.5 ulp
// (tested).
//
// x = (64m + j) ln2/64 + r with |r| <= ln2/128, so exp(x) = 2^m 2^(j/64) e^r,
// the 2^(j/64) from a table and e^r from a degree-5 Taylor polynomial
// (truncation error below 4e-17).
func fastExp(x float64) float64 {
	const (
		invL  = 64 / math.Ln2
		l1    = 6.93147180369123816490e-01 / 64 // ln2 split in a high part with
		l2    = 1.90821492927058770002e-10 / 64 // trailing zeros and the rest
		magic = 0x1.8p52                        // adding it rounds to an integer
	)
	nf := (x*invL + magic) - magic
	r := x - nf*l1 - nf*l2
	n := int64(nf)
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120)))))
	t := exp2Frac[n&63] + uint64(n>>6)<<52
	return math.Float64frombits(t) * p
}

// exp2Frac holds 2^(j/64), correctly rounded.
var exp2Frac = [64]uint64{
	0x3ff0000000000000, // 2^(0/64)
	0x3ff02c9a3e778061, // 2^(1/64)
	0x3ff059b0d3158574, // 2^(2/64)
	0x3ff0874518759bc8, // 2^(3/64)
	0x3ff0b5586cf9890f, // 2^(4/64)
	0x3ff0e3ec32d3d1a2, // 2^(5/64)
	0x3ff11301d0125b51, // 2^(6/64)
	0x3ff1429aaea92de0, // 2^(7/64)
	0x3ff172b83c7d517b, // 2^(8/64)
	0x3ff1a35beb6fcb75, // 2^(9/64)
	0x3ff1d4873168b9aa, // 2^(10/64)
	0x3ff2063b88628cd6, // 2^(11/64)
	0x3ff2387a6e756238, // 2^(12/64)
	0x3ff26b4565e27cdd, // 2^(13/64)
	0x3ff29e9df51fdee1, // 2^(14/64)
	0x3ff2d285a6e4030b, // 2^(15/64)
	0x3ff306fe0a31b715, // 2^(16/64)
	0x3ff33c08b26416ff, // 2^(17/64)
	0x3ff371a7373aa9cb, // 2^(18/64)
	0x3ff3a7db34e59ff7, // 2^(19/64)
	0x3ff3dea64c123422, // 2^(20/64)
	0x3ff4160a21f72e2a, // 2^(21/64)
	0x3ff44e086061892d, // 2^(22/64)
	0x3ff486a2b5c13cd0, // 2^(23/64)
	0x3ff4bfdad5362a27, // 2^(24/64)
	0x3ff4f9b2769d2ca7, // 2^(25/64)
	0x3ff5342b569d4f82, // 2^(26/64)
	0x3ff56f4736b527da, // 2^(27/64)
	0x3ff5ab07dd485429, // 2^(28/64)
	0x3ff5e76f15ad2148, // 2^(29/64)
	0x3ff6247eb03a5585, // 2^(30/64)
	0x3ff6623882552225, // 2^(31/64)
	0x3ff6a09e667f3bcd, // 2^(32/64)
	0x3ff6dfb23c651a2f, // 2^(33/64)
	0x3ff71f75e8ec5f74, // 2^(34/64)
	0x3ff75feb564267c9, // 2^(35/64)
	0x3ff7a11473eb0187, // 2^(36/64)
	0x3ff7e2f336cf4e62, // 2^(37/64)
	0x3ff82589994cce13, // 2^(38/64)
	0x3ff868d99b4492ed, // 2^(39/64)
	0x3ff8ace5422aa0db, // 2^(40/64)
	0x3ff8f1ae99157736, // 2^(41/64)
	0x3ff93737b0cdc5e5, // 2^(42/64)
	0x3ff97d829fde4e50, // 2^(43/64)
	0x3ff9c49182a3f090, // 2^(44/64)
	0x3ffa0c667b5de565, // 2^(45/64)
	0x3ffa5503b23e255d, // 2^(46/64)
	0x3ffa9e6b5579fdbf, // 2^(47/64)
	0x3ffae89f995ad3ad, // 2^(48/64)
	0x3ffb33a2b84f15fb, // 2^(49/64)
	0x3ffb7f76f2fb5e47, // 2^(50/64)
	0x3ffbcc1e904bc1d2, // 2^(51/64)
	0x3ffc199bdd85529c, // 2^(52/64)
	0x3ffc67f12e57d14b, // 2^(53/64)
	0x3ffcb720dcef9069, // 2^(54/64)
	0x3ffd072d4a07897c, // 2^(55/64)
	0x3ffd5818dcfba487, // 2^(56/64)
	0x3ffda9e603db3285, // 2^(57/64)
	0x3ffdfc97337b9b5f, // 2^(58/64)
	0x3ffe502ee78b3ff6, // 2^(59/64)
	0x3ffea4afa2a490da, // 2^(60/64)
	0x3ffefa1bee615a27, // 2^(61/64)
	0x3fff50765b6e4540, // 2^(62/64)
	0x3fffa7c1819e90d8, // 2^(63/64)
}
