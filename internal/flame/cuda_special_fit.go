package flame

// A frame's temporal samples mostly share one shape (appendShape), but a
// sample at exactly a keyframe's time is that keyframe's own genome, whose
// xforms lack the zero-weight variations that interpolation adds to the
// genomes around it (flam3's and cuburn's padding). fitShapes restates such
// genomes in the frame's common shape, so that one compiled kernel still
// runs the whole frame.

// fitShapes returns the shape most of the genomes have (genomes[i] with
// nx[i] ordinary xforms), after rewriting in place every other genome that
// is that shape with some variations missing: the missing ones get weight
// zero, which draws nothing and adds nothing. It returns nil, changing
// nothing, when some genome cannot be restated so.
func fitShapes(genomes [][]gpuXform, nx []int) []byte {
	count := map[string]int{}
	best, bestN := "", 0
	var buf []byte
	for i, xs := range genomes {
		buf = appendShape(buf[:0], xs, nx[i])
		s := string(buf)
		count[s]++
		if count[s] > bestN {
			best, bestN = s, count[s]
		}
	}
	if len(count) == 1 {
		return []byte(best)
	}
	var target []gpuXform
	for i, xs := range genomes {
		if string(appendShape(buf[:0], xs, nx[i])) == best {
			target = xs
			break
		}
	}
	targetNX := int(best[0])
	fits := make([][]gpuXform, len(genomes))
	for i, xs := range genomes {
		if string(appendShape(buf[:0], xs, nx[i])) == best {
			continue
		}
		if nx[i] != targetNX || len(xs) != len(target) {
			return nil
		}
		fit := make([]gpuXform, len(xs))
		for j := range xs {
			var ok bool
			if fit[j], ok = fitXform(&xs[j], &target[j]); !ok {
				return nil
			}
		}
		fits[i] = fit
	}
	for i, fit := range fits {
		if fit != nil {
			copy(genomes[i], fit)
		}
	}
	return []byte(best)
}

// fitXform restates x with t's variation ids: every variation of x must be
// among t's, in the same order, with the same post affine and pre_blur.
func fitXform(x, t *gpuXform) (gpuXform, bool) {
	out := *x
	if x.HasPost != t.HasPost || (x.PreBlur < 0) != (t.PreBlur < 0) {
		return out, false
	}
	if t.LinearOnly != 0 {
		return out, x.LinearOnly != 0
	}
	ids, weights := x.IDs[:x.NVars], x.Weights[:x.NVars]
	if x.LinearOnly != 0 { // one linear term of the summed weight
		ids, weights = []uint16{uint16(VarLinear)}, []float32{x.LinearW}
	}
	out.LinearOnly, out.LinearW, out.NVars, out.IDs, out.Weights = 0, 0, t.NVars, t.IDs, [gpuMaxVars]float32{}
	k := 0
	for j, id := range t.IDs[:t.NVars] {
		if k < len(ids) && ids[k] == id {
			out.Weights[j] = weights[k]
			k++
		}
	}
	if k < len(ids) {
		return out, false
	}
	out.PreBlur = t.PreBlur
	if t.PreBlur >= 0 && out.Weights[t.PreBlur] == 0 {
		return out, false
	}
	return out, true
}
