package flame

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestArtistsFilters counts, per filter_type and filter_kernel, the
// artists' corpus flames (issue 32) procgen now filters with their own
// JWildfire kernel, and checks the counts against the attributes as the
// files spell them, read independently of the parser. It reads ../shared
// and skips without it.
func TestArtistsFilters(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(artistsDir, "flames", "*.flame"))
	if len(files) == 0 {
		t.Skipf("no artists' corpus at %s", artistsDir)
	}
	attrRe := regexp.MustCompile(`<(?:jwf-)?flame\s[^>]*>`)
	kernelRe := regexp.MustCompile(`\sfilter_kernel="([^"]*)"`)
	typeRe := regexp.MustCompile(`\sfilter_type="([^"]*)"`)
	written := map[string]int{} // "type/kernel" as the files spell them
	parsed := map[string]int{}
	own, approx, flam3 := 0, 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, tag := range attrRe.FindAll(data, -1) {
			k, ty := kernelRe.FindSubmatch(tag), typeRe.FindSubmatch(tag)
			if k != nil || ty != nil {
				key := "-/"
				if ty != nil {
					key = string(ty[1]) + "/"
				}
				if k != nil {
					key += string(k[1])
				}
				written[key]++
			}
		}
		gs, _, err := ParseFile(f, ParseOptions{})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		for _, g := range gs {
			k := g.SpatialFilterKernel
			if k == KernelNone {
				flam3++
				continue
			}
			parsed[g.SpatialFilteringType.String()+"/"+k.String()]++
			// Rendered with its own kernel: the table a render filters
			// with (CPU and GPU alike) is JWildfire's.
			want, ww, err := jwfSpatialFilter(k, g.FilterRadius, g.Supersample)
			got, gw, gerr := buildSpatialFilter(g.FilterShape, k, g.FilterRadius, g.Supersample)
			if err != nil || gerr != nil || ww != gw || !slices.Equal(want, got) {
				t.Errorf("%s %q: not filtered with its %s (%v %v)", filepath.Base(f), g.Name, k, err, gerr)
				continue
			}
			own++
			if k.sharpening() || k.adaptive() {
				approx++
			}
		}
	}
	if len(written) == 0 {
		t.Fatal("no flame of the corpus names a JWildfire filter")
	}
	if fmt.Sprint(written) != fmt.Sprint(parsed) {
		t.Errorf("files write %v, parsed %v", written, parsed)
	}
	keys := make([]string, 0, len(parsed))
	for k := range parsed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s %d;", k, parsed[k])
	}
	t.Logf("artists' flames filtered with their own JWildfire kernel: %d (%s); of them %d with a sharpening kernel "+
		"whose density procgen filters with the kernel, not a Gaussian; %d flames with flam3's filter_shape",
		own, strings.TrimSuffix(strings.TrimSpace(b.String()), ";"), approx, flam3)
}
