package rules

import (
	"strings"
	"testing"
)

// A field with a default (= V) may be left out of a CSV header whole; a
// header that names some of its elements and not the others is a truncated
// or mistyped one, and reading the rest as the default hid it. A field with
// only a random initialiser (~ uniform, for --generate) has no default: a
// state file must give it (b471201 read it as 0).
func TestStatesCSVMissingColumn(t *testing.T) {
	p := compileSrc(t, `state { int c[3] = 0  int n = 5 }`)
	for _, tc := range []struct{ in, want string }{
		{"c[0],c[1],n\n1,1,2\n", `s.csv:1: no column "c[2]": the header has other elements of field "c"`},
		{"c[1],n\n1,2\n", `s.csv:1: no column "c[0]"`},
		{"n,c[0],c[2]\n1,1,1\n", `s.csv:1: no column "c[1]"`},
	} {
		_, err := ReadStatesCSV(strings.NewReader(tc.in), "s.csv", p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.in, err, tc.want)
		}
	}
	// Whole fields with defaults left out stay allowed.
	st, err := ReadStatesCSV(strings.NewReader("c[0],c[1],c[2]\n1,0,1\n"), "s.csv", p)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.State(0)[p.Fields[1].Off]; got != 5 {
		t.Errorf("n = %d, want its default 5", got)
	}
	g := compileSrc(t, `state { int c[2] ~ uniform(0, 1)  int u ~ uniform(0, 9) }`)
	if _, err := ReadStatesCSV(strings.NewReader("c[0],c[1]\n1,0\n"), "s.csv", g); err == nil ||
		!strings.Contains(err.Error(), `no column for field "u" (element 0) and it has no default`) {
		t.Errorf("a ~ uniform field left out: got %v", err)
	}
}
