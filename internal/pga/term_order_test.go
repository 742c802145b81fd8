package pga

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// SortLikeDevice orders a city's terminals by lot, seed and kind, keeps
// ties in their order, loses and makes up nothing, and sorts lots that do
// not lie together too.
func TestSortLikeDevice(t *testing.T) {
	g, axioms, opt := scenes["CityOverview"].load(t, 12, 10)
	ts, err := g.Evaluate(axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Ties: give some terminals of a lot one seed and kind.
	for i := 0; i+3 < len(ts); i += 97 {
		for k := 1; k < 3; k++ {
			if ts[i+k].Lot == ts[i].Lot {
				ts[i+k].Seed, ts[i+k].Term = ts[i].Seed, ts[i].Term
			}
		}
	}
	for i := range ts {
		ts[i].Attr = float64(i) // the place in Evaluate's order
	}
	check := func(t *testing.T, got []TerminalShape) {
		t.Helper()
		if len(got) != len(ts) {
			t.Fatalf("%d terminals, want %d", len(got), len(ts))
		}
		seen := make([]bool, len(ts))
		moved := 0
		for i := range got {
			seen[int(got[i].Attr)] = true
			if int(got[i].Attr) != i {
				moved++
			}
			if i == 0 {
				continue
			}
			a, b := &got[i-1], &got[i]
			if c := cmp.Or(cmp.Compare(a.Lot, b.Lot), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Term, b.Term), cmp.Compare(a.Attr, b.Attr)); c >= 0 {
				t.Fatalf("terminals %d and %d out of order: %+v then %+v", i-1, i, a, b)
			}
		}
		for i, ok := range seen {
			if !ok {
				t.Fatalf("terminal %d lost", i)
			}
		}
		if moved == 0 {
			t.Fatal("nothing moved: Evaluate's order is not the device's, so the test says nothing")
		}
	}
	t.Run("lot by lot", func(t *testing.T) {
		got := slices.Clone(ts)
		SortLikeDevice(got)
		check(t, got)
	})
	t.Run("lots apart", func(t *testing.T) {
		got := slices.Clone(ts)
		r := rand.New(rand.NewPCG(1, 2))
		r.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		slices.SortStableFunc(got, func(a, b TerminalShape) int { return cmp.Compare(a.Attr, b.Attr) }) // back, then split a lot
		got[0], got[len(got)-1] = got[len(got)-1], got[0]
		for i := range got {
			got[i].Attr = float64(i) // ties keep this order
		}
		SortLikeDevice(got)
		check(t, got)
	})
}

// BenchmarkSortLikeDevice: CityOverview's 220,000 terminals on 100x100
// lots, from Evaluate's order (a fresh copy each time, not timed).
func BenchmarkSortLikeDevice(b *testing.B) {
	g, axioms, opt := scenes["CityOverview"].load(b, 100, 100)
	ts, err := g.Evaluate(axioms, opt)
	if err != nil {
		b.Fatal(err)
	}
	work := make([]TerminalShape, len(ts))
	for b.Loop() {
		b.StopTimer()
		copy(work, ts)
		b.StartTimer()
		SortLikeDevice(work)
	}
}
