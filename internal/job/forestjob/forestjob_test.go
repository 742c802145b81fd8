package forestjob

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output/outdir"
)

// testForestRun is a finished run of one species on a 3x2 grid.
func testForestRun() *run {
	g := forest.Grid{Cell: 1, NX: 3, NY: 2}
	sp := forest.Species{Name: "a b/c", Kernel: forest.Weibull, STR: 1, Beta: 2, D: 1e-3, Theta: 3}
	dens := []float64{1, 2, 3, 4, 5, 6}
	return &run{
		o:             Options{Method: "exact", Boundary: "open"},
		p:             &Plan{outs: map[string]bool{"csv": true, "asc": true, "png": true}},
		grid:          g,
		stems:         &forest.StemMap{},
		res:           &forest.Resolution{Species: []forest.Species{sp}, Index: map[string]int{"a b/c": 0}},
		layers:        []forest.Layer{{Species: 0, Density: dens}, {Species: -1, Density: dens}},
		names:         []string{"a_b_c", "total"},
		stemsPerLayer: []int{0},
		timings:       map[string]float64{},
	}
}

// A failure while writing leaves neither the output directory nor the
// temporary one; success moves every file into place, also over an
// earlier run's directory, which leaves nothing of its own behind.
func TestForestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "rain")
	inspect := func() *outdir.Dir {
		t.Helper()
		d, err := outdir.Inspect(out)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	bad := testForestRun()
	bad.layers[1].Density = bad.layers[1].Density[:5] // the .asc writer refuses it
	bad.p.outs = map[string]bool{"asc": true}
	if err := bad.write(context.Background(), inspect(), time.Now(), time.Now()); err == nil {
		t.Fatal("a bad layer was written")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}

	first := testForestRun()
	first.p.outs = map[string]bool{"csv": true, "png": true, "asc": true}
	first.names = []string{"old", "total"}
	if err := first.write(context.Background(), inspect(), time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := testForestRun().write(context.Background(), inspect(), time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "old.csv")); err == nil {
		t.Error("a file of the earlier run survived the swap")
	}
	for _, f := range []string{"a_b_c.csv", "a_b_c.asc", "a_b_c.png", "total.csv", "total.asc", "total.png", "summary.json",
		outdir.ManifestName} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("temporary directories left: %v", entries)
	}
	b, err := os.ReadFile(filepath.Join(out, "a_b_c.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "x,y,species,density\n0.5,0.5,a b/c,1\n1.5,0.5,a b/c,2\n2.5,0.5,a b/c,3\n0.5,1.5,a b/c,4\n" +
		"1.5,1.5,a b/c,5\n2.5,1.5,a b/c,6\n"; string(b) != want {
		t.Errorf("csv:\n%s\nwant\n%s", b, want)
	}
}

func TestLayerFileNames(t *testing.T) {
	got := layerFileNames([]forest.Species{{Name: "Black Cherry"}, {Name: "total"}, {Name: "black cherry"}, {Name: "é"}})
	want := []string{"Black_Cherry", "total-2", "black_cherry-2", "_", "total"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("names %q, want %q", got, want)
		}
	}
	if csvField(`a,"b"`) != `"a,""b"""` || csvField("plain") != "plain" {
		t.Error("csv quoting")
	}
}

// --force over an output directory holding another user's file is a usage
// error (exit 2: job.UsageError) naming it, and the file stays; over procgen's own
// directory it is accepted.
func TestForestOutDirForceOwnership(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	out := filepath.Join(t.TempDir(), "rain")
	d, err := settleOutDir(out, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := testForestRun().write(context.Background(), d, time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := settleOutDir(out, true); err != nil {
		t.Fatalf("--force over procgen's own output: %v", err)
	}
	theirs := filepath.Join(out, "theirs.csv")
	if err := os.WriteFile(theirs, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, err = settleOutDir(out, true)
	var ue job.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "theirs.csv belongs to user 65534") {
		t.Errorf("--force over another user's file: want a usage error (exit 2), got %T: %v", err, err)
	}
	if _, err := os.Stat(theirs); err != nil {
		t.Error(err)
	}
}
