package rulesjob

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// -D NAME=VALUE sets a constant; -D NAME=LO:HI:STEP and -D NAME=A,B,C sweep
// it (sweep.go). The flag is a string list that splits on commas, so an
// entry without "=" continues the list of the entry before it.

// axis is one swept constant and its values, as -D texts a separate run
// would be given (an int range gives ints; a float range gives every value
// with the same number of decimals, so 0.1:0.3:0.1 is 0.1, 0.2, 0.3).
type axis struct {
	name   string
	values []string
}

// maxCombos bounds the combinations a sweep enumerates before the states'
// memory is estimated (each combination is at least one state).
const maxCombos = 1 << 20

// maxDecimals bounds the decimals of a float range (exact in int64 steps).
const maxDecimals = 9

// parseDefines splits -D entries into single values and swept axes, in
// the order given.
func parseDefines(entries []string) (map[string]string, []axis, error) {
	fixed := map[string]string{}
	var axes []axis
	var joined []string
	for _, d := range entries {
		switch {
		case strings.TrimSpace(d) == "":
		case !strings.Contains(d, "=") && len(joined) > 0:
			joined[len(joined)-1] += "," + d
		default:
			joined = append(joined, d)
		}
	}
	seen := map[string]bool{}
	combos := 1
	for _, d := range joined {
		name, val, ok := strings.Cut(d, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if !ok || name == "" {
			return nil, nil, fmt.Errorf("invalid --define %q: want NAME=VALUE, NAME=LO:HI:STEP or NAME=A,B,C", d)
		}
		if seen[name] {
			return nil, nil, fmt.Errorf("--define %s given twice", name)
		}
		seen[name] = true
		var values []string
		var err error
		switch {
		case strings.Contains(val, ":"):
			values, err = parseRange(val)
		case strings.Contains(val, ","):
			values, err = parseList(val)
		default:
			fixed[name] = val
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("--define %s=%s: %v", name, val, err)
		}
		if combos > maxCombos/len(values) {
			return nil, nil, fmt.Errorf("--define %s=%s: the sweep has more than %d combinations", name, val, maxCombos)
		}
		combos *= len(values)
		axes = append(axes, axis{name: name, values: values})
	}
	return fixed, axes, nil
}

// number is a value of a -D list or range.
type number struct {
	text    string
	isFloat bool
	i       int64
	f       float64
}

func parseNumber(s string) (number, error) {
	s = strings.TrimSpace(s)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		if i > math.MaxInt32 || i < math.MinInt32 {
			return number{}, fmt.Errorf("%s does not fit in 32 bits", s)
		}
		return number{text: s, i: i, f: float64(i)}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return number{}, fmt.Errorf("%q is not a number", s)
	}
	return number{text: s, isFloat: true, f: f}, nil
}

// parseList reads A,B,C: numbers of one kind (all ints or all floats: a
// swept constant is one per-state field), none twice.
func parseList(val string) ([]string, error) {
	parts := strings.Split(val, ",")
	var out []string
	seen := map[float64]bool{}
	var first number
	for k, p := range parts {
		n, err := parseNumber(p)
		if err != nil {
			return nil, fmt.Errorf("value %d: %v", k+1, err)
		}
		if k == 0 {
			first = n
		} else if n.isFloat != first.isFloat {
			return nil, fmt.Errorf("values %s and %s mix an int and a float: write every value as a float (1.0) or as an int", first.text, n.text)
		}
		if seen[n.f] {
			return nil, fmt.Errorf("value %s is listed twice", n.text)
		}
		seen[n.f] = true
		out = append(out, n.text)
	}
	return out, nil
}

// parseRange reads LO:HI:STEP, HI included when a whole number of steps
// reaches it.
func parseRange(val string) ([]string, error) {
	parts := strings.Split(val, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("want LO:HI:STEP, not %d parts", len(parts))
	}
	var ns [3]number
	for k, p := range parts {
		n, err := parseNumber(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", [3]string{"LO", "HI", "STEP"}[k], err)
		}
		ns[k] = n
	}
	lo, hi, step := ns[0], ns[1], ns[2]
	switch {
	case step.f <= 0:
		return nil, fmt.Errorf("STEP %s: want a step above 0", step.text)
	case lo.f > hi.f:
		return nil, fmt.Errorf("LO %s is above HI %s", lo.text, hi.text)
	}
	if !lo.isFloat && !hi.isFloat && !step.isFloat {
		n := (hi.i-lo.i)/step.i + 1
		if n > maxCombos {
			return nil, fmt.Errorf("%d values, more than %d", n, maxCombos)
		}
		out := make([]string, n)
		for k := range out {
			out[k] = strconv.FormatInt(lo.i+int64(k)*step.i, 10)
		}
		return out, nil
	}
	dec := 1
	for _, n := range ns {
		d, err := decimals(n.f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", n.text, err)
		}
		dec = max(dec, d)
	}
	scale := math.Pow10(dec)
	l, h, s := math.Round(lo.f*scale), math.Round(hi.f*scale), math.Round(step.f*scale)
	if math.Abs(l) > 1<<53 || math.Abs(h) > 1<<53 {
		return nil, fmt.Errorf("LO or HI too large for %d decimals", dec)
	}
	count := math.Floor((h-l)/s) + 1
	if count > maxCombos {
		return nil, fmt.Errorf("%.0f values, more than %d", count, maxCombos)
	}
	out := make([]string, int(count))
	for k := range out {
		out[k] = strconv.FormatFloat((l+float64(k)*s)/scale, 'f', dec, 64)
	}
	return out, nil
}

// decimals is the fewest decimals that write f exactly as its text reads.
func decimals(f float64) (int, error) {
	for d := 0; d <= maxDecimals; d++ {
		if v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', d, 64), 64); v == f {
			return d, nil
		}
	}
	return 0, fmt.Errorf("more than %d decimals", maxDecimals)
}

// combinations enumerates the axes' values, the last axis fastest.
func combinations(axes []axis) [][]string {
	out := [][]string{{}}
	for _, a := range axes {
		next := make([][]string, 0, len(out)*len(a.values))
		for _, c := range out {
			for _, v := range a.values {
				next = append(next, append(append([]string(nil), c...), v))
			}
		}
		out = next
	}
	return out
}
