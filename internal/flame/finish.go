package flame

import (
	"context"

	"github.com/procgen-dev/procgen/internal/parallel"
	"github.com/procgen-dev/procgen/internal/phase"
)

// finish runs the CPU half of a render after the histogram: density
// estimation (or plain log scaling), optional early clip, the spatial filter
// and tone mapping. The CUDA backend runs the same steps on the device.
// Every phase checks ctx, so Ctrl-C ends even a poster-sized finish at once.
func (p *plan) finish(ctx context.Context, h *histogram) (*Frame, error) {
	acc := make([]float64, 4*p.bw*p.bh)
	phase.Enter(ctx, "flame.density")
	densityEstimate(ctx, h, acc, p.de, p.k1, p.k2, p.ss)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.earlyClip && !p.linear {
		parallel.For(p.bw*p.bh, 1<<14, func(_, lo, hi int) {
			for b := lo; b < hi; b++ {
				t := p.tone.tone([4]float64{acc[4*b], acc[4*b+1], acc[4*b+2], acc[4*b+3]})
				copy(acc[4*b:4*b+4], t[:])
			}
		})
	}
	phase.Enter(ctx, "flame.filter")
	f := newFrame(p.width, p.height)
	fw := p.filterWidth
	parallel.For(p.height, 8, func(_, lo, hi int) {
		for j := lo; j < hi && ctx.Err() == nil; j++ {
			y := p.deOffset + j*p.ss
			for i := 0; i < p.width; i++ {
				x := p.deOffset + i*p.ss
				var t [4]float64
				for jj := 0; jj < fw; jj++ {
					row := acc[4*((y+jj)*p.bw+x):]
					k := p.filter[jj*fw:]
					for ii := 0; ii < fw; ii++ {
						w := k[ii]
						t[0] += w * row[4*ii]
						t[1] += w * row[4*ii+1]
						t[2] += w * row[4*ii+2]
						t[3] += w * row[4*ii+3]
					}
				}
				switch {
				case p.linear:
					t = p.tone.linear(t)
				case !p.earlyClip:
					t = p.tone.tone(t)
				default:
					for ch := 0; ch < 3; ch++ {
						t[ch] = min(max(t[ch], 0), 255)
					}
					t[3] = min(max(t[3], 0), 1)
				}
				if !p.tone.transp && !p.linear {
					t[3] = 1 // flam3 writes opaque pixels unless asked for transparency
				}
				o := f.Pix[4*(j*p.width+i):]
				o[0], o[1], o[2], o[3] = float32(t[0]), float32(t[1]), float32(t[2]), float32(t[3])
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return f, nil
}
