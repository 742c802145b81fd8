package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// procgenOK runs procgen in process and fails the test on a non-zero exit.
func procgenOK(t *testing.T, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("procgen %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
}

// csvRows reads a CSV file's lines after its header.
func csvRows(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	return lines[1:]
}

// A forest-fire sweep of 3 x 2 values x 2 replicates writes, for every
// combination and replicate, the separate run's CSV rows (final states
// and --record-out) byte for byte after its columns P,F,replicate; the
// separate run of replicate r is the one with --seed 5+r.
func TestRulesSweepEqualsSeparateRuns(t *testing.T) {
	ff, _ := filepath.Abs("../../configs/rules/forestfire.rules")
	isolate(t)
	common := []string{"-q", "--device", "cpu", "rules", "run", ff, "-D", "W=12", "-D", "H=9", "--generate", "2",
		"--steps", "15", "--record", "count(cell == 1)", "--record", "count(cell == 2)"}
	procgenOK(t, append(append([]string{}, common...), "--seed", "5", "-D", "P=0.02:0.06:0.02", "-D", "F=0.001,0.05",
		"--replicates", "2", "-o", "sweep.csv", "--record-out", "sweep-rec.csv")...)
	states, recs := csvRows(t, "sweep.csv"), csvRows(t, "sweep-rec.csv")
	seenStates, seenRecs := 0, 0
	distinct := map[string]bool{}
	for _, p := range []string{"0.02", "0.04", "0.06"} {
		for _, f := range []string{"0.001", "0.05"} {
			for r := range 2 {
				out, rec := fmt.Sprintf("s-%s-%s-%d.csv", p, f, r), fmt.Sprintf("r-%s-%s-%d.csv", p, f, r)
				procgenOK(t, append(append([]string{}, common...), "--seed", strconv.Itoa(5+r), "-D", "P="+p, "-D", "F="+f,
					"-o", out, "--record-out", rec)...)
				lead := fmt.Sprintf("%s,%s,%d,", p, f, r)
				seenStates += matchRows(t, states, lead, csvRows(t, out))
				seenRecs += matchRows(t, recs, lead, csvRows(t, rec))
				distinct[strings.Join(csvRows(t, out), "\n")] = true
			}
		}
	}
	if seenStates != len(states) || seenStates != 12*2 || seenRecs != len(recs) || seenRecs != 12*16 {
		t.Fatalf("matched %d of %d state rows and %d of %d record rows", seenStates, len(states), seenRecs, len(recs))
	}
	if len(distinct) != 12 { // the runs differ: the comparison is not vacuous
		t.Fatalf("%d distinct separate runs of 12", len(distinct))
	}
}

// matchRows checks that the rows of all starting with lead are want's,
// each after lead, and returns how many there were.
func matchRows(t *testing.T, all []string, lead string, want []string) int {
	t.Helper()
	var got []string
	for _, row := range all {
		if rest, ok := strings.CutPrefix(row, lead); ok {
			got = append(got, rest)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows %s*: the sweep's\n%s\nthe separate run's\n%s", lead, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return len(got)
}

// Sweep usage errors exit 2 (a rule file's error 1) and write nothing.
func TestRulesSweepUsage(t *testing.T) {
	ff, _ := filepath.Abs("../../configs/rules/forestfire.rules")
	isolate(t)
	for _, tc := range []struct {
		args []string
		want string
		code int // a rule file's error is 1, as in any run
	}{
		{[]string{"-D", "P=0.5:0.1:0.1"}, "LO 0.5 is above HI 0.1", 2},
		{[]string{"-D", "P=0:1:0"}, "STEP 0: want a step above 0", 2},
		{[]string{"-D", "P=0.1,0.2", "--format", "json", "-o", "-"}, "a sweep writes CSV", 2},
		{[]string{"-D", "P=0.1,0.2", "--record", "sum(cell)"}, "name the CSV with --record-out", 2},
		{[]string{"-D", "W=8:16:8"}, "forestfire.rules:14:12: W is swept", 1},
		{[]string{"--replicates", "3", "--until-fixpoint"}, "a sweep runs --steps N", 2},
		{[]string{"-D", "P=0.1,0.2", "--generate", "2000000000", "--max-memory", "1GiB"}, "states", 2},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"-q", "--device", "cpu", "rules", "run", ff, "--generate", "1"}, tc.args...)
		if !slices.Contains(tc.args, "-o") {
			args = append(args, "-o", "sweep.csv")
		}
		code := run(context.Background(), args, nil, &stdout, &stderr)
		if want := tc.code; code != want || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tc.args, code, stderr.String(), want, tc.want)
		}
		if _, err := os.Stat("sweep.csv"); err == nil {
			t.Errorf("%v: sweep.csv written", tc.args)
			os.Remove("sweep.csv")
		}
	}
}
