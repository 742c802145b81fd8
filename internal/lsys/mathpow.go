package lsys

import "math"

// fdlibm pow's constants.
const (
	two53  = 9007199254740992.0
	L1     = 5.99999999999994648725e-01
	L2     = 4.28571428578550184252e-01
	L3     = 3.33333329818377432918e-01
	L4     = 2.72728123808534006489e-01
	L5     = 2.30660745775561754067e-01
	L6     = 2.06975017800338417784e-01
	P1     = 1.66666666666666019037e-01
	P2     = -2.77777777770155933842e-03
	P3     = 6.61375632143793436117e-05
	P4     = -1.65339022054652515390e-06
	P5     = 4.13813679705723846039e-08
	lg2    = 6.93147180559945286227e-01
	lg2H   = 6.93147182464599609375e-01
	lg2L   = -1.90465429995776804525e-09
	ovt    = 8.0085662595372944372e-17
	cp     = 9.61796693925975554329e-01
	cpH    = 9.61796700954437255859e-01
	cpL    = -7.02846165095275826516e-09
	ivln2  = 1.44269504088896338700e+00
	ivln2H = 1.44269502162933349609e+00
	ivln2L = 1.92596299112661746887e-08
)

// Pow is x^y, deterministic like the rest of mathfn.go. Small integer powers
// are products, so x^2 == x*x, x^3 == x*x*x and x^-2 == 1/(x*x) bit for bit,
// and x^0.5 == sqrt(x); every other case is fdlibm's pow, which carries
// log2(x) and y*log2(x) in extra precision and is "nearly rounded" (below one
// ulp), and exact for representable integer results.
func Pow(x, y float64) float64 {
	switch {
	case y == 0:
		return 1
	case y == 0.5 && x >= 0:
		return math.Sqrt(x)
	case y == math.Trunc(y) && math.Abs(y) <= 4:
		var p float64
		switch math.Abs(y) {
		case 1:
			p = x
		case 2:
			p = float64(x * x)
		case 3:
			p = float64(float64(x*x) * x)
		default:
			p = float64(float64(x*x) * float64(x*x))
		}
		if y < 0 {
			return 1 / p
		}
		return p
	}
	return fdlibmPow(x, y)
}

// fdlibmPow is e_pow.c (Sun Microsystems, 2004; see mathfn.go), statement for
// statement; the CUDA twin is lsys_fdlibm_pow.
func fdlibmPow(x, y float64) float64 {
	hx, lx := hiWord(x), loWord(x)
	hy, ly := hiWord(y), loWord(y)
	ix, iy := hx&0x7fffffff, hy&0x7fffffff
	if iy == 0 && ly == 0 {
		return 1
	}
	if hx == 0x3ff00000 && lx == 0 {
		return 1
	}
	if ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 || (iy == 0x7ff00000 && ly != 0) {
		return math.NaN()
	}
	// yisint: 0 not an integer, 1 odd, 2 even (only needed for x < 0).
	yisint := int32(0)
	if hx < 0 {
		if iy >= 0x43400000 {
			yisint = 2
		} else if iy >= 0x3ff00000 {
			k := (iy >> 20) - 0x3ff
			if k > 20 {
				j := ly >> uint(52-k)
				if j<<uint(52-k) == ly {
					yisint = 2 - int32(j&1)
				}
			} else if ly == 0 {
				j := iy >> uint(20-k)
				if j<<uint(20-k) == iy {
					yisint = 2 - (j & 1)
				}
			}
		}
	}
	if ly == 0 {
		if iy == 0x7ff00000 { // y is +-inf
			switch {
			case ix == 0x3ff00000 && lx == 0:
				return 1
			case ix >= 0x3ff00000:
				if hy >= 0 {
					return y
				}
				return 0
			default:
				if hy < 0 {
					return -y
				}
				return 0
			}
		}
		if iy == 0x3ff00000 {
			if hy < 0 {
				return 1 / x
			}
			return x
		}
		if hy == 0x40000000 {
			return float64(x * x)
		}
		if hy == 0x3fe00000 && hx >= 0 {
			return math.Sqrt(x)
		}
	}
	ax := math.Abs(x)
	if lx == 0 && (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000) {
		z := ax
		if hy < 0 {
			z = 1 / z
		}
		if hx < 0 {
			if ix == 0x3ff00000 && yisint == 0 {
				z = math.NaN()
			} else if yisint == 1 {
				z = -z
			}
		}
		return z
	}
	n := int32(uint32(hx)>>31) - 1
	if n|yisint == 0 {
		return math.NaN()
	}
	s := 1.0
	if n|(yisint-1) == 0 {
		s = -1
	}
	t1, t2, done, r := powLog2(ax, s, ix, iy, hy)
	if done {
		return r
	}
	return powExp2(y, t1, t2, s)
}

