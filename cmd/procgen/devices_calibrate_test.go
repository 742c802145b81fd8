package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/gpu"
)

// procgen devices --calibrate writes the calibration atomically where
// --calibration says, prints every probe, and the reference table at -v;
// a later run of auto on this host applies it.
func TestDevicesCalibrate(t *testing.T) {
	if testing.Short() {
		t.Skip("the full calibration takes seconds")
	}
	isolate(t)
	path := filepath.Join(t.TempDir(), "sub", "cal.json")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-v", "--calibration", path, "devices", "--calibrate"}, nil,
		&stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// internal/device checks every probe's row; here, that the table is printed.
	for _, key := range []string{"flame", "pga", "rules-1core"} {
		if !strings.Contains(stdout.String(), "  "+key+" ") {
			t.Errorf("no %s row in:\n%s", key, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "var calibrationReference = calibrationRef{") ||
		!strings.Contains(stderr.String(), "wrote "+path) {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	// A factor outside the model's range means this host ran a probe over
	// 10x slower than the reference host (a loaded 2-core machine running
	// other test packages at once): the file was still read back and
	// checked, which is what this test is about.
	if st := device.New(device.Settings{Device: "auto", Calibration: path}, &logger{w: io.Discard}).CalibrationStatus(); !st.Applies {
		if !strings.Contains(st.Why, "_factor") || !strings.Contains(st.Why, "out of [") {
			t.Errorf("the calibration written does not apply: %+v", st)
		} else {
			t.Logf("the calibration was read back but this host is out of the model's range: %s", st.Why)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("left beside the file: %v", entries)
	}
	// An explicit --device cuda that cannot be met exits 3 before probing.
	if !gpu.Probe().Available {
		stderr.Reset()
		code := run(context.Background(), []string{"--device", "cuda", "--calibration", path, "devices", "--calibrate"},
			nil, io.Discard, &stderr)
		if code != exitNoDevice || !strings.Contains(stderr.String(), "calibrate: cannot use --device cuda") {
			t.Errorf("--device cuda without a GPU: exit %d: %s", code, stderr.String())
		}
	}
	// --calibration none has nowhere to write; --check with it is refused.
	for _, args := range [][]string{
		{"--calibration", "none", "devices", "--calibrate"},
		{"devices", "--calibrate", "--check"},
	} {
		stderr.Reset()
		if code := run(context.Background(), args, nil, io.Discard, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d: %s", args, code, exitUsage, stderr.String())
		}
	}
}
