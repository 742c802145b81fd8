package rules

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func lifeBoard(t testing.TB, w, h int) *Program {
	t.Helper()
	return compileConfig(t, "life.rules", map[string]string{"W": fmt.Sprint(w), "H": fmt.Sprint(h)})
}

// TestReadRLEGlider: Golly's glider lands in the board's top-left corner,
// and after 4 generations it has moved one cell down and right.
func TestReadRLEGlider(t *testing.T) {
	p := lifeBoard(t, 8, 6)
	src := "#N Glider\n#C a comment\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n"
	st, err := ReadStatesRLE(strings.NewReader(src), "glider.rle", p)
	if err != nil {
		t.Fatal(err)
	}
	board := func() string {
		var sb strings.Builder
		for k, v := range field(p, st, 0, "c") {
			sb.WriteByte(".o"[v])
			if k%8 == 7 {
				sb.WriteByte('/')
			}
		}
		return sb.String()
	}
	if got, want := board(), ".o....../..o...../ooo...../......../......../......../"; got != want {
		t.Fatalf("board %s, want %s", got, want)
	}
	runCPU(t, p, st, Options{Steps: 4})
	if got, want := board(), "......../..o...../...o..../.ooo..../......../......../"; got != want {
		t.Fatalf("after 4 steps %s, want %s", got, want)
	}
	var out bytes.Buffer
	if err := WriteRLE(&out, p, st.State(0)); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "x = 8, y = 6\n$2bo$3bo$b3o!\n"; got != want {
		t.Fatalf("written %q, want %q", got, want)
	}
}

// TestRLERoundTrip: boards of random cells, two states and many (Golly's
// multi-state letters), written and read back, are the same; long lines
// wrap at 70 characters.
func TestRLERoundTrip(t *testing.T) {
	for _, tc := range []struct{ w, h, states int }{{40, 30, 2}, {13, 7, 3}, {50, 9, 256}, {1, 1, 2}, {70, 3, 2}} {
		src := fmt.Sprintf("const W = %d\nconst H = %d\nstate { int c[W * H] ~ uniform(0, %d) }\nrule r over k in 0..W * H when c[k] > 100000 { c[k] = 0 }\n", tc.w, tc.h, tc.states-1)
		p := compileSrc(t, src)
		st := Generate(p, 1, uint64(tc.w))
		// Some empty rows and row ends.
		for k := range tc.w {
			st.State(0)[k] = 0
		}
		var out bytes.Buffer
		if err := WriteRLE(&out, p, st.State(0)); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if len(line) > 70 {
				t.Fatalf("line of %d characters: %q", len(line), line)
			}
		}
		back, err := ReadStatesRLE(&out, "x.rle", p)
		if err != nil {
			t.Fatalf("%dx%d: %v\n%s", tc.w, tc.h, err, out.String())
		}
		if k := differ(p, st.Data, back.Data); k >= 0 {
			t.Fatalf("%dx%d, %d states: cell %d differs", tc.w, tc.h, tc.states, k)
		}
	}
}

