package lsys

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys/internal/mathgen"
)

// readConsts reads NAME and value from the lines of path that re matches
// (group 1 the name, group 2 the literal).
func readConsts(t *testing.T, path string, re *regexp.Regexp) map[string]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatalf("%s: %s: %v", path, m[1], err)
		}
		got[m[1]] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestMathConstants: mathconst.go and cuda/lsys_math_consts.cuh hold exactly the
// constants mathgen computes, bit for bit.
func TestMathConstants(t *testing.T) {
	want := mathgen.Constants()
	for _, src := range []struct {
		path string
		re   *regexp.Regexp
	}{
		{"mathconst.go", regexp.MustCompile(`^\s*k(\w+)\s*=\s*(\S+)`)},
		{"../../cuda/lsys_math_consts.cuh", regexp.MustCompile(`^#define LSYS_K_(\w+) \((\S+)\)`)},
	} {
		got := readConsts(t, src.path, src.re)
		if len(got) != len(want) {
			t.Errorf("%s: %d constants, mathgen has %d", src.path, len(got), len(want))
		}
		for _, c := range want {
			v, ok := got[c.Name]
			if !ok {
				t.Errorf("%s: %s missing", src.path, c.Name)
			} else if v != c.Value {
				t.Errorf("%s: %s = %v, mathgen computes %v (%s)", src.path, c.Name, v, c.Value, mathgen.Hex(c.Value))
			}
		}
	}
	// The compiled Go values, for a few (the file text is checked above).
	for _, c := range []struct {
		got, want float64
	}{{kSin3Hi + kSin3Lo, -1.0 / 6}, {kLn2A + kLn2B, kLn2Hi}, {kAtanTab8Hi, kPiO2Hi / 2}, {kInv3Hi, 1.0 / 3}} {
		if c.got != c.want {
			t.Errorf("constant %v, want %v", c.got, c.want)
		}
	}
}
