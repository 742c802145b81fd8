package golly

import (
	"strings"
	"testing"
)

func TestParseCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"B3/S23", "B3/S23"},
		{"b3/s23", "B3/S23"},
		{"B3S23", "B3/S23"},
		{"S23/B3", "B3/S23"},
		{"23/3", "B3/S23"},
		{"B3_S23", "B3/S23"},
		{"B36/S23", "B36/S23"},
		{"23/36", "B36/S23"},
		{"B2/S", "B2/S"},
		{"/3", "B3/S"},
		{"B3/S23V", "B3/S23V"},
		{"B245/S3H", "B245/S3H"},
		{"B3/S23:T20,10", "B3/S23:T20,10"},
		{"B3/S23:t20", "B3/S23:T20,20"},
		{"B3/S23:P30,20", "B3/S23:P30,20"},
		{"/2/3", "/2/3"},
		{"B2/S/C3", "/2/3"},
		{"B2/S/3", "/2/3"},
		{"2/13/21", "2/13/21"},
		{"12/34/3", "12/34/3"},
		{"/2/3V:T10,10", "/2/3V:T10,10"},
		{"B3/S23/C2", "B3/S23"},
		// Hensel: letters sorted, the shorter of a list and its '-' complement.
		{"B2ceikn/S12", "B2-a/S12"},
		{"B2-a/S12", "B2-a/S12"},
		{"B2nic/S", "B2cin/S"},
		{"B4-qjrtwz/S", "B4aceikny/S"},
		{"B2aceikn3/S", "B23/S"},
		{"B2-aceikn3/S", "B3/S"},
		{"B3/S2-i34q", "B3/S2-i34q"},
		// Larger than Life.
		{"R2,C0,M1,S2..3,B3..3,NM", "R2,C0,M1,S2..3,B3..3,NM"},
		{"R1,C0,M0,S2..3,B3..3,NM", "R1,C0,M0,S2..3,B3..3,NM"},
		{"R5,C0,M1,S34..58,B34..45,NM:T50,40", "R5,C0,M1,S34..58,B34..45,NM:T50,40"},
		{"R5,C255,M1,S2..3,B3..3,NM", "R5,C255,M1,S2..3,B3..3,NM"},
		{"r1,c3,m0,s2..3,b3..3,nn", "R1,C3,M0,S2..3,B3..3,NN"},
		{"R3,C0,M0,S1..1,B1..1,NC", "R3,C0,M0,S1..1,B1..1,NC"},
		{"1,3,3,3,4", "R1,C0,M1,S3..4,B3..3,NM"},
	} {
		r, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := r.String(); got != tc.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, tc.want)
		}
		// The canonical form reads back to itself.
		r2, err := Parse(r.String())
		if err != nil || r2.String() != r.String() {
			t.Errorf("round trip of %q: %v, %v", r.String(), r2, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "empty rule"},
		{"B9/S23", "9 neighbours: this neighbourhood has 8"},
		{"B3/S25V", "5 neighbours: this neighbourhood has 4"},
		{"B3/S23/C1", "number of states \"1\": want 2..256"},
		{"/2/300", "want 2..256"},
		{"B3", "want both B (birth) and S (survival)"},
		{"23", "want S/B counts"},
		{"B3/S2x", "letter 'x' does not go with 2 neighbours"},
		{"B1a/S", "letter 'a' does not go with 1 neighbours"},
		{"B5z/S", "letter 'z' does not go with 5 neighbours"},
		{"B2aa/S", "letter 'a' given twice"},
		{"B2-/S", "'-' without letters"},
		{"B33/S", "count 3 given twice"},
		{"B2a/S23V", "Hensel letters need the Moore neighbourhood"},
		{"B3/B3", "B given twice"},
		{"B03/S23", "B0 (birth with no live neighbour) is not supported"},
		{"B3/S23:K20,20", "Klein bottle"},
		{"B3/S23:S20", "sphere"},
		{"B3/S23:X20,20", "unknown topology"},
		{"B3/S23:T0,20", "a size of 0"},
		{"B3/S23:T20+1,20", "shifted or twisted"},
		{"B3/S23:T20,x", "grid size \"x\""},
		{"B3/S23:", "empty suffix"},
		{"B3/S23:T99999,2", "grid size 99999"},
		{"B/S/C/D", "more than three"},
		{"R2,C0,M1,S2..3,B3..3", "want Rr,Cc,Mm"},
		{"R2,C0,M2,S2..3,B3..3,NM", "\"2\": want a number 0..1"},
		{"R2,C0,M1,S3..2,B3..3,NM", "min above max"},
		{"R2,C0,M1,S2..3,B3..3,NQ", "neighbourhood \"Q\""},
		{"R2,C0,M1,S2..30,B3..3,NM", "above the neighbourhood's 25 cells"},
		{"R6,C0,M1,S2..3,B3..3,NM", "procgen generates code for at most 121"},
		{"R1,C0,M1,S2..3,B0..3,NM", "B0"},
		{"R2,C0,M1,S2-3,B3..3,NM", "want an interval"},
		{"R3,C0,M1,S2..3,B3..3,NM:T4,4", "smaller than twice the range"},
		{"\x80\x80B00", "column 1: byte 0x80: a rule is printable ASCII"},
	} {
		_, err := Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q): no error, want %q", tc.in, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want it to say %q", tc.in, err, tc.want)
		}
	}
}

