package flame

import "math"

// dark-beam's scrambly (JWildfire's): the square of side cellsize centred
// on the origin is cut into l×l cells (l in [3, 25]) which are permuted;
// points outside it pass as a linear. The permutation is a shift by seed+1
// for seeds 0..50, otherwise a shuffle driven by a byte-swapped linear
// congruential generator, of the whole grid or (byrows) of each row with
// seed+row. JWildfire builds the permutation once; here the one entry a
// point needs is computed each time, by running the shuffle up to it
// (positions are final once the shuffle has passed them): up to l² steps
// of integer arithmetic, l by rows.

// scrambly adds the variation (see above) with weight w.
func (s *varState) scrambly(w float64) {
	p := s.p
	ll := int32(min(max(math.Abs(ftoi(p[PScramblyL])), 3), 25))
	cs := min(max(p[PScramblyCellsize], 1e-20), 1e20)
	cella := cs / float64(ll)
	mz, inv := 0.5*cs, 1/cella
	vx, vy := (s.tx+mz)*inv, (s.ty+mz)*inv
	ix, iy := int32(javaInt(math.Floor(vx))), int32(javaInt(math.Floor(vy)))
	if ix < 0 || ix >= ll || iy < 0 || iy >= ll {
		s.px += w * s.tx
		s.py += w * s.ty
		return
	}
	vx -= float64(ix)
	vy -= float64(iy)
	swp := scramblyEntry(ix+ll*iy, ll, int32(ftoi(p[PScramblySeed])), ftoi(p[PScramblyByrows]) != 0)
	vx += float64(swp % ll)
	vy += float64(swp / ll)
	s.px += w * (vx*cella - mz)
	s.py += w * (vy*cella - mz)
}

// scramblyEntry is entry k of scrambly's permutation of the ll×ll cells.
func scramblyEntry(k, ll, seed int32, byrows bool) int32 {
	n := ll * ll
	if seed >= 0 && seed <= 50 {
		return (seed + k + 1) % n
	}
	lo, hi := int32(0), n
	if byrows {
		row := k / ll
		lo, hi, seed = ll*row, ll*(row+1), seed+row
	}
	return scramblyShuffled(k, lo, hi, seed)
}

// scramblyShuffled runs scrambly's shuffle of the identity over [lo, hi)
// until position k is final and returns it: each step j swaps position j
// with one after it (the generator's value mod the rest).
func scramblyShuffled(k, lo, hi, seed int32) int32 {
	var mx [25 * 25]int32
	for i := lo; i < hi; i++ {
		mx[i] = i
	}
	prn := int32(1)
	for j := lo; j <= k; j++ {
		prn = prn*1103515245 + 12345
		prn = prn&-0x10000 | (prn<<8)&0xFF00 | (prn>>8)&0xFF // the low two bytes swapped
		if prn&4 != 0 {
			prn -= seed
		} else {
			prn ^= seed
		}
		if prn < 0 {
			prn = -prn
		}
		r := 1 + j
		if hi <= r {
			break
		}
		r += prn % (hi - r)
		if r < lo { // prn was −2³¹, which stays negative: JWildfire's index fails there
			r = j
		}
		mx[r], mx[j] = mx[j], mx[r]
	}
	return mx[k]
}
