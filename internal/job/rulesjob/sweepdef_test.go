package rulesjob

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDefines(t *testing.T) {
	cases := []struct {
		name    string
		in      []string
		fixed   map[string]string
		axes    []axis
		wantErr string
	}{
		{name: "fixed", in: []string{"W=64", " H = 32 "}, fixed: map[string]string{"W": "64", "H": "32"}},
		{name: "int range", in: []string{"N=2:10:4"}, axes: []axis{{"N", []string{"2", "6", "10"}}}},
		{name: "int range short of HI", in: []string{"N=1:4:2"}, axes: []axis{{"N", []string{"1", "3"}}}},
		{name: "float range", in: []string{"P=0.1:0.3:0.1"}, axes: []axis{{"P", []string{"0.1", "0.2", "0.3"}}}},
		{name: "float range keeps decimals", in: []string{"P=0.01:0.05:0.01"},
			axes: []axis{{"P", []string{"0.01", "0.02", "0.03", "0.04", "0.05"}}}},
		{name: "whole floats stay floats", in: []string{"P=1.0:2.0:0.5"}, axes: []axis{{"P", []string{"1.0", "1.5", "2.0"}}}},
		{name: "mixed range is float", in: []string{"P=0:1:0.5"}, axes: []axis{{"P", []string{"0.0", "0.5", "1.0"}}}},
		{name: "one value", in: []string{"P=3:3:1"}, axes: []axis{{"P", []string{"3"}}}},
		{name: "list", in: []string{"F=0.001,0.01"}, axes: []axis{{"F", []string{"0.001", "0.01"}}}},
		{name: "list split by the flag", in: []string{"F=0.001", "0.01", "W=8"},
			fixed: map[string]string{"W": "8"}, axes: []axis{{"F", []string{"0.001", "0.01"}}}},
		{name: "two axes", in: []string{"P=1,2", "F=3:4:1"}, axes: []axis{{"P", []string{"1", "2"}}, {"F", []string{"3", "4"}}}},
		{name: "LO above HI", in: []string{"P=0.5:0.1:0.1"}, wantErr: "--define P=0.5:0.1:0.1: LO 0.5 is above HI 0.1"},
		{name: "zero step", in: []string{"P=0:1:0"}, wantErr: "STEP 0: want a step above 0"},
		{name: "negative step", in: []string{"P=0:1:-1"}, wantErr: "STEP -1: want a step above 0"},
		{name: "two parts", in: []string{"P=0:1"}, wantErr: "want LO:HI:STEP, not 2 parts"},
		{name: "not a number", in: []string{"P=0:x:1"}, wantErr: `HI: "x" is not a number`},
		{name: "too many values", in: []string{"N=0:2000000:1"}, wantErr: "2000001 values, more than 1048576"},
		{name: "too many combinations", in: []string{"A=0:1023:1", "B=0:1023:1", "C=0:1:1"}, wantErr: "more than 1048576 combinations"},
		{name: "too many decimals", in: []string{"P=0:1:0.0000000001"}, wantErr: "more than 9 decimals"},
		{name: "mixed list", in: []string{"P=1,0.5"}, wantErr: "mix an int and a float"},
		{name: "duplicate value", in: []string{"P=1,2,1"}, wantErr: "value 1 is listed twice"},
		{name: "empty list item", in: []string{"P=1,,2"}, wantErr: `value 2: "" is not a number`},
		{name: "twice", in: []string{"P=1", "P=2"}, wantErr: "--define P given twice"},
		{name: "no name", in: []string{"=1"}, wantErr: "want NAME=VALUE"},
		{name: "leading bare value", in: []string{"0.2"}, wantErr: "want NAME=VALUE"},
		{name: "int over 32 bits", in: []string{"N=1,3000000000"}, wantErr: "does not fit in 32 bits"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fixed, axes, err := parseDefines(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.fixed == nil {
				tc.fixed = map[string]string{}
			}
			if !reflect.DeepEqual(fixed, tc.fixed) || !reflect.DeepEqual(axes, tc.axes) {
				t.Fatalf("got %v %v, want %v %v", fixed, axes, tc.fixed, tc.axes)
			}
		})
	}
}

func TestCombinations(t *testing.T) {
	got := combinations([]axis{{"P", []string{"1", "2"}}, {"F", []string{"a", "b", "c"}}})
	want := [][]string{{"1", "a"}, {"1", "b"}, {"1", "c"}, {"2", "a"}, {"2", "b"}, {"2", "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%v", got)
	}
}

// TestSweepReplicatesLimits: --replicates and the runs a sweep makes are
// bounded before anything is enumerated.
func TestSweepReplicatesLimits(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Define: []string{"P=1,2"}, Replicates: -1}, "invalid --replicates -1"},
		{Options{Define: []string{"P=0:1023:1"}, Replicates: 2000}, "a sweep of 1024 combinations x 2000 replicates: more than 1048576 runs"},
	} {
		_, err := tc.o.sweep(&plan{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("error %v, want %q", err, tc.want)
		}
	}
	sp, err := (&Options{Define: []string{"P=1,2", "F=0:2:1"}, Replicates: 3}).sweep(&plan{})
	if err != nil || sp.groups() != 18 {
		t.Fatalf("%v, %v", sp, err)
	}
}

// FuzzParseDefines: no -D text crashes or hangs the parser, and what it
// accepts is a bounded sweep of values --define reads back as numbers.
func FuzzParseDefines(f *testing.F) {
	for _, s := range []string{"P=0.1:0.3:0.1", "N=1,2,3", "W=64", "P=0:1:1e-9", "A=1:9:2", "F=0.001", "=", "P=::", "P=1e308:1e308:1e308"} {
		f.Add(s, "0.2")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		fixed, axes, err := parseDefines([]string{a, b})
		if err != nil {
			return
		}
		combos := 1
		for _, ax := range axes {
			if len(ax.values) == 0 {
				t.Fatalf("%q: axis %s without values", a, ax.name)
			}
			combos *= len(ax.values)
			if combos > maxCombos {
				t.Fatalf("%q %q: %d combinations", a, b, combos)
			}
			for _, v := range ax.values {
				if _, err := parseNumber(v); err != nil {
					t.Fatalf("%q: value %q: %v", a, v, err)
				}
			}
		}
		_ = fixed
	})
}
