package lifepack

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/rules/golly"
)

// testCase is a notation on a board of w x h cells.
type testCase struct {
	notation string
	w, h     int
}

// twinCases cover the wrap of each edge: widths below, at and past one and
// two words, a single column and row, and rules with births at 1 and 8
// neighbours and survival at 0.
var twinCases = []testCase{
	{"B3/S23:T", 37, 19}, {"B3/S23:P", 37, 19}, {"B3/S23:T", 32, 8}, {"B3/S23:P", 64, 5},
	{"B36/S23:T", 33, 33}, {"B3678/S34678:T", 70, 9}, {"B2/S:P", 31, 12}, {"B1/S1:T", 5, 3},
	{"B3/S23:T", 1, 1}, {"B3/S23:T", 1, 6}, {"B35678/S5678:T", 65, 2}, {"B12345678/S08:P", 40, 7},
	{"B3/S012345678:T", 96, 4},
	// Rows of exactly one and two GPU warps' words (128 a warp), and past.
	{"B3/S23:T", 4096, 9}, {"B3/S23:P", 4096, 9}, {"B36/S23:T", 8192, 5}, {"B3/S23:T", 8192 + 40, 6},
}

// program compiles c's notation for its board and the packed engine's view
// of it.
func program(t testing.TB, c testCase) (*rules.Program, Rule, Board) {
	t.Helper()
	r, err := golly.Parse(fmt.Sprintf("%s%d,%d", c.notation, c.w, c.h))
	if err != nil {
		t.Fatal(err)
	}
	p, err := golly.Compile(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	birth, survive, ok := r.OuterTotalistic()
	if !ok {
		t.Fatalf("%s: not outer-totalistic", c.notation)
	}
	b, err := rules.BoardOf(p)
	if err != nil || b.W != c.w || b.H != c.h {
		t.Fatalf("%s: board %+v, %v; want %dx%d", c.notation, b, err, c.w, c.h)
	}
	return p, Rule{Birth: birth, Survive: survive, Torus: r.Topo.Torus}, Board{W: b.W, H: b.H, Off: p.Fields[b.Field].Off}
}

// TestStepTwinMatchesEngine holds the Go twin of the packed kernel to the
// rules engine running the notation's compiled program: the same boards
// after every step and the same firings, for every case.
func TestStepTwinMatchesEngine(t *testing.T) {
	const n, steps = 3, 12
	for _, c := range twinCases {
		t.Run(fmt.Sprintf("%s_%dx%d", c.notation, c.w, c.h), func(t *testing.T) {
			p, r, b := program(t, c)
			st := rules.Generate(p, n, 7)
			packed := make([]uint32, b.PackedLen(n))
			if !Pack(st, b, packed) {
				t.Fatal("Pack refused a generated board")
			}
			next := make([]uint32, len(packed))
			for step := 1; step <= steps; step++ {
				res, err := rules.CPU{}.Run(context.Background(), p, st, rules.Options{Steps: 1})
				if err != nil {
					t.Fatal(err)
				}
				changed := make([]int64, n)
				Step(packed, next, n, b, r, changed)
				packed, next = next, packed
				var total int64
				for _, k := range changed {
					total += k
				}
				if total != res.FiredTotal[0] {
					t.Fatalf("step %d: twin changed %d cells, the engine fired %d", step, total, res.FiredTotal[0])
				}
				want := &rules.States{N: n, Words: st.Words, Data: slices.Clone(st.Data)}
				Unpack(packed, want, b)
				if !slices.Equal(want.Data, st.Data) {
					t.Fatalf("step %d: boards differ", step)
				}
			}
		})
	}
}

// TestPackRoundTrip: Unpack(Pack(st)) is st, and the bits past W stay 0.
func TestPackRoundTrip(t *testing.T) {
	p, _, b := program(t, testCase{"B3/S23:T", 45, 6})
	st := rules.Generate(p, 2, 3)
	packed := make([]uint32, b.PackedLen(2))
	if !Pack(st, b, packed) {
		t.Fatal("Pack refused a generated board")
	}
	for r := range 2 * b.H { // a row is 2 words of cells (45 = 32 + 13) and 2 of padding
		if w := packed[4*r+1]; w>>13 != 0 {
			t.Fatalf("row %d: bits past W set: %#x", r, w)
		}
		if packed[4*r+2] != 0 || packed[4*r+3] != 0 {
			t.Fatalf("row %d: padding set", r)
		}
	}
	back := &rules.States{N: st.N, Words: st.Words, Data: make([]uint32, len(st.Data))}
	Unpack(packed, back, b)
	if !slices.Equal(back.Data, st.Data) {
		t.Fatal("round trip differs")
	}
}

// TestPackRefusesOtherValues: a cell of 2 cannot be packed (the compiled
// program reads it as 2 neighbours; the packed rule holds bits).
func TestPackRefusesOtherValues(t *testing.T) {
	p, _, b := program(t, testCase{"B3/S23:T", 8, 8})
	st := rules.Generate(p, 1, 3)
	st.Data[b.Off+17] = 2
	if Pack(st, b, make([]uint32, b.PackedLen(1))) {
		t.Fatal("Pack took a cell of 2")
	}
}
