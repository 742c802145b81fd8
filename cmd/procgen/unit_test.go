package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"plain failure", errors.New("boom"), 1},
		{"wrapped failure", fmt.Errorf("flame: %w", fs.ErrNotExist), 1},
		{"usage", usageErrorf("bad flag"), 2},
		{"wrapped usage", fmt.Errorf("config: %w", usageErrorf("bad")), 2},
		{"device", deviceError{errors.New("no cuda")}, 3},
		{"gpu unavailable", fmt.Errorf("open: %w", gpu.ErrUnavailable), 3},
		{"interrupted", fmt.Errorf("render: %w", context.Canceled), 130},
		{"interrupted beats usage", usageError{Err: context.Canceled}, 130},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exitCode(tt.err); got != tt.want {
				t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

func TestAsUsageKeepsUsage(t *testing.T) {
	ue := usageErrorf("x")
	if got := asUsage(ue); got != ue {
		t.Errorf("asUsage re-wrapped a usage error: %#v", got)
	}
	if asUsage(nil) != nil {
		t.Error("asUsage(nil) != nil")
	}
}

// isolate keeps run away from config files in the package directory and the
// developer's own configuration.
func isolate(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the host calibration
	for _, k := range configKeys() {
		t.Setenv(envName(k.Key), "")
	}
}

func TestRunInterrupted(t *testing.T) {
	isolate(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	// A cancelled context makes cobra's ExecuteContext still run the command;
	// only a command that fails counts as interrupted.
	code := run(ctx, []string{"compare", "missing-a.png", "missing-b.png"}, nil, &stdout, &stderr)
	if code != exitInterrupted {
		t.Errorf("exit code %d, want %d; stderr: %s", code, exitInterrupted, stderr.String())
	}
}

func TestRunIsRepeatable(t *testing.T) {
	isolate(t)
	for i := range 2 {
		var stdout, stderr bytes.Buffer
		args := []string{"--seed", "7", "config", "show"}
		if i == 1 {
			args = []string{"config", "show"}
		}
		if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr.String())
		}
		want := map[int]string{0: "seed: 7\n", 1: "seed: 1\n"}[i]
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("run %d: output lacks %q (state leaked between runs?):\n%s", i, want, stdout.String())
		}
	}
}

func TestProgressNotATerminal(t *testing.T) {
	var buf bytes.Buffer
	a := newApp(nil, &buf, &buf)
	report := a.newProgress(100, "rendering")
	for i := int64(0); i <= 100; i += 10 {
		report(i, 100)
	}
	if buf.Len() != 0 {
		t.Errorf("progress wrote to a non-terminal: %q", buf.String())
	}

	// A regular file is an *os.File but not a terminal.
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a = newApp(nil, f, f)
	a.newProgress(10, "x")(10, 10)
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Errorf("progress wrote %d bytes to a regular file", st.Size())
	}
}

func TestProgressShown(t *testing.T) {
	var buf bytes.Buffer
	report, _ := progressTo(&buf, true, 10, "rendering")
	report(5, 20) // the total may change as work is discovered
	report(20, 20)
	if !strings.Contains(buf.String(), "rendering") {
		t.Errorf("bar output lacks the description: %q", buf.String())
	}
}

func TestConvertSetting(t *testing.T) {
	tests := []struct {
		raw, kind, want any // kind: a value of the key's type
	}{
		{"42", uint64(0), uint64(42)},
		{42, uint64(0), uint64(42)},
		{3.0, uint64(0), uint64(3)},
		{3.5, uint64(0), nil},
		{-1, uint64(0), nil},
		{"-1", uint64(0), nil},
		{"true", false, true},
		{true, false, true},
		{"yes", false, nil},
		{"2", 0, 2},
		{2.5, 0, nil},
		{"cpu", "", "cpu"},
		{4, "", "4"},
		{map[string]any{"a": 1}, "", nil},
		{"0.25", 0.0, 0.25},
		{7, 0.0, 7.0},
		{"1.5s", time.Duration(0), 1500 * time.Millisecond},
		{"a, b", []string{}, []string{"a", "b"}},
		{[]any{"a", 1}, []string{}, []string{"a", "1"}},
	}
	for _, tt := range tests {
		got, ok := convertSetting(tt.raw, tt.kind)
		if ok != (tt.want != nil) || (ok && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("convertSetting(%#v, %T) = %#v, %v; want %#v", tt.raw, tt.kind, got, ok, tt.want)
		}
	}
}

func TestEveryConfigKeyHasADefault(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range configKeys() {
		if seen[k.Key] {
			t.Errorf("key %q listed twice", k.Key)
		}
		seen[k.Key] = true
		if k.Default == nil || k.Help == "" {
			t.Errorf("key %q lacks a default or help", k.Key)
		}
		if k.Key != strings.ToLower(k.Key) || strings.ContainsAny(k.Key, "_ ") {
			t.Errorf("key %q: want lower-case dotted keys (kebab-case words)", k.Key)
		}
		if _, ok := convertSetting(k.Default, k.Default); !ok {
			t.Errorf("key %q: default %#v has an unsupported type", k.Key, k.Default)
		}
	}
}
