package output

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// oiioPixels reads an image's pixel values (as stored: integers for
// integer formats) back with OpenImageIO's
// oiiotool (Debian's openimageio-tools), a reader that shares no code with
// procgen: one slice of channel values per pixel, rows from the top. It
// skips the test when oiiotool is not installed.
func oiioPixels(t *testing.T, path string, args ...string) [][]float64 {
	t.Helper()
	tool, err := exec.LookPath("oiiotool")
	if err != nil {
		t.Skip("oiiotool not on PATH (apt-get install openimageio-tools)")
	}
	out, err := exec.Command(tool, append(args, "--dumpdata", path)...).CombinedOutput()
	if err != nil {
		t.Fatalf("oiiotool --dumpdata %s: %v\n%s", filepath.Base(path), err, out)
	}
	var px [][]float64
	for _, line := range strings.Split(string(out), "\n") {
		_, vals, ok := strings.Cut(strings.TrimSpace(line), "):")
		if !ok || !strings.HasPrefix(strings.TrimSpace(line), "Pixel (") {
			continue
		}
		// Integer formats are printed as stored, then normalised in
		// brackets: the stored values are kept.
		vals, _, _ = strings.Cut(vals, "(")
		var p []float64
		for _, f := range strings.Fields(vals) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("oiiotool value %q: %v", f, err)
			}
			p = append(p, v)
		}
		px = append(px, p)
	}
	return px
}

// toolOutput runs an independent reader on path and returns its output,
// skipping the test when the tool is not installed.
func toolOutput(t *testing.T, pkg, tool string, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s not on PATH (apt-get install %s)", tool, pkg)
	}
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", tool, args, err, out)
	}
	return string(out)
}
