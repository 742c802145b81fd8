package lsysjob

import (
	"errors"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/job"
)

func TestCheckOutputs(t *testing.T) {
	tests := []struct {
		outs    []string
		format  string
		wantErr string // "" when accepted
		want    []string
	}{
		{outs: []string{"a.obj", "b.PNG", "c.json", "d.txt", "e.glb"}, format: "txt",
			want: []string{".obj", ".png", ".json", ".txt", ".glb"}},
		{outs: []string{"-"}, format: "json", want: []string{".json"}},
		{outs: []string{"-", "a.obj"}, format: "glb", want: []string{".glb", ".obj"}},
		{outs: []string{"-"}, format: "png", wantErr: `invalid --format "png": want txt, json, obj, glb or ply for -o -`},
		{outs: []string{"-"}, format: "ply", want: []string{".ply"}},
		{outs: []string{"a.ply"}, format: "txt", want: []string{".ply"}},
		{outs: []string{"a.stl"}, format: "txt", wantErr: `output "a.stl": want a .obj, .png, .json or .txt file, a .glb (glTF) or a .ply`},
	}
	for _, tt := range tests {
		o := Options{Format: tt.format}
		err := o.checkOutputs(tt.outs)
		if tt.wantErr != "" {
			var ue job.UsageError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &ue) {
				t.Errorf("%v --format %s: got %v, want the usage error %q", tt.outs, tt.format, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v --format %s: %v", tt.outs, tt.format, err)
			continue
		}
		for i, out := range tt.outs {
			if got := o.format(out); got != tt.want[i] {
				t.Errorf("%v --format %s: %s is written as %q, want %q", tt.outs, tt.format, out, got, tt.want[i])
			}
		}
	}
}

func TestModuleCap(t *testing.T) {
	tests := []struct {
		max, mem uint64
		want     int64
		byMemory bool
	}{
		{max: 1000, mem: 1 << 30, want: 1000},
		{max: 1 << 40, mem: 48 << 20, want: 1 << 20, byMemory: true},
		{max: 1 << 20, mem: 48 << 20, want: 1 << 20}, // exactly what memory holds
		{max: 5, mem: 47, want: 0, byMemory: true},
	}
	for _, tt := range tests {
		n, byMemory := ModuleCap(Options{MaxModules: tt.max}, tt.mem)
		if n != tt.want || byMemory != tt.byMemory {
			t.Errorf("ModuleCap(--max-modules %d, memory %d) = %d, %v; want %d, %v", tt.max, tt.mem, n, byMemory, tt.want, tt.byMemory)
		}
	}
}
