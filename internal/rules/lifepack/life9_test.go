package lifepack

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// life9Total is the Go twin of pg_life9_sum (cuda/rules_packed_life9.cuh):
// the 3 x 3 total of 32 cells, bit by bit, from the three-cell sums (s bit
// 0, c bit 1) of the rows above, at and below them.
type life9Total struct{ ones, twos, fours, eights uint32 }

func life9Sum(sa, ca, sm, cm, sb, cb uint32) life9Total {
	ones, c1 := sa^sm^sb, (sa&sm)|(sb&(sa^sm))
	t, u := ca^cm^cb, (ca&cm)|(cb&(ca^cm))
	return life9Total{ones, t ^ c1, u ^ (t & c1), u & t & c1}
}

// life9Next is the Go twin of pg_life9_next: Life's next state.
func life9Next(T life9Total, alive uint32) uint32 {
	return (T.ones & T.twos &^ T.fours) | (alive & T.fours &^ (T.ones | T.twos))
}

// threeSum is pg_life9_take's sum of a cell with its west and east
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
		got := life9Next(life9Sum(sa, ca, sm, cm, sb, cb), cell[4])
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

// sel is x ? a : b bit by bit (pg_life9_sel).
func sel(x, a, b uint32) uint32 { return a&x | b&^x }

// life9Lut is the Go twin of pg_life9_lut: whether the total T (bits
// t0..t3) is in the set lut, by selects down the bits of T.
func life9Lut(lut, t0, t1, t2, t3 uint32) uint32 {
	var m [10]uint32
	for n := range m {
		m[n] = 0 - (lut >> n & 1)
	}
	g0, g1 := sel(t0, m[1], m[0]), sel(t0, m[3], m[2])
	g2, g3 := sel(t0, m[5], m[4]), sel(t0, m[7], m[6])
	low := sel(t2, sel(t1, g3, g2), sel(t1, g1, g0))
	return sel(t3, sel(t0, m[9], m[8]), low)
}

// life9NextRule is the Go twin of pg_life9_next_rule.
func life9NextRule(T life9Total, alive uint32, r Rule) uint32 {
	return sel(alive, life9Lut(uint32(r.Survive)<<1, T.ones, T.twos, T.fours, T.eights),
		life9Lut(uint32(r.Birth), T.ones, T.twos, T.fours, T.eights))
}

// TestLife9RuleFormula: over every 3 x 3 neighbourhood, the 9-cell
// kernel's rule selection gives the next state of B/S rules: births at 0
// and 8 neighbours, survival at 0 and 8, and 300 random rules.
func TestLife9RuleFormula(t *testing.T) {
	rules := []Rule{{Birth: 1 << 3, Survive: 1<<2 | 1<<3}, {Birth: 1<<3 | 1<<6, Survive: 1<<2 | 1<<3}, {Birth: 1}, {Birth: 1 << 8, Survive: 1<<0 | 1<<8},
		{Birth: 0x1ff, Survive: 0x1ff}, {}}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 300 {
		rules = append(rules, Rule{Birth: uint16(rng.IntN(512)), Survive: uint16(rng.IntN(512))})
	}
	for _, r := range rules {
		for base := 0; base < 512; base += 32 {
			var cell [9]uint32
			for lane := range 32 {
				for i := range 9 {
					cell[i] |= uint32((base+lane)>>i&1) << lane
				}
			}
			sa, ca := threeSum(cell[0], cell[1], cell[2])
			sm, cm := threeSum(cell[3], cell[4], cell[5])
			sb, cb := threeSum(cell[6], cell[7], cell[8])
			got := life9NextRule(life9Sum(sa, ca, sm, cm, sb, cb), cell[4], r)
			for lane := range 32 {
				p := uint(base + lane)
				n := bits.OnesCount(p &^ (1 << 4))
				want := r.Birth>>n&1 == 1
				if p>>4&1 == 1 {
					want = r.Survive>>n&1 == 1
				}
				if (got>>lane&1 == 1) != want {
					t.Fatalf("B%09b/S%09b, neighbourhood %09b: next %v, want %v", r.Birth, r.Survive, p, !want, want)
				}
			}
		}
	}
}
