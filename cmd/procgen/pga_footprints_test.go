package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// footprintsGLB builds configs/pga/footprints.pga (insets, outsets,
// skeleton roofs, facade splits, a texture and an instanced asset) on the
// lots of lotsFile and returns the GLB and stderr.
func footprintsGLB(t *testing.T, lotsFile string) ([]byte, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "f.glb")
	var stderr bytes.Buffer
	args := []string{"--device", "cpu", "pga", "city", "../../configs/pga/footprints.pga", "--lots", lotsFile, "-o", out}
	if code := run(context.Background(), args, nil, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	glb, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"EXT_mesh_gpu_instancing"`, `"TEXCOORD_0"`, `"mimeType":"image/png"`} {
		if !bytes.Contains(glb, []byte(want)) {
			t.Errorf("GLB lacks %s", want)
		}
	}
	return glb, stderr.String()
}

// The example for real footprints builds on the L, courtyard, U and plain
// lots, and its GLB (texture embedded, the air conditioner instanced) passes
// the Khronos validator where it is installed.
func TestFootprintsExampleGLB(t *testing.T) {
	glb, _ := footprintsGLB(t, "../../configs/pga/courtyard.geojson")
	meshtest.ValidateGLB(t, glb, true)
}

// PROCGEN_REAL_LOTS names a GeoJSON of real footprints (OpenStreetMap
// buildings in longitude/latitude, not shipped): every footprint builds with
// footprints.pga, and the GLB validates.
func TestFootprintsRealLots(t *testing.T) {
	file := os.Getenv("PROCGEN_REAL_LOTS")
	if file == "" {
		t.Skip("PROCGEN_REAL_LOTS not set (a GeoJSON of real building footprints)")
	}
	glb, stderr := footprintsGLB(t, file)
	t.Logf("%d bytes of GLB; %s", len(glb), stderr)
	meshtest.ValidateGLB(t, glb, true)
}