// TestHenselPartition: for each neighbour count the letters' classes
// cover every configuration with that many live neighbours exactly
// once, so no letter was read off Golly's table wrong in a way that
// merges or splits classes.
func TestHenselPartition(t *testing.T) {
	for n := 1; n <= 7; n++ {
		var seen [256]int
		for _, cls := range henselClasses(n) {
			for cfg := range 256 {
				if cls[cfg>>6]&(1<<(cfg&63)) != 0 {
					seen[cfg]++
				}
			}
		}
		for cfg, k := range seen {
			ones := 0
			for b := range 8 {
				ones += cfg >> b & 1
			}
			if want := map[bool]int{true: 1, false: 0}[ones == n]; k != want {
				t.Errorf("count %d: configuration %08b is in %d classes, want %d", n, cfg, k, want)
			}
		}
	}
}

func TestSameRule(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"B3/S23", "23/3", true},
		{"B3/S23", "B3/S23:T20,20", true}, // a topology on one side only decides the board
		{"B3/S23:T20,20", "B3/S23:T30,20", false},
		{"B3/S23", "B36/S23", false},
		{"B2/S/C3", "/2/3", true},
		{"B2ceikn/S12", "B2-a/S12", true},
	} {
		a, _ := Parse(tc.a)
		b, _ := Parse(tc.b)
		if got := a.SameRule(b); got != tc.same {
			t.Errorf("SameRule(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"B3/S23", "23/3", "/2/3", "B2-a/S12", "B3/S23:T20,10", "R2,C0,M1,S2..3,B3..3,NM", "1,3,3,3,4", "B245/S3H", "B3S23"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			return
		}
		// Whatever parses has a canonical form that parses to itself and
		// compiles to a program.
		c := r.String()
		r2, err := Parse(c)
		if err != nil || r2.String() != c {
			t.Fatalf("Parse(%q) -> %q -> %v, %v", s, c, r2, err)
		}
		if _, err := Compile(r, map[string]string{"W": "8", "H": "8"}); err != nil && r.Topo.W == 0 {
			t.Fatalf("Compile(%q): %v", c, err)
		}
	})
}

// TestLargestCompiles: the largest neighbourhood accepted compiles within
// the kernels' code size on a plane with dying states (the costliest).
func TestLargestCompiles(t *testing.T) {
	for _, n := range []string{"R5,C256,M1,S2..3,B3..3,NM", "R5,C0,M0,S2..3,B3..3,NM:T64,64", "R5,C256,M1,S2..3,B3..3,NC", "R7,C256,M1,S2..3,B3..3,NN"} {
		r, err := Parse(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Compile(r, nil); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}

func TestOuterTotalistic(t *testing.T) {
	for _, c := range []struct {
		s           string
		birth, surv uint16
		ok          bool
	}{
		{"B3/S23", 1 << 3, 1<<2 | 1<<3, true},
		{"B36/S23:T64,64", 1<<3 | 1<<6, 1<<2 | 1<<3, true},
		{"B12345678/S012345678", 510, 511, true},
		{"B3/S23V", 0, 0, false},  // von Neumann
		{"B3/S23H", 0, 0, false},  // hexagonal
		{"B2-a/S12", 0, 0, false}, // Hensel letters
		{"/2/3", 0, 0, false},     // Generations
		{"R2,C0,M1,S2..3,B3..3,NM", 0, 0, false},
	} {
		r, err := Parse(c.s)
		if err != nil {
			t.Fatalf("%s: %v", c.s, err)
		}
		b, s, ok := r.OuterTotalistic()
		if ok != c.ok || b != c.birth || s != c.surv {
			t.Errorf("%s: OuterTotalistic() = %#x, %#x, %v; want %#x, %#x, %v", c.s, b, s, ok, c.birth, c.surv, c.ok)
		}
	}
}
