package rulesjob

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/shard"
)

// FuzzValidate throws arbitrary state and step counts at the options
// (moved from cmd's FuzzSizeValidation, with its seeds): validation never
// panics, and a step count it accepts is within the bounds the run's
// int32 steps take.
func FuzzValidate(f *testing.F) {
	f.Add(int64(100), int64(5))
	f.Add(int64(1<<31-1), int64(1_000_000))
	f.Add(int64(-1), int64(-2))
	f.Add(int64(1e9), int64(2_000_000_000))
	f.Fuzz(func(t *testing.T, count, steps int64) {
		ro := Options{Generate: int(count), Steps: int(steps), Schedule: "compact", Layout: "C", States: "", TraceOut: "t"}
		if p, err := ro.validate(); err == nil && (p.steps < 0 || p.steps > maxSteps) {
			t.Fatalf("rules %+v: %d steps accepted", ro, p.steps)
		}
	})
}

type quietLog struct{ infos []string }

func (l *quietLog) Infof(format string, args ...any) { l.infos = append(l.infos, format) }
func (*quietLog) Debugf(string, ...any)              {}
func (*quietLog) Warnf(string, ...any)               {}

// prepare checks the command line in the order the command always has: a
// bad option or format before the shard is resolved, the shard's output
// before --jit; each a usage error (exit 2) with its message.
func TestPrepare(t *testing.T) {
	good := Options{Generate: 4, Steps: -1, Schedule: "compact", Layout: "C", TraceOut: "trace.jsonl"}
	env := &job.Env{Stdout: io.Discard, Stderr: io.Discard, Log: &quietLog{}}
	name := func(key string) string { return "--" + key }
	tests := []struct {
		name      string
		o         Options
		req       Request
		shardSpec string
		want      string // in the error; "" for none
		resolved  bool   // the shard was asked for
		out       string
	}{
		{"no states", Options{Schedule: "compact", Layout: "C"}, Request{Format: "json"}, "", "no states: give --states FILE", false, ""},
		{"bad format", good, Request{Format: "xml"}, "", `invalid --format "xml": want json or csv`, false, ""},
		{"two outputs", good, Request{Format: "json", Outputs: []string{"a.json", "b.json"}}, "", "-o given 2 times (a.json, b.json)", false, ""},
		{"bad shard", good, Request{Format: "json"}, "x", "bad shard", true, ""},
		{"shard json", good, Request{Format: "json"}, "1/2", "shards write CSV rows (--format csv", true, ""},
		{"shard csv", good, Request{Format: "json", Outputs: []string{"p.%d.csv"}}, "1/2", "", true, "p.1.csv"},
		{"jit never", Options{Generate: 4, Schedule: "compact", Layout: "C", Kernel: "generated"}, Request{Format: "json", JIT: "never"}, "",
			"--kernel generated with --jit never", true, ""},
		{"plain", good, Request{Format: "csv", Outputs: []string{"-"}}, "", "", true, "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resolved := false
			tc.req.Name = name
			tc.req.Shard = func() (shard.Shard, error) {
				resolved = true
				if tc.shardSpec == "x" {
					return shard.Shard{}, job.Usagef("bad shard")
				}
				return shard.Resolve(tc.shardSpec, func(string) string { return "" })
			}
			p, out, _, err := prepare(env, tc.o, tc.req)
			if resolved != tc.resolved {
				t.Errorf("shard resolved: %v, want %v", resolved, tc.resolved)
			}
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if out != tc.out || p.steps != 1 && tc.o.Steps < 0 {
					t.Errorf("out %q, steps %d", out, p.steps)
				}
				return
			}
			var ue job.UsageError
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
				t.Fatalf("error %v, want a usage error with %q", err, tc.want)
			}
		})
	}
}

// The result's format is its extension's; standard output and streams
// take --format; anything else is a usage error.
func TestOutputFormat(t *testing.T) {
	for out, want := range map[string]string{"": "csv", "-": "csv", "a.JSON": "json", "b.csv": "csv", "c.png": "png", "d.rle": "rle", "/dev/null": "csv", "e.txt": ""} {
		got, err := outputFormat(out, "csv")
		if got != want || (want == "") != (err != nil) {
			t.Errorf("outputFormat(%q) = %q, %v; want %q", out, got, err, want)
		}
	}
}
