package lifepack

import (
	"math/bits"
	"testing"
)

// life9Next is the Go twin of pg_life9_next (cuda/rules_packed_life9.cuh):
// Life's next state from the three-cell sums (s bit 0, c bit 1) of the rows
// above, at and below 32 cells.
func life9Next(sa, ca, sm, cm, sb, cb, alive uint32) uint32 {
	ones, c1 := sa^sm^sb, (sa&sm)|(sb&(sa^sm))
	t, u := ca^cm^cb, (ca&cm)|(cb&(ca^cm))
	twos, fours := t^c1, u^(t&c1)
	return (ones & twos &^ fours) | (alive & fours &^ (ones | twos))
}

// threeSum is pg_life9_row's sum of a cell with its west and east
// neighbours: bit 0 and bit 1.
func threeSum(w, c, e uint32) (s, carry uint32) {
	return w ^ c ^ e, (w & c) | (e & (w ^ c))
}

// TestLife9Formula: over every 3 x 3 neighbourhood (512 of them, one a bit
// lane), the 9-cell kernel's sums and rule give Life's next state.
func TestLife9Formula(t *testing.T) {
	for base := 0; base < 512; base += 32 {
		var cell [9]uint32 // cell[3*row + col] of each lane's neighbourhood
		for lane := range 32 {
			p := base + lane
			for i := range 9 {
				cell[i] |= uint32(p>>i&1) << lane
			}
		}
		sa, ca := threeSum(cell[0], cell[1], cell[2])
		sm, cm := threeSum(cell[3], cell[4], cell[5])
		sb, cb := threeSum(cell[6], cell[7], cell[8])
		got := life9Next(sa, ca, sm, cm, sb, cb, cell[4])
		for lane := range 32 {
			p := uint(base + lane)
			alive := p>>4&1 == 1
			n := bits.OnesCount(p &^ (1 << 4))
			want := n == 3 || (alive && n == 2)
			if (got>>lane&1 == 1) != want {
				t.Errorf("neighbourhood %09b: next %v, want %v", p, !want, want)
			}
		}
	}
}
