package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// The CPU backend's results do not depend on the number of workers.
func TestCPUWorkersAgree(t *testing.T) {
	p := compileConfig(t, "sandpile.rules", map[string]string{"W": "8", "H": "8"})
	var ref string
	for _, w := range []int{1, 2, 7} {
		st := Generate(p, 37, 9)
		res := runCPU(t, p, st, Options{Steps: 500, UntilFixpoint: true, Workers: w, Trace: []int{3}})
		got := fmt.Sprint(st.Data, res.Fired, res.StableAt, res.Trace)
		if ref == "" {
			ref = got
		} else if got != ref {
			t.Fatalf("%d workers differ", w)
		}
	}
}

// States survive JSON and CSV round trips bit for bit, NaN and infinities too.
func TestStatesRoundTrip(t *testing.T) {
	p := compileSrc(t, `state { int a[3] ~ uniform(-5, 5)  float f[4] ~ uniform(-1.0, 1.0)  int k = 7 }`)
	st := Generate(p, 5, 3)
	f := st.State(2)[p.Fields[1].Off:]
	f[0], f[1], f[2] = math.Float32bits(float32(math.NaN())), math.Float32bits(float32(math.Inf(-1))), math.Float32bits(1e-40)
	var js bytes.Buffer
	list := make([]StateJSON, st.N)
	for s := range st.N {
		list[s] = StateJSON{p, st.State(s)}
	}
	if err := json.NewEncoder(&js).Encode(map[string]any{"states": list}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadStatesJSON(&js, "x.json", p)
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	csv.WriteString(strings.Join(Columns(p), ",") + "\n")
	for s := range st.N {
		csv.WriteString(strings.Join(CSVRecord(p, st.State(s), nil), ",") + "\n")
	}
	back2, err := ReadStatesCSV(strings.NewReader(csv.String()), "x.csv", p)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range st.Data {
		if back.Data[k] != w && !(isNaN(w) && isNaN(back.Data[k])) || back2.Data[k] != w && !(isNaN(w) && isNaN(back2.Data[k])) {
			t.Fatalf("word %d: %x, json %x, csv %x", k, w, back.Data[k], back2.Data[k])
		}
	}
	if st.State(0)[p.Fields[2].Off] != 7 {
		t.Error("default not applied")
	}
}

func isNaN(w uint32) bool { f := math.Float32frombits(w); return f != f }

func TestStatesErrors(t *testing.T) {
	p := compileSrc(t, `state { int a[2]  float f }`)
	for _, tc := range []struct{ in, want string }{
		{`[{"a": [1, 2], "f": 1}, {"a": [1], "f": 1}]`, `state 1: field "a": 1 values, the layout has 2`},
		{`[{"a": [1, 2]}]`, `state 0: missing field "f"`},
		{`[{"a": [1, 2], "f": 1, "g": 2}]`, `state 0: unknown field "g"`},
		{`[{"a": [1, 2.5], "f": 1}]`, `state 0: field "a": [1]: "2.5" is not an int32`},
		{`{"x": 1}`, `no "states" list`},
		{"[\n{\"a\": [1, 2], \n\"f\": }]", `line 3:`},
	} {
		_, err := ReadStatesJSON(strings.NewReader(tc.in), "s.json", p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %s", tc.in, err, tc.want)
		}
	}
	_, err := ReadStatesCSV(strings.NewReader("a[0],a[1],f\n1,2,x\n"), "s.csv", p)
	if err == nil || !strings.Contains(err.Error(), `s.csv:2: state 0: column "f": "x" is not a float32`) {
		t.Errorf("csv: %v", err)
	}
}
