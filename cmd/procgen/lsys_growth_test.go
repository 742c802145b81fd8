package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

func runOK(t *testing.T, args ...string) {
	t.Helper()
	var stderr bytes.Buffer
	if code := run(context.Background(), append([]string{"--quiet"}, args...), nil, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
	}
}

func summary(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := meshtest.Summarize(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGrowthFilesEqualSingleSteps: the file of step k from --all-steps is
// the mesh a run of -n k writes.
func TestGrowthFilesEqualSingleSteps(t *testing.T) {
	const n = 3
	dir := t.TempDir()
	src := "../../configs/lsys/tree3d.l"
	for _, ext := range []string{".glb", ".obj"} {
		runOK(t, "lsys", "derive", src, "-n", fmt.Sprint(n), "--all-steps", "-o", filepath.Join(dir, "grow", "%03d"+ext))
		files, _ := filepath.Glob(filepath.Join(dir, "grow", "*"+ext))
		if len(files) != n+1 {
			t.Fatalf("%s: %d step files, want %d", ext, len(files), n+1)
		}
		for k := 0; k <= n; k++ {
			single := filepath.Join(dir, fmt.Sprintf("single%d%s", k, ext))
			runOK(t, "lsys", "derive", src, "-n", fmt.Sprint(k), "-o", single)
			if got, want := summary(t, filepath.Join(dir, "grow", fmt.Sprintf("%03d%s", k, ext))), summary(t, single); got != want {
				t.Errorf("%s step %d:\n%s\nwant (-n %d):\n%s", ext, k, got, k, want)
			}
		}
	}
}

// TestGrowthGLBAnimation: one node per step at the scene's root, one
// animation with a STEP scale channel per node showing step k from k*T to
// (k+1)*T (the last to the end), valid glTF that assimp reads.
func TestGrowthGLBAnimation(t *testing.T) {
	const n, stepTime = 3, 0.5
	path := filepath.Join(t.TempDir(), "grow.glb")
	runOK(t, "lsys", "derive", "../../configs/lsys/tree3d.l", "-n", fmt.Sprint(n), "--all-steps", "--step-time", fmt.Sprint(stepTime), "-o", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	jl := binary.LittleEndian.Uint32(data[12:])
	var doc struct {
		Scenes []struct{ Nodes []int }
		Nodes  []struct {
			Name     string
			Children []int
		}
		Accessors []struct {
			BufferView, Count int
		}
		BufferViews []struct{ ByteOffset, ByteLength int }
		Animations  []struct {
			Channels []struct {
				Sampler int
				Target  struct {
					Node int
					Path string
				}
			}
			Samplers []struct {
				Input, Output int
				Interpolation string
			}
		}
	}
	if err := json.Unmarshal(data[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	bin := data[20+jl+8:]
	floats := func(acc, width int) []float32 {
		a := doc.Accessors[acc]
		v := doc.BufferViews[a.BufferView]
		out := make([]float32, a.Count*width)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(bin[v.ByteOffset+4*i:]))
		}
		return out
	}
	roots := doc.Scenes[0].Nodes
	if len(roots) != n+1 || len(doc.Animations) != 1 || len(doc.Animations[0].Channels) != n+1 {
		t.Fatalf("%d root nodes, %d animations: want %d nodes and one animation of %d channels", len(roots), len(doc.Animations), n+1, n+1)
	}
	anim := doc.Animations[0]
	for k, ch := range anim.Channels {
		if ch.Target.Node != roots[k] || ch.Target.Path != "scale" || len(doc.Nodes[roots[k]].Children) == 0 {
			t.Errorf("channel %d: node %d %s, want node %d scale with children", k, ch.Target.Node, ch.Target.Path, roots[k])
		}
		s := anim.Samplers[ch.Sampler]
		if s.Interpolation != "STEP" {
			t.Errorf("channel %d: %s interpolation", k, s.Interpolation)
		}
		times, scales := floats(s.Input, 1), floats(s.Output, 3)
		for i, tm := range times {
			at := float64(tm) + 1e-6 // the key in force just after tm
			want := float32(0)
			if at >= float64(k)*stepTime && (at < float64(k+1)*stepTime || k == n) {
				want = 1
			}
			if scales[3*i] != want || scales[3*i+1] != want || scales[3*i+2] != want {
				t.Errorf("step %d: scale %v at %g s, want %g", k, scales[3*i:3*i+3], tm, want)
			}
		}
		if last := times[len(times)-1]; math.Abs(float64(last)-float64(k+1)*stepTime) > 1e-6 {
			t.Errorf("step %d: last key at %g s, want %g", k, last, float64(k+1)*stepTime)
		}
	}
	meshtest.ValidateGLB(t, data, false)
	if exe, err := exec.LookPath("assimp"); err == nil {
		out, err := exec.Command(exe, "info", path).CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("Animation Channels: 4")) {
			t.Errorf("assimp info: %v\n%s", err, out)
		}
	}
}
