package flame

import "context"

// linear maps a filtered accumulator value t (RGBA sums) to linear light:
// the image flam3 would make at gamma 1, where vibrancy has no effect,
// before highlight power and clipping. RGB comes premultiplied by alpha as
// OpenEXR stores it, both on flam3's 0..1 scale (a channel of 1 is what
// flam3 writes as 255 at gamma 1), so a viewer's default exposure, which
// applies the display's own curve, shows the flame at about the PNG's
// brightness with the genome's gamma near 2.2. Values above 1 are kept: the
// dense cores that the tone curve clips are the point of HDR. The
// background is composited under the flame unless the render is
// transparent; alpha (coverage: density 1 and above is opaque) is kept
// either way.
func (tp *toneParams) linear(t [4]float64) [4]float64 {
	// tone's ls at gamma 1 is vibrancy·256 and its non-vibrant term adds
	// (1-vibrancy)·256 of the same: 256/255 per unit of t/prefilterWhite.
	const scale = 256.0 / 255 / prefilterWhite
	var out [4]float64
	alpha := min(max(t[3]/prefilterWhite, 0), 1)
	for ch := 0; ch < 3; ch++ {
		out[ch] = max(t[ch]*scale, 0)
		if !tp.transp {
			out[ch] += (1 - alpha) * tp.background[ch] / 255
		}
	}
	out[3] = alpha
	if !tp.transp {
		out[3] = 1
	}
	return out
}

// FinishLinear is Finish to linear light (toneParams.linear) instead of
// flam3's tone curve: the Frame holds premultiplied RGBA on the 0..1 scale,
// unclipped. Early clip, a tone-curve step, does not apply.
func (a *Accum) FinishLinear(ctx context.Context) (*Frame, error) {
	if err := a.Complete(); err != nil {
		return nil, err
	}
	p, err := a.info.Finish.finishPlan(a.info.BucketsW, a.info.BucketsH)
	if err != nil {
		return nil, err
	}
	p.linear = true
	return p.finish(ctx, a.h)
}
