package flame

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("no corpus at %s", corpusDir)
	}
	pf, err := LoadPaletteFile(filepath.Join(corpusDir, "palettes", "flam3-palettes.xml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest := readManifest(t, filepath.Join(corpusDir, "MANIFEST.tsv"))
	files, err := filepath.Glob(filepath.Join(corpusDir, "genomes", "*.flam3"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no genomes: %v", err)
	}
	warned := map[string]int{}
	for _, f := range files {
		gs, ws, err := ParseFile(f, ParseOptions{Palettes: pf})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, w := range ws {
			warned[w.Msg]++
			t.Logf("%s", w)
		}
		row, ok := manifest[filepath.Base(f)]
		if !ok {
			continue
		}
		g := gs[0]
		used := map[string]bool{}
		for _, x := range append(append([]Xform(nil), g.Xforms...), finalSlice(g)...) {
			for _, v := range x.Vars {
				used[VarNames[v.ID]] = true
			}
		}
		var names []string
		// The manifest lists what flam3 knows; flatten, which some of these
		// genomes carry from Apophysis, is JWildfire's (and only moves z).
		for _, n := range VarNames[:Flam3NumVars] {
			if used[n] {
				names = append(names, n)
			}
		}
		if got, want := strings.Join(names, ","), sortedList(row["variations"]); got != want {
			t.Errorf("%s: variations %s, manifest %s", filepath.Base(f), got, want)
		}
		if got := strconv.Itoa(len(g.Xforms)); got != row["n_xforms"] {
			t.Errorf("%s: %s xforms, manifest %s", filepath.Base(f), got, row["n_xforms"])
		}
		if got := map[bool]string{true: "y", false: "n"}[g.Final != nil]; got != row["final_xform"] {
			t.Errorf("%s: final %s, manifest %s", filepath.Base(f), got, row["final_xform"])
		}
		// What flam3 warned about must cover what we warn about.
		for _, w := range ws {
			name := w.Msg[strings.Index(w.Msg, `"`)+1:]
			name = name[:strings.Index(name, `"`)]
			if !strings.Contains(","+row["ignored_attrs_flam3_warns_about"]+",", ","+name+",") {
				t.Errorf("%s: we warn %q, flam3 does not", filepath.Base(f), w.Msg)
			}
		}
	}
	t.Logf("parsed %d corpus files; warnings:", len(files))
	for _, msg := range slices.Sorted(maps.Keys(warned)) {
		t.Logf("  %3d× %s", warned[msg], msg)
	}
}

func finalSlice(g *Genome) []Xform {
	if g.Final == nil {
		return nil
	}
	return []Xform{*g.Final}
}

// sortedList puts a comma-separated list of variation names in VarID order.
func sortedList(s string) string {
	in := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		in[n] = true
	}
	var out []string
	for _, n := range VarNames {
		if in[n] {
			out = append(out, n)
			in[n] = false // a name of two ids (ids_jwf12.go) once
		}
	}
	return strings.Join(out, ",")
}

func readManifest(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Logf("no manifest: %v", err)
		return nil
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(lines[0], "\t")
	m := map[string]map[string]string{}
	for _, l := range lines[1:] {
		row := map[string]string{}
		for i, v := range strings.Split(l, "\t") {
			if i < len(head) {
				row[head[i]] = v
			}
		}
		m[row["file"]] = row
	}
	return m
}
