package golly

// OuterTotalistic returns r's birth and survival counts as bit masks (bit n:
// a dead cell with n live neighbours is born; a live one with n survives)
// when r is a two-state rule on the Moore neighbourhood whose every count is
// whole (no Hensel letters): the rules that lifepack runs bit-packed.
func (r Rule) OuterTotalistic() (birth, survive uint16, ok bool) {
	if r.Kind != Totalistic || r.Neigh != Moore || r.States != 2 || hensel(r) {
		return 0, 0, false
	}
	return uint16(countMask(r.Birth)), uint16(countMask(r.Survive)), true
}
