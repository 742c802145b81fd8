package device

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// The human report aligns its key: value lines (each section on its own:
// a line without a tab ends tabwriter's column), says why CUDA is missing,
// and lists each GPU in a table; the JSON report keeps its field names.
func TestWriteReport(t *testing.T) {
	r := Report{
		CPU:         CPUReport{LogicalCores: 8, GOMAXPROCS: 4},
		Calibration: CalibrationStatus{Path: "/c/calibration.json", Why: "none"},
	}
	none := r
	none.CUDA = gpu.Report{Reason: "no driver"}
	one := r
	one.CUDA = gpu.Report{BuiltWithCUDA: true, Available: true, DriverVersion: 12040,
		EmbeddedArchs: []string{"sm_80", "sm_90"},
		Devices:       []gpu.DeviceInfo{{Ordinal: 0, Name: "H200", Major: 9, SMs: 132, MemoryBytes: 3 << 30, Runnable: true}}}
	for _, tc := range []struct {
		name string
		r    Report
		want []string
		not  []string
	}{
		{"no cuda", none, []string{"CPU\n", "  model:             unknown\n", "  logical cores:     8\n",
			"  auto calibration:  /c/calibration.json: none\n", "CUDA\n  built with CUDA:  no\n", "  available:        no: no driver\n"},
			[]string{"driver supports", "NAME"}},
		{"one gpu", one, []string{"  available:         yes\n", "  driver supports:   CUDA 12.4\n",
			"  embedded kernels:  sm_80 sm_90\n", "\n  #  NAME  CC   SMS  MEMORY   RUNNABLE\n", "  0  H200  9.0  132  3.0 GiB  yes\n"}, nil},
	} {
		var b bytes.Buffer
		if err := WriteReport(&b, tc.r, false); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, b.String())
			}
		}
		for _, w := range tc.not {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: %q in\n%s", tc.name, w, b.String())
			}
		}
	}
	var b bytes.Buffer
	if err := WriteReport(&b, one, true); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got["cpu"]["logical_cores"] != 8.0 || got["cpu"]["gomaxprocs"] != 4.0 || got["cuda"]["available"] != true ||
		got["calibration"] == nil {
		t.Errorf("json report: %s", b.String())
	}
	if _, ok := got["cpu"]["model"]; ok {
		t.Errorf("an unknown model is left out of the JSON: %s", b.String())
	}
}
