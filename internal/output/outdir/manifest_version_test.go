//go:build linux

package outdir

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// Directories written before manifest version 2 record SHA-256: --force
// must still recognise them (and still catch a same-size edit), and a new
// manifest records each file's XXH64.
func TestManifestVersions(t *testing.T) {
	content := "x,y\n1,2\n"
	sha := sha256.Sum256([]byte(content))
	for _, c := range []struct {
		name, doc, refusal string
	}{
		{"v1 intact", fmt.Sprintf(`{"procgen_manifest": 1, "files": [{"name": "a.csv", "size": %d, "sha256": %q}]}`,
			len(content), hex.EncodeToString(sha[:])), ""},
		{"v1 edited", fmt.Sprintf(`{"procgen_manifest": 1, "files": [{"name": "a.csv", "size": %d, "sha256": %q}]}`,
			len(content), strings.Repeat("0", 64)), "same size, different content"},
		{"v2 intact", fmt.Sprintf(`{"procgen_manifest": 2, "files": [{"name": "a.csv", "size": %d, "xxh64": "%016x"}]}`,
			len(content), xxhash.Sum64String(content)), ""},
		{"v2 no hash", fmt.Sprintf(`{"procgen_manifest": 2, "files": [{"name": "a.csv", "size": %d}]}`,
			len(content)), "same size, different content"},
		{"v3", `{"procgen_manifest": 3, "files": []}`, "not a procgen manifest of version 1 or 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(c.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Inspect(dir)
			switch {
			case c.refusal == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refusal != "" && (err == nil || !strings.Contains(err.Error(), c.refusal)):
				t.Fatalf("got %v, want a refusal saying %q", err, c.refusal)
			}
		})
	}
	// What Commit writes now.
	dir := filepath.Join(t.TempDir(), "out")
	d, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	stage := writeStage(t, d, map[string]string{"a.csv": content})
	if err := d.Commit(context.Background(), stage); err != nil {
		t.Fatal(err)
	}
	d, err = Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := readManifest(dir, d.id)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m["a.csv"].XXH64, fmt.Sprintf("%016x", xxhash.Sum64String(content)); got != want || m["a.csv"].SHA256 != "" {
		t.Errorf("manifest records xxh64 %q sha256 %q, want xxh64 %q only", got, m["a.csv"].SHA256, want)
	}
}
