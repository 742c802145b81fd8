package flamejob

import (
	"errors"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/shard"
)

// TestParseAnimOutput: -o picks the pipeline's output by its form, and
// every malformed -o is a usage error naming what it wants.
func TestParseAnimOutput(t *testing.T) {
	for _, tc := range []struct {
		out, kind, format string
		png16             bool
		err               string
	}{
		{out: "frames/f%05d.png", kind: "pattern"},
		{out: "f%d.JPG", kind: "pattern"},
		{out: "a.y4m", kind: "y4m"},
		{out: "-", kind: "y4m"},
		{out: "a.webm", kind: "video", format: "webm"},
		{out: "a.mkv", kind: "video", format: "matroska"},
		{out: "", err: "-o is required"},
		{out: "f%05d.gif", err: "must end in .png"},
		{out: "f%%.png", err: "exactly one integer verb"},
		{out: "f%s.png", err: "exactly one integer verb"},
		{out: "f%d.jpg", png16: true, err: "JPEG has 8 bits"},
		{out: "a.gif", err: "want a frame pattern"},
	} {
		got, err := parseAnimOutput(tc.out, Options{PNG16: tc.png16})
		if tc.err != "" {
			var ue job.UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want a usage error with %q", tc.out, err, tc.err)
			}
			continue
		}
		if err != nil || got.kind != tc.kind || got.format != tc.format {
			t.Errorf("%q: %+v, %v; want kind %s format %q", tc.out, got, err, tc.kind, tc.format)
		}
	}
}

// TestOutputName: one flame takes the file's name; several take their own
// names, made safe for a file name, or their index.
func TestOutputName(t *testing.T) {
	for _, tc := range []struct {
		path, name string
		i, n       int
		want       string
	}{
		{"dir/sheep.flam3", "x", 0, 1, "sheep.png"},
		{"-", "x", 0, 1, "stdin.png"},
		{"dir/sheep.flam3", "a b/c", 1, 3, "sheep-a_b_c.png"},
		{"dir/sheep.flam3", "", 7, 12, "sheep-007.png"},
	} {
		if got := outputName(tc.path, &flame.Genome{Name: tc.name}, tc.i, tc.n); got != tc.want {
			t.Errorf("outputName(%q, %q, %d, %d) = %q, want %q", tc.path, tc.name, tc.i, tc.n, got, tc.want)
		}
	}
}

// TestSequenceArgsCheck: the flag checks of 'flame sequence' are usage
// errors, and --rotate / --inter drop the edges / loops.
func TestSequenceArgsCheck(t *testing.T) {
	ok := SequenceArgs{Out: "s.flam3", Loops: 5, Edges: 6}
	for _, tc := range []struct {
		mod func(*SequenceArgs)
		err string
	}{
		{func(s *SequenceArgs) { s.Out = "" }, "-o FILE is required"},
		{func(s *SequenceArgs) { s.Rotate, s.Inter = true, true }, "exclude each other"},
		{func(s *SequenceArgs) { s.TemporalFilter = "sinc" }, "invalid --temporal-filter"},
		{func(s *SequenceArgs) { s.TemporalSamples = -1 }, "invalid --temporal-samples"},
		{func(s *SequenceArgs) { s.TemporalWidth = -1 }, "invalid --temporal-samples"},
	} {
		sf := ok
		tc.mod(&sf)
		var ue job.UsageError
		if err := sf.check(); !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%+v: %v, want a usage error with %q", sf, err, tc.err)
		}
	}
	rot := ok
	rot.Rotate = true
	if err := rot.check(); err != nil || rot.Edges != 0 || rot.Loops != 5 {
		t.Errorf("--rotate: %v, loops %d edges %d; want 5 and 0", err, rot.Loops, rot.Edges)
	}
	inter := ok
	inter.Inter = true
	if err := inter.check(); err != nil || inter.Loops != 0 || inter.Edges != 6 {
		t.Errorf("--inter: %v, loops %d edges %d; want 0 and 6", err, inter.Loops, inter.Edges)
	}
}

// logRecorder is a job.Logger that keeps what it is told.
type logRecorder struct{ info, debug, warn []string }

func (l *logRecorder) Infof(f string, a ...any)  { l.info = append(l.info, f) }
func (l *logRecorder) Debugf(f string, a ...any) { l.debug = append(l.debug, f) }
func (l *logRecorder) Warnf(f string, a ...any)  { l.warn = append(l.warn, f) }

// TestShardJobs: a shard keeps its own flames; one flame with the shard
// from the environment is rendered whole; a shard that owns none warns.
func TestShardJobs(t *testing.T) {
	jobs := func(n int) []flameJob {
		js := make([]flameJob, n)
		for i := range js {
			js[i].slot = i
		}
		return js
	}
	var log logRecorder
	if got := shardJobs(&log, jobs(5), 5, shard.Shard{Index: 1, Count: 2, From: shard.FromFlag}); len(got) != 2 || got[0].slot != 1 || got[1].slot != 3 {
		t.Errorf("shard 1/2 of 5: %+v, want slots 1 and 3", got)
	}
	if got := shardJobs(&log, jobs(1), 1, shard.Shard{Index: 1, Count: 4, From: "SLURM_ARRAY_TASK_ID"}); len(got) != 1 || len(log.debug) != 1 {
		t.Errorf("one flame, shard from the environment: %d flames, debug %q; want it whole", len(got), log.debug)
	}
	if got := shardJobs(&log, jobs(1), 1, shard.Shard{Index: 1, Count: 4, From: shard.FromFlag}); len(got) != 0 || len(log.warn) != 1 {
		t.Errorf("one flame, --shard 1/4: %d flames, warnings %q; want none and a warning", len(got), log.warn)
	}
}
