package flame

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// artistsDir is the shared corpus of flames from JWildfire, Fractorium,
// Apophysis and others (issue 32); never copied into the repository.
const artistsDir = corpusDir + "/artists"

// artistsTally is one program's share of the artists' corpus.
type artistsTally struct {
	files, opened, flames, rendered, renderedFiles, fullFiles int
}

// TestArtistsCorpus opens every file of the artists' corpus and renders
// each flame tiny on the CPU, reporting per authoring program (from
// SOURCE.md) how many open and render, and which share of the corpus's
// variation uses (variations.tsv) procgen honours. Every file must open;
// render failures are reported, not fatal, until the variations they lack
// are written (issue 32 item 2).
func TestArtistsCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 700 flames")
	}
	if _, err := os.Stat(artistsDir); err != nil {
		t.Skipf("no artists' corpus at %s", artistsDir)
	}
	programs := artistsPrograms(t)
	files, err := filepath.Glob(filepath.Join(artistsDir, "flames", "*.flame"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no flames: %v", err)
	}
	tally := map[string]*artistsTally{}
	uses, artUses, tsvNames := artistsUses(t, files)
	unhonoured, unhonouredArt := 0, 0
	missing := map[string]int{} // unhonoured name -> xform uses
	for _, f := range files {
		prog := programs[filepath.Base(f)]
		if prog == "" {
			prog = "unlisted"
		}
		tl := tally[prog]
		if tl == nil {
			tl = &artistsTally{}
			tally[prog] = tl
		}
		tl.files++
		gs, ws, err := ParseFile(f, ParseOptions{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		tl.opened++
		n := artistsUnhonoured(ws, tsvNames, missing)
		unhonoured += n
		if !strings.Contains(filepath.Base(f), "_sidwellr_") {
			unhonouredArt += n
		}
		if n == 0 {
			tl.fullFiles++
		}
		all := true
		for _, g := range gs {
			tl.flames++
			_, _, err := (CPU{Workers: 1}).Render(context.Background(), g, Options{Width: 32, Height: 32, Quality: 1, Supersample: 1, Seed: 1})
			if err != nil {
				all = false
				t.Logf("%s: flame %q: render: %v", filepath.Base(f), g.Name, err)
				continue
			}
			tl.rendered++
		}
		if all {
			tl.renderedFiles++
		}
	}
	var sum artistsTally
	for _, p := range slices.Sorted(maps.Keys(tally)) {
		tl := tally[p]
		t.Logf("%-28s files %3d opened %3d rendered %3d (all variations honoured %3d); flames %3d rendered %3d",
			p, tl.files, tl.opened, tl.renderedFiles, tl.fullFiles, tl.flames, tl.rendered)
		sum.files += tl.files
		sum.fullFiles += tl.fullFiles
		sum.opened += tl.opened
		sum.flames += tl.flames
		sum.rendered += tl.rendered
		sum.renderedFiles += tl.renderedFiles
	}
	t.Logf("%-28s files %3d opened %3d rendered %3d (all variations honoured %3d); flames %3d rendered %3d", "all",
		sum.files, sum.opened, sum.renderedFiles, sum.fullFiles, sum.flames, sum.rendered)
	if uses > 0 {
		t.Logf("variation uses honoured: %d of %d (%.1f %%)", uses-unhonoured, uses, 100*float64(uses-unhonoured)/float64(uses))
		t.Logf("files with every variation honoured: %d of %d (%.1f %%)", sum.fullFiles, sum.files,
			100*float64(sum.fullFiles)/float64(sum.files))
	}
	if artUses > 0 { // the bar for artworks: every source but sidwellr's demo library
		t.Logf("variation uses honoured in artworks (not sidwellr): %d of %d (%.1f %%)", artUses-unhonouredArt, artUses,
			100*float64(artUses-unhonouredArt)/float64(artUses))
	}
	// The most used names still missing: the order in which to write them.
	names := slices.SortedFunc(maps.Keys(missing), func(a, b string) int {
		if c := missing[b] - missing[a]; c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var top strings.Builder
	for i, n := range names[:min(30, len(names))] {
		if i > 0 {
			top.WriteString(", ")
		}
		fmt.Fprintf(&top, "%s %d", n, missing[n])
	}
	t.Logf("most used names not honoured (%d names): %s", len(names), top.String())
}

// artistsUnhonouredRe matches the parser's warnings that count a
// variation's uses it does not honour.
var artistsUnhonouredRe = regexp.MustCompile(`^(unknown variation|variation copy|variation stage) "([^"]*)".*\((\d+) xforms?\)$`)

// artistsUnhonoured sums the variation uses a file's parse warnings say are
// not honoured, adding them by name to missing (when not nil). Names the
// table does not count as variations (JWildfire's zxCoefs, say) are left
// out, as of its total.
func artistsUnhonoured(ws []Warning, tsvNames map[string]bool, missing map[string]int) int {
	total := 0
	for _, w := range ws {
		if m := artistsUnhonouredRe.FindStringSubmatch(w.Msg); m != nil && tsvNames[strings.SplitN(m[2], "#", 2)[0]] {
			n, _ := strconv.Atoi(m[3])
			total += n
			if missing != nil {
				missing[m[2]] += n
			}
		}
	}
	return total
}

// artistsPrograms reads SOURCE.md's table of files: file name -> program.
func artistsPrograms(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(artistsDir, "SOURCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 8 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		if strings.HasSuffix(name, ".flame") {
			m[name] = strings.TrimSpace(cells[6])
		}
	}
	return m
}

// artistsUses sums variations.tsv's uses column, for all files and for the
// artworks (every file but the sidwellr demo library's, whose uses the
// table does not separate: counted from the files by the table's rule).
func artistsUses(t *testing.T, files []string) (all, art int, names map[string]bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(artistsDir, "variations.tsv"))
	if err != nil {
		t.Logf("no variations.tsv: %v", err)
		return 0, 0, nil
	}
	names = map[string]bool{}
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(l, "\t")
		if i == 0 || len(f) < 2 {
			continue
		}
		v, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("variations.tsv line %d: %v", i+1, fmt.Errorf("uses %q", f[1]))
		}
		all += v
		names[f[0]] = true
	}
	demo := 0
	for _, f := range files {
		if strings.Contains(filepath.Base(f), "_sidwellr_") {
			demo += artistsFileUses(t, f, names)
		}
	}
	return all, all - demo, names
}

// artistsFileUses counts a file's variation uses as variations.tsv does:
// each attribute of an xform or finalxform that names a variation, with a
// non-zero weight.
func artistsFileUses(t *testing.T, path string, names map[string]bool) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tagRe := regexp.MustCompile(`<(?:xform|finalxform)\s[^>]*>`)
	attrRe := regexp.MustCompile(`([^\s=]+)="([^"]*)"`)
	n := 0
	for _, tag := range tagRe.FindAll(b, -1) {
		for _, m := range attrRe.FindAllSubmatch(tag, -1) {
			if !names[string(m[1])] {
				continue
			}
			if v, err := strconv.ParseFloat(string(m[2]), 64); err == nil && v != 0 {
				n++
			}
		}
	}
	return n
}
