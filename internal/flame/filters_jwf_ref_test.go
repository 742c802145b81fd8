package flame

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// jwfFilterCases are the (kernel, oversample, radius) cases checked
// against JWildfire: every kernel, the corpus's radii (0, 0.2, 0.5, 0.75,
// 1) and a few more, a radius under JWildfire's epsilon, and the
// oversamples its files use.
func jwfFilterCases() [][3]string {
	var cases [][3]string
	for k := KernelNone + 1; k < numKernels; k++ {
		for _, ov := range []int{1, 2, 3} {
			for _, r := range []float64{0, 1e-9, 0.2, 0.3, 0.5, 0.6, 0.75, 1, 1.1, 1.7, 2.5} {
				cases = append(cases, [3]string{k.String(), strconv.Itoa(ov), strconv.FormatFloat(r, 'g', -1, 64)})
			}
		}
	}
	return cases
}

// TestJWildfireFilterReference builds each kernel's table with JWildfire's
// own FilterHolder and kernel classes (scripts/jwf-filter-harness.sh builds
// them; PROCGEN_JWF_HARNESS names the build) and compares size,
// sharpening/adaptive class and every coefficient with procgen's. It skips
// without the harness or java.
func TestJWildfireFilterReference(t *testing.T) {
	dir, java := jwfHarness(t, "JwfFilterHarness", "scripts/jwf-filter-harness.sh")
	cases := jwfFilterCases()
	var in bytes.Buffer
	for _, c := range cases {
		fmt.Fprintf(&in, "%s %s %s\n", c[0], c[1], c[2])
	}
	cmd := exec.Command(java, "-cp", dir, "JwfFilterHarness")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	var maxAbs, maxRel float64
	var worst string
	checked, tables, lines := 0, 0, 0
	for i := 0; sc.Scan(); i++ {
		lines++
		if i >= len(cases) {
			t.Fatalf("harness printed more than %d lines", len(cases))
		}
		c := cases[i]
		label := strings.Join(c[:], " ")
		k := FilterKernelNames[c[0]]
		ov, _ := strconv.Atoi(c[1])
		r, _ := strconv.ParseFloat(c[2], 64)
		f := strings.Fields(sc.Text())
		n, _ := strconv.Atoi(f[0])
		if got := jwfFilterSize(k, r, ov); got != n {
			t.Errorf("%s: size %d, JWildfire %d", label, got, n)
			continue
		}
		if sharp, adapt := f[1] == "1", f[2] == "1"; sharp != k.sharpening() || adapt != k.adaptive() {
			t.Errorf("%s: sharpening %v adaptive %v, JWildfire %v %v", label, k.sharpening(), k.adaptive(), sharp, adapt)
		}
		if len(f) != 3+n*n {
			t.Fatalf("%s: harness line has %d fields, want %d", label, len(f), 3+n*n)
		}
		table, tn := jwfFilterTable(k, r, ov)
		if n <= 1 {
			// FilterHolder.isEmpty: JWildfire does not filter.
			if table != nil {
				t.Errorf("%s: procgen builds a %dx%d table where JWildfire filters nothing", label, tn, tn)
			}
			checked++
			continue
		}
		tables++
		for j := 0; j < n*n; j++ {
			want, err := strconv.ParseFloat(f[3+j], 64)
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			want /= float64(ov * ov) // FilterHolder's table sums to oversample²
			d := math.Abs(table[j] - want)
			if d > maxAbs {
				maxAbs, worst = d, fmt.Sprintf("%s [%d]", label, j)
			}
			if want != 0 {
				maxRel = max(maxRel, d/math.Abs(want))
			}
			if d > 1e-12 {
				t.Errorf("%s: coefficient %d is %.17g, JWildfire %.17g", label, j, table[j], want)
			}
			checked++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// Anti-vacuity: every case answered, most of them real tables.
	if lines != len(cases) {
		t.Fatalf("harness answered %d of %d cases", lines, len(cases))
	}
	if tables < len(cases)/2 {
		t.Fatalf("only %d of %d cases compared a table", tables, len(cases))
	}
	t.Logf("%d cases (%d tables, %d coefficients): max |difference| %.3g (%s), max relative %.3g",
		len(cases), tables, checked, maxAbs, worst, maxRel)
}
