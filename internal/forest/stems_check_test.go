package forest

import (
	"fmt"
	"strings"
	"testing"
)

// Unit sanity: each suspicious stem map gives a warning naming the flag
// that fixes it; a clean one gives none.
func TestStemUnitWarnings(t *testing.T) {
	plot := func(header string, row func(i int) string) string {
		var b strings.Builder
		b.WriteString(header + "\n")
		for i := 0; i < 40; i++ {
			b.WriteString(row(i) + "\n")
		}
		return b.String()
	}
	for _, c := range []struct {
		name, doc string
		o         StemOptions
		want      []string // substrings of the warnings, in order; none: no warning
	}{
		{"clean", plot("x,y,sp,dbh", func(i int) string { return fmt.Sprintf("%d,%d,a,%d", i*2, i%7*10, 10+i) }), StemOptions{}, nil},
		{"degrees", plot("lon,lat,x,y,sp,dbh", func(i int) string {
			return fmt.Sprintf("0,0,%.6f,%.6f,a,30", -79.8461+float64(i)*1e-5, 9.1543+float64(i%5)*1e-5)
		}), StemOptions{}, []string{"longitude and latitude in degrees", "--x-col and --y-col"}},
		{"tiny span", plot("x,y,sp,dbh", func(i int) string { return fmt.Sprintf("%d,%d,a,30", i%3, i%2) }),
			StemOptions{}, []string{"span only 2 x 1 m", "--x-col and --y-col"}},
		{"dbh in mm", plot("x,y,sp,dbh", func(i int) string { return fmt.Sprintf("%d,%d,a,%d", i*3, i%9*5, 100+i*40) }),
			StemOptions{}, []string{"DBH above 500 cm", "--dbh-unit mm"}},
		{"four plots", plot("site,x,y,sp,dbh", func(i int) string {
			return fmt.Sprintf("P%d,%d,%d,a,30", i%4, i/4*9, i%11*8)
		}), StemOptions{}, []string{`4 plots (column "site": "P0", "P1", "P2", "P3")`, "--where site=P0"}},
		{"one plot picked", plot("site,x,y,sp,dbh", func(i int) string {
			return fmt.Sprintf("P%d,%d,%d,a,30", i%4, i/4*9, i%11*8)
		}), StemOptions{Where: mustConds(t, "site=P2")}, nil},
		{"adjacent plots", plot("plot,x,y,sp,dbh", func(i int) string {
			return fmt.Sprintf("Q%d,%d,%d,a,30", i%2, i%2*100+i%10*9, i%7*12)
		}), StemOptions{}, nil},
	} {
		m, err := ReadStems(strings.NewReader(c.doc), "s.csv", c.o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(c.want) == 0 {
			if len(m.Warnings) != 0 {
				t.Errorf("%s: unexpected warnings %q", c.name, m.Warnings)
			}
			continue
		}
		if len(m.Warnings) != 1 {
			t.Errorf("%s: warnings %q, want one", c.name, m.Warnings)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(m.Warnings[0], w) {
				t.Errorf("%s: warning %q lacks %q", c.name, m.Warnings[0], w)
			}
		}
	}
}

// Rows with a field too many are errors, like short ones; a decimal comma
// behind a non-numeric field is named as the likely cause.
func TestStemFieldErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"x,y,sp,dbh\n1,2,a,30\n3,4,b,31,\n", "s.csv:3: 5 fields, but the header names 4: a field too many"},
		{"x,y,sp,dbh\n1,2,a,30\n3,4,b,31,5\n", "(a file whose fields are separated by semicolons or tabs needs --delimiter"},
		{"x\ty\tsp\tdbh\n1\t2\ta\t30\tx\n", "s.csv:2: 5 fields, but the header names 4"},
		{"x;y;sp;dbh\n1;2,5;a;30\n", `s.csv:2: y (column "y"): "2,5" is not a number: it looks like a decimal comma`},
		{"x;y;sp;dbh\n1;2;a;31,5\n", `dbh (column "dbh"): "31,5" is not a number: it looks like a decimal comma`},
		{"x;y;sp;dbh\n1;2;a;3x\n", `"3x" is not a number`},
	} {
		_, err := ReadStems(strings.NewReader(c.doc), "s.csv", StemOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.doc, err, c.want)
		}
		if err != nil && strings.Contains(c.want, `"3x"`) && strings.Contains(err.Error(), "decimal comma") {
			t.Errorf("%q: blames a decimal comma: %v", c.doc, err)
		}
	}
}

// A species without theta (and no default) says theta is not set, not
// that 0 is invalid; likewise d and the lognormal's x0 and xb. A 0 the file
// gives is out of range, not unset (it used to read "theta not set").
func TestSpeciesNotSet(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"species:\n  a: {str: 1, d: 1e-4, theta: 0}\n", `species "a": invalid theta 0: want a Weibull shape in 0.1..20`},
		{"defaults: {theta: 0}\nspecies:\n  a: {str: 1, d: 1e-4}\n", `species "a": invalid theta 0`},
		{"species:\n  a: {str: 1, d: 0, theta: 3}\n", `species "a": invalid d 0: want a positive`},
		{"species:\n  a: {str: 1, kernel: lognormal, x0: 0, xb: 1}\n", `species "a": invalid x0 0`},
		{"species:\n  a: {str: 1, kernel: lognormal, x0: 5, xb: 0}\n", `species "a": invalid xb 0`},
	} {
		tab, err := ParseSpecies(strings.NewReader(c.doc), "v.yaml")
		if err != nil {
			t.Fatal(err)
		}
		_, err = tab.Resolve([]string{"a"}, false)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "not set") {
			t.Errorf("%q: error %v, want %q", c.doc, err, c.want)
		}
	}
	for _, c := range []struct{ doc, want string }{
		{"species:\n  a: {str: 1, d: 1e-4}\n", `species "a": theta not set`},
		{"species:\n  a: {str: 1, theta: 3}\n", `species "a": d not set`},
		{"species:\n  a: {str: 1, kernel: lognormal}\n", `species "a": x0 and xb not set`},
		{"species:\n  a: {str: 1, kernel: lognormal, x0: 5}\n", `species "a": x0 and xb not set`},
	} {
		tab, err := ParseSpecies(strings.NewReader(c.doc), "v.yaml")
		if err != nil {
			t.Fatal(err)
		}
		_, err = tab.Resolve([]string{"a"}, false)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "invalid") {
			t.Errorf("%q: error %v, want %q", c.doc, err, c.want)
		}
	}
}