// TestRLEErrors: bad patterns name file:line:col and what was expected.
func TestRLEErrors(t *testing.T) {
	p := lifeBoard(t, 8, 6)
	for _, tc := range []struct{ src, want string }{
		{"", "x.rle:1:1: no header"},
		{"#C only comments\n", "x.rle:2:1: no header"},
		{"x = 3\nbo!", "x.rle:1:1: header \"x = 3\": want \"x = W, y = H\""},
		{"x = a, y = 2\n", "x.rle:1:1: header: x = \"a\""},
		{"x = 9, y = 2\n9o!", "x.rle:1:1: the pattern is 9x2, larger than the board of 8x6"},
		{"#C c\nx = 3, y = 2\nbo$\n  4o!", "x.rle:4:4: cells past the pattern's 3x2"},
		{"x = 3, y = 2\nbo$2bZ!", "x.rle:2:6: unexpected 'Z'"},
		{"x = 3, y = 2\nbo$2bo", "x.rle:2:7: the pattern ends without '!'"},
		{"x = 3, y = 2\n3$o!", "x.rle:2:2: row 4 is past the pattern's height 2"},
		{"x = 3, y = 2\n2 o!", "x.rle:2:2: space inside a run count"},
		{"x = 3, y = 2\nzA!", "x.rle:2:1: unexpected 'z'"},
		{"x = 3, y = 2\nyZ!", "x.rle:2:1: bad multi-state cell \"yZ\""},
		{"x = 3, y = 2\no3!", "x.rle:2:3: a run count before '!'"},
	} {
		_, err := ReadStatesRLE(strings.NewReader(tc.src), "x.rle", p)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q...", tc.src, err, tc.want)
		}
	}
	q := compileSrc(t, "state { int c[16] ~ uniform(0, 1) int t }\nrule r over k in 0..16 { c[k] = 0 }\n")
	if _, err := ReadStatesRLE(strings.NewReader("x = 1, y = 1\no!"), "x.rle", q); err == nil || !strings.Contains(err.Error(), `field "t" has no default`) {
		t.Errorf("a field without a default: %v", err)
	}
	st := NewStates(p, 1)
	st.State(0)[3] = 256
	if err := WriteRLE(&bytes.Buffer{}, p, st.State(0)); err == nil || !strings.Contains(err.Error(), "holds 256") {
		t.Errorf("a cell of 256: %v", err)
	}
}

// FuzzReadRLE: no input crashes or hangs the reader; what it reads it
// writes back and reads again to the same board.
func FuzzReadRLE(f *testing.F) {
	for _, s := range []string{"x = 3, y = 3\nbob$2bo$3o!", "x = 4, y = 2, rule = B3/S23\n2A.pB$yO!", "#C\nx = 0, y = 0\n!", "x = 2, y = 2\n2$!"} {
		f.Add(s)
	}
	p := lifeBoard(f, 9, 7)
	f.Fuzz(func(t *testing.T, src string) {
		st, err := ReadStatesRLE(strings.NewReader(src), "f.rle", p)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.rle:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteRLE(&out, p, st.State(0)); err != nil {
			t.Fatal(err)
		}
		back, err := ReadStatesRLE(&out, "back.rle", p)
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		if k := differ(p, st.Data, back.Data); k >= 0 {
			t.Fatalf("word %d differs after a round trip", k)
		}
	})
}

// TestRLEHeaderRule: the rule is the rest of the header line, commas and
// all (Golly's R2,C0,... and :T40,40 rules were refused as bad headers).
func TestRLEHeaderRule(t *testing.T) {
	for _, tc := range []struct{ header, rule string }{
		{"x = 3, y = 3", ""},
		{"x = 3, y = 3, rule = B3/S23", "B3/S23"},
		{"x = 3, y = 3, rule = B3/S23:T40,40", "B3/S23:T40,40"},
		{"x=3,y=3,rule=R2,C0,M1,S2..3,B3..3,NM", "R2,C0,M1,S2..3,B3..3,NM"},
	} {
		rule, line, err := RLERule(strings.NewReader("#N glider\n"+tc.header+"\nbo$2bo$3o!\n"), "g.rle")
		if err != nil || rule != tc.rule || line != 2 {
			t.Errorf("RLERule(%q) = %q, %d, %v; want %q, 2", tc.header, rule, line, err, tc.rule)
		}
		p := compileSrc(t, "const W = 4\nconst H = 4\nstate { int c[W * H] }\nrule r over k in 0..W * H when 0 { c[k] = 1 }\n")
		if _, err := ReadStatesRLE(strings.NewReader(tc.header+"\nbo$2bo$3o!\n"), "g.rle", p); err != nil {
			t.Errorf("ReadStatesRLE with header %q: %v", tc.header, err)
		}
	}
}
