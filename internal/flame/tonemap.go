package flame

import "math"

// prefilterWhite is flam3's PREFILTER_WHITE: the value one full-brightness
// sample contributes per channel.
const prefilterWhite = 255

// calcAlpha is flam3's gamma curve with a linear segment below threshold,
// which keeps faint areas from being amplified into noise.
func calcAlpha(density, gamma, linrange float64) float64 {
	if density <= 0 {
		return 0
	}
	if density < linrange {
		frac := density / linrange
		return (1-frac)*density*(math.Pow(linrange, gamma)/linrange) + frac*math.Pow(density, gamma)
	}
	return math.Pow(density, gamma)
}

// calcNewRGB scales colour c by ls and, where a channel would saturate and
// highlight power is non-negative, desaturates instead of shifting hue.
func calcNewRGB(c *[4]float64, ls, highpow float64) [3]float64 {
	if ls == 0 || (c[0] == 0 && c[1] == 0 && c[2] == 0) {
		return [3]float64{}
	}
	maxa, maxc := -1.0, 0.0
	for ch := 0; ch < 3; ch++ {
		if a := ls * c[ch] / prefilterWhite; a > maxa {
			maxa, maxc = a, c[ch]/prefilterWhite
		}
	}
	newls := 255 / maxc
	var out [3]float64
	if maxa > 255 && highpow >= 0 {
		ratio := math.Pow(newls/ls, highpow)
		for ch := 0; ch < 3; ch++ {
			out[ch] = newls * (c[ch] / prefilterWhite) / 255
		}
		h, s, v := rgbToHSV(out[0], out[1], out[2])
		out[0], out[1], out[2] = hsvToRGB(h, s*ratio, v)
		for ch := range out {
			out[ch] *= 255
		}
		return out
	}
	adj := -highpow
	if adj > 1 || maxa <= 255 {
		adj = 1
	}
	for ch := 0; ch < 3; ch++ {
		out[ch] = ((1-adj)*newls + adj*ls) * (c[ch] / prefilterWhite)
	}
	return out
}

// rgbToHSV and hsvToRGB use flam3's conventions: h in [0,6), s, v in [0,1].
func rgbToHSV(r, g, b float64) (h, s, v float64) {
	mx := max(r, g, b)
	mn := min(r, g, b)
	del := mx - mn
	v = mx
	if mx != 0 {
		s = del / mx
	}
	if s == 0 {
		return 0, s, v
	}
	rc, gc, bc := (mx-r)/del, (mx-g)/del, (mx-b)/del
	switch {
	case r == mx:
		h = bc - gc
	case g == mx:
		h = 2 + rc - bc
	default:
		h = 4 + gc - rc
	}
	if h < 0 {
		h += 6
	}
	return h, s, v
}

func hsvToRGB(h, s, v float64) (r, g, b float64) {
	for h >= 6 {
		h -= 6
	}
	for h < 0 {
		h += 6
	}
	j := int(math.Floor(h))
	f := h - float64(j)
	p, q, t := v*(1-s), v*(1-s*f), v*(1-s*(1-f))
	switch j {
	case 1:
		return q, v, p
	case 2:
		return p, v, t
	case 3:
		return p, q, v
	case 4:
		return t, p, v
	case 5:
		return v, p, q
	default:
		return v, t, p
	}
}

// toneParams are the per-render constants of the final colour mapping.
type toneParams struct {
	gamma      float64 // 1/genome gamma
	linrange   float64
	vibrancy   float64
	highpow    float64
	background [3]float64 // 0..256 scale, as flam3
	transp     bool
}

// tone maps a filtered accumulator value t (RGBA sums) to the output pixel:
// RGB on 0..255 and alpha on 0..1. It is flam3's non-early-clip path; with
// early clip the same mapping runs per bucket before filtering.
func (tp *toneParams) tone(t [4]float64) [4]float64 {
	var alpha, ls float64
	if t[3] > 0 {
		tmp := t[3] / prefilterWhite
		alpha = calcAlpha(tmp, tp.gamma, tp.linrange)
		ls = tp.vibrancy * 256 * alpha / tmp
		alpha = min(max(alpha, 0), 1)
	}
	rgb := calcNewRGB(&t, ls, tp.highpow)
	var out [4]float64
	for ch := 0; ch < 3; ch++ {
		a := rgb[ch]
		if tp.vibrancy != 1 {
			a += (1 - tp.vibrancy) * 256 * math.Pow(t[ch]/prefilterWhite, tp.gamma)
		}
		if !tp.transp {
			a += (1 - alpha) * tp.background[ch]
		} else if alpha > 0 {
			a /= alpha
		} else {
			a = 0
		}
		out[ch] = clamp255(a)
	}
	out[3] = alpha
	return out
}

// clamp255 is the device's fminf(fmaxf(a, 0), 255): NaN, which a negative
// filtered channel (a kernel with negative lobes: mitchell, JWildfire's
// MITCHELL_SMOOTH) raised to a fractional power makes where vibrancy is
// not 1, becomes 0, as on the GPU and in flam3's 8-bit output, rather than
// a NaN pixel in a float image.
func clamp255(a float64) float64 {
	if !(a > 0) {
		return 0
	}
	return min(a, 255)
}
