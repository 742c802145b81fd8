package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A 1024x1024 Life board (2^20 indices: past the GPU backend's 2^19) runs
// under --device auto on the CPU, and -v says why.
func TestRulesBoardBeyondGPURange(t *testing.T) {
	life, _ := filepath.Abs("../../configs/rules/life.rules")
	isolate(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-v", "--device", "auto", "rules", "run", life, "-D", "W=1024", "-D", "H=1024",
		"--generate", "1", "--steps", "2", "-o", "out.csv"}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if msg := stderr.String(); !strings.Contains(msg, "device: cpu (auto:") || !strings.Contains(msg, "1048576 indices") {
		t.Errorf("-v does not say why the run is on the CPU:\n%s", msg)
	}
	if fi, err := os.Stat("out.csv"); err != nil || fi.Size() < 2<<20 {
		t.Errorf("out.csv: %v", err)
	}
}