// powLog2 is the middle of fdlibmPow: log2 of ax = |x| in extra
// precision as t1 + t2 (ix, iy, hy: the high words of ax, |y| and y; s
// the result's sign). For |y| > 2^31 it may settle the result itself
// (done, r): an overflow or underflow, or log2 near x = 1.
func powLog2(ax, s float64, ix, iy, hy int32) (t1, t2 float64, done bool, r float64) {
	bp := [2]float64{1.0, 1.5}
	dpH := [2]float64{0.0, 5.84962487220764160156e-01}
	dpL := [2]float64{0.0, 1.35003920212974897128e-08}
	inf := math.Inf(1)
	var n int32
	if iy > 0x41e00000 { // |y| > 2^31
		if iy > 0x43f00000 { // |y| > 2^64
			if ix <= 0x3fefffff {
				if hy < 0 {
					return 0, 0, true, inf
				}
				return 0, 0, true, 0
			}
			if ix >= 0x3ff00000 {
				if hy > 0 {
					return 0, 0, true, inf
				}
				return 0, 0, true, 0
			}
		}
		if ix < 0x3fefffff {
			if hy < 0 {
				return 0, 0, true, s * inf
			}
			return 0, 0, true, s * 0
		}
		if ix > 0x3ff00000 {
			if hy > 0 {
				return 0, 0, true, s * inf
			}
			return 0, 0, true, s * 0
		}
		t := ax - 1
		w := float64(float64(t*t) * (0.5 - float64(t*(0.3333333333333333333333-float64(t*0.25)))))
		u := float64(ivln2H * t)
		v := float64(t*ivln2L) - float64(w*ivln2)
		t1 = withLo(u+v, 0)
		t2 = v - (t1 - u)
	} else {
		n = 0
		if ix < 0x00100000 { // subnormal x
			ax = float64(ax * two53)
			n -= 53
			ix = hiWord(ax)
		}
		n += (ix >> 20) - 0x3ff
		j := ix & 0x000fffff
		ix = j | 0x3ff00000
		k := int32(0)
		if j <= 0x3988E {
			k = 0
		} else if j < 0xBB67A {
			k = 1
		} else {
			k = 0
			n++
			ix -= 0x00100000
		}
		ax = withHi(ax, ix)
		u := ax - bp[k]
		v := 1 / (ax + bp[k])
		ss := float64(u * v)
		sH := withLo(ss, 0)
		tH := fromWords(((ix>>1)|0x20000000)+0x00080000+(k<<18), 0)
		tL := ax - (tH - bp[k])
		sL := float64(v * ((u - float64(sH*tH)) - float64(sH*tL)))
		s2 := float64(ss * ss)
		r := float64(float64(s2*s2) * (L1 + float64(s2*(L2+float64(s2*(L3+float64(s2*(L4+float64(s2*(L5+float64(s2*L6)))))))))))
		r = r + float64(sL*(sH+ss))
		s2 = float64(sH * sH)
		tH = withLo((3.0+s2)+r, 0)
		tL = r - ((tH - 3.0) - s2)
		u = float64(sH * tH)
		v = float64(sL*tH) + float64(tL*ss)
		pH := withLo(u+v, 0)
		pL := v - (pH - u)
		zH := float64(cpH * pH)
		zL := (float64(cpL*pH) + float64(pL*cp)) + dpL[k]
		t := float64(n)
		t1 = withLo(((zH+zL)+dpH[k])+t, 0)
		t2 = zL - (((t1 - t) - dpH[k]) - zH)
	}
	return t1, t2, false, 0
}

// powExp2 is the end of fdlibmPow: s * 2^(y * (t1 + t2)), with y split so
// that the product keeps its extra precision, and overflow and underflow
// settled exactly.
func powExp2(y, t1, t2, s float64) float64 {
	inf := math.Inf(1)
	var n int32
	// (y1+y2)*(t1+t2) with y1 = y truncated to 21 bits.
	y1 := withLo(y, 0)
	pL := float64((y-y1)*t1) + float64(y*t2)
	pH := float64(y1 * t1)
	z := pL + pH
	j, i := hiWord(z), loWord(z)
	if j >= 0x40900000 { // z >= 1024
		if j != 0x40900000 || i != 0 {
			return s * inf
		}
		if pL+ovt > z-pH {
			return s * inf
		}
	} else if j&0x7fffffff >= 0x4090cc00 { // z <= -1075
		if uint32(j) != 0xc090cc00 || i != 0 {
			return s * 0
		}
		if pL <= z-pH {
			return s * 0
		}
	}
	// 2^(pH+pL)
	i2 := j & 0x7fffffff
	k := (i2 >> 20) - 0x3ff
	n = 0
	if i2 > 0x3fe00000 { // |z| > 0.5: n = [z+0.5]
		n = j + (0x00100000 >> uint(k+1))
		k = ((n & 0x7fffffff) >> 20) - 0x3ff
		t := fromWords(n&^(0x000fffff>>uint(k)), 0)
		n = ((n & 0x000fffff) | 0x00100000) >> uint(20-k)
		if j < 0 {
			n = -n
		}
		pH = pH - t
	}
	t := withLo(pL+pH, 0)
	u := float64(t * lg2H)
	v := float64((pL-(t-pH))*lg2) + float64(t*lg2L)
	z = u + v
	w := v - (z - u)
	t = float64(z * z)
	t1 = z - float64(t*(P1+float64(t*(P2+float64(t*(P3+float64(t*(P4+float64(t*P5)))))))))
	r := float64(z*t1)/(t1-2) - (w + float64(z*w))
	z = 1 - (r - z)
	j = hiWord(z) + n<<20
	if j>>20 <= 0 {
		z = scale2(z, int(n))
	} else {
		z = withHi(z, j)
	}
	return s * z
}
