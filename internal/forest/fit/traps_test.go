package fit

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

func TestReadTraps(t *testing.T) {
	cases := []struct {
		in      string
		n       int
		species bool
		err     string
	}{
		{"x,y,area,count\n1,2,0.5,3\n", 1, false, ""},
		{"\ufeffGX, GY, Trap_Area, Seeds, SP\n1,2,0.5,3,ABLA\n# comment\n4,5,1,0,PICO\n", 2, true, ""},
		{"", 0, false, `^t\.csv: empty file`},
		{"x,y,count\n1,2,3\n", 0, false, `^t\.csv:1: no area`},
		{"x,y,area,count\n", 0, false, `^t\.csv: no traps`},
		{"x,y,area,count\n1,2,0.5,2.5\n", 0, false, `^t\.csv:2:4: count "2\.5": want a whole number`},
		{"x,y,area,count\n1,2,0,2\n", 0, false, `^t\.csv:2:3: area "0"`},
		{"x,y,area,count\n1,NaN,1,2\n", 0, false, `^t\.csv:2:2: y "NaN"`},
		{"x,y,area,count\n1,2,1\n", 0, false, `^t\.csv:2: 3 fields, want at least 4`},
		{"x,y,area,count,species\n1,2,1,3,\n", 0, false, `^t\.csv:2:5: empty species`},
		{"x,y,area,count\n1,2,1,-1\n", 0, false, `^t\.csv:2:4: count "-1"`},
		{"x,y,area,count\n1,\"2,1,3\n", 0, false, `^t\.csv:2:\d+: `},
	}
	for _, c := range cases {
		traps, sp, err := ReadTraps(strings.NewReader(c.in), "t.csv")
		if c.err != "" {
			if err == nil || !regexp.MustCompile(c.err).MatchString(err.Error()) {
				t.Errorf("%q: error %v, want %s", c.in, err, c.err)
			}
			continue
		}
		if err != nil || len(traps) != c.n || sp != c.species {
			t.Errorf("%q: %d traps, species %v, error %v; want %d, %v", c.in, len(traps), sp, err, c.n, c.species)
		}
	}
}

// FuzzReadTraps: any input gives traps that the fit can use (finite
// coordinates, a positive finite area, a count in range, a species when
// the file has the column) or an error that names the file.
func FuzzReadTraps(f *testing.F) {
	for _, s := range []string{
		"x,y,area,count\n1,2,0.5,3\n",
		"x,y,area,count,species\n1,2,0.5,3,ABLA\n4,5,1,0,PICO\n",
		"gx;gy;size;n\n1;2;3;4\n",
		"x,y,area,count\n1,\"2\n",
		"x,y,area,count\n1,2,1e308,1099511627776\n",
		"\ufeffx,y,area,count\n# c\n-1,-2,inf,3\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		traps, sp, err := ReadTraps(strings.NewReader(in), "f.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.csv") {
				t.Fatalf("error without the file name: %v", err)
			}
			if traps != nil {
				t.Fatalf("traps with an error: %v", err)
			}
			return
		}
		if len(traps) == 0 {
			t.Fatal("no traps and no error")
		}
		for _, tr := range traps {
			fin := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
			if !fin(tr.X) || !fin(tr.Y) || !(tr.Area > 0) || !fin(tr.Area) || tr.Count < 0 || tr.Count > maxCount {
				t.Fatalf("bad trap accepted: %+v", tr)
			}
			if sp && tr.Species == "" || !sp && tr.Species != "" || tr.Line < 2 {
				t.Fatalf("trap %+v with species column %v", tr, sp)
			}
		}
	})
}
