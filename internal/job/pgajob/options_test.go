package pgajob

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/pga"
)

// FuzzValidate throws arbitrary sizes at the options: Validate must never
// panic, and whatever it accepts stays inside the bounds the evaluators
// and the memory estimate rely on.
func FuzzValidate(f *testing.F) {
	f.Add(1000.0, "20x10", int64(1000), int64(100))
	f.Add(1e12, "1x1", int64(20000), int64(1<<31-1))
	f.Add(math.NaN(), "0x5", int64(0), int64(-1))
	f.Add(1e14, "512x512", int64(400000), int64(1e9))
	f.Fuzz(func(t *testing.T, q float64, grid string, depth, count int64) {
		po := Options{Grid: grid, MaxShapes: int(count), MaxDepth: int(depth), Height: q, LotWidth: 20, LotDepth: 30,
			Street: 12, Scheduler: "persistent"}
		if po.Validate() == nil {
			cols, rows := po.GridSize()
			if po.MaxDepth > MaxDepth || cols*rows < 1 || po.MaxShapes < 1 {
				t.Fatalf("pga %+v accepted out of bounds", po)
			}
		}
	})
}

// Every output names its format: a file by its extension, standard output
// by --format; an .obj file brings its .mtl unless only statistics are
// written.
func TestOutputs(t *testing.T) {
	for _, c := range []struct {
		outs      []string
		format    string
		statsOnly bool
		err       string
		planned   []string
		geometry  bool
	}{
		{outs: []string{"a.obj", "b.json"}, format: "json", planned: []string{"a.obj", "b.json", "a.mtl"}, geometry: true},
		{outs: []string{"a.OBJ"}, format: "json", statsOnly: true, planned: []string{"a.OBJ"}},
		{outs: []string{"-"}, format: "glb", planned: []string{"-"}, geometry: true},
		{outs: []string{"-"}, format: "json", planned: []string{"-"}},
		{outs: []string{"a.png"}, format: "json", planned: []string{"a.png"}, geometry: true},
		{outs: []string{"a.PNG", "a.json"}, format: "json", statsOnly: true, planned: []string{"a.PNG", "a.json"}},
		{outs: []string{"-"}, format: "png", planned: []string{"-"}, geometry: true},
		{outs: []string{"-"}, format: "tif", err: `invalid --format "tif": want json, obj, glb or png for -o -`},
		{outs: []string{"a.tif"}, format: "json", err: `output "a.tif": want a .obj, .glb, .png or .json file`},
	} {
		o := Options{StatsOnly: c.statsOnly}
		err := o.checkOutputs(c.outs, c.format)
		if c.err != "" {
			var ue job.UsageError
			if err == nil || err.Error() != c.err || !errors.As(err, &ue) {
				t.Errorf("%v --format %s: %v, want the usage error %q", c.outs, c.format, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", c.outs, err)
		}
		if got := o.plannedPaths(c.outs); !slices.Equal(got, c.planned) {
			t.Errorf("%v: planned %v, want %v", c.outs, got, c.planned)
		}
		if got := o.writesGeometry(c.outs); got != c.geometry {
			t.Errorf("%v stats-only %v: writes geometry %v, want %v", c.outs, c.statsOnly, got, c.geometry)
		}
	}
}

// A limit met while evaluating names the flag to raise; --max-memory when
// it lowered the shape cap.
func TestLimitError(t *testing.T) {
	shapes := fmt.Errorf("pga: rule \"A\": more than 10 shapes (MaxShapes): %w", pga.ErrLimit)
	depth := fmt.Errorf("pga: rule \"A\": deeper than 5 (MaxDepth): %w", pga.ErrLimit)
	for _, c := range []struct {
		err               error
		capped, maxShapes int
		want              string
	}{
		{shapes, 10, 100, "raise --max-memory"},
		{shapes, 100, 100, "raise --max-shapes"},
		{depth, 10, 100, "raise --max-depth"},
		{errors.New("boom"), 10, 100, "g.pga: boom"},
	} {
		err := limitError("g.pga", c.err, c.capped, c.maxShapes, 1<<30)
		if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "g.pga: ") || !errors.Is(err, c.err) {
			t.Errorf("limitError(%v, %d, %d) = %v, want it to say %q", c.err, c.capped, c.maxShapes, err, c.want)
		}
	}
}
