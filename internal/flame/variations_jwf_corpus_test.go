package flame

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwfOwnParams lists, per variation, the parameters its JWildfire class is
// given: varParams' (the ones the XML writer writes, not the precalculated
// ones), each called by its XML name less the variation's name and '_'. No
// class the corpus uses names one otherwise, so there is no table of
// exceptions: every class's setParameter (and the harness's stand-in for
// classes without parameters) throws IllegalArgumentException for a name it
// does not know, which fails the test, so a parameter named otherwise
// cannot pass unseen.
func jwfOwnParams() map[VarID][]jwfParam {
	own := map[VarID][]jwfParam{}
	for v, ps := range varParams {
		for _, id := range ps {
			if isPrecalc(id) {
				continue
			}
			own[v] = append(own[v], jwfParam{id: id, name: strings.TrimPrefix(ParamNames[id], VarNames[v]+"_")})
		}
	}
	return own
}

// jwfCorpusTerms turns a parsed xform into harness terms, or says why it
// cannot be checked: a variation without a JWildfire class here, a pre_
// stage or a post_ stage other than post_trig and the two symmetry ones
// (the harness applies every class to the affine point and sums; only those
// read that sum as JWildfire's post variations do).
func jwfCorpusTerms(x *Xform, own map[VarID][]jwfParam) ([]jwfTerm, string) {
	var terms []jwfTerm
	term := func(id VarID, w float64, post bool) string {
		if jwfClass[id] == "" {
			return VarNames[id]
		}
		tm := jwfTerm{id: id, w: w, post: post}
		for _, p := range own[id] {
			p.v = x.Params[p.id]
			tm.params = append(tm.params, p)
		}
		terms = append(terms, tm)
		return ""
	}
	for _, v := range x.Vars {
		if v.Weight == 0 {
			continue
		}
		if why := term(v.ID, v.Weight, false); why != "" {
			return nil, why
		}
	}
	for _, st := range x.Stages {
		if st.Weight == 0 {
			continue
		}
		if !st.Post || st.ID != VarTrig && st.ID != VarAxisSymmetryWf && st.ID != VarPointSymmetryWf {
			return nil, st.Name()
		}
		if why := term(st.ID, st.Weight, true); why != "" {
			return nil, why
		}
	}
	if len(terms) == 0 {
		return nil, "no variation"
	}
	// maurer_rose's lines take their draws in another order than procgen's
	// (jwfCase reorders them where it draws only lines; mixed with points
	// or the curve the order depends on the mode drawn).
	for _, tm := range terms {
		if tm.id == VarMaurerRose && x.Params[PMaurerRoseShowLines] != 0 && !jwfMaurerLines(tm) {
			return nil, "maurer_rose show_lines with points or curve"
		}
	}
	// The harness applies the terms in the order of the line, procgen in
	// its own: the variations in VarID order (Precalc sorts them, and draws
	// for them so), then flatten (which JWildfire runs after the others too,
	// at its priority 1), then the post_ stages.
	slices.SortStableFunc(terms, func(a, b jwfTerm) int {
		return cmp.Or(cmp.Compare(jwfStage(a), jwfStage(b)), cmp.Compare(a.id, b.id))
	})
	// The maple leaves draw two numbers in procgen and in JWildfire the ones
	// the point needs, so a drawing variation after them would get other
	// draws in the harness than in procgen.
	for i, tm := range terms[:len(terms)-1] {
		if tm.id != VarMapleLeaf && tm.id != VarJapaneseMapleLeaf {
			continue
		}
		for _, later := range terms[i+1:] {
			if varDraws[later.id] > 0 {
				return nil, VarNames[tm.id] + " before " + VarNames[later.id]
			}
		}
	}
	return terms, ""
}

// jwfStage ranks when procgen applies a term: the sum, flatten, the post_
// stages.
func jwfStage(tm jwfTerm) int {
	switch {
	case tm.post:
		return 2
	case tm.id == VarFlatten:
		return 1
	}
	return 0
}

// jwfCorpusTally counts one program's share of the checked corpus.
type jwfCorpusTally struct{ files, xforms, cases int }

// TestJWildfireCorpusReference is TestJWildfireReference with the
// variation mixes, weights and parameters the artists' corpus (issue 32)
// holds: every xform and final xform of every flame whose variations all
// have a JWildfire class here maps the five sample points through procgen
// and through JWildfire's classes, with the same scripted draws, to 1e-9.
// It skips without the corpus or the harness and fails when fewer than 30
// files had an xform to check.
func TestJWildfireCorpusReference(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(artistsDir, "flames", "*.flame"))
	if len(files) == 0 {
		t.Skipf("no artists' corpus at %s", artistsDir)
	}
	dir, java := jwfHarness(t, "JwfHarness", "scripts/jwf-harness.sh")
	programs := artistsPrograms(t)
	own := jwfOwnParams()
	tally := map[string]*jwfCorpusTally{}
	skipped := map[string]int{} // why an xform was not checked -> xforms
	used := map[VarID]int{}     // variation -> checked xforms
	beyond, beyondFiles := 0, 0 // checked xforms (files) with more than linear3D and flatten
	var in bytes.Buffer
	var got []jwfWant
	for _, f := range files {
		gs, _, err := ParseFile(f, ParseOptions{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		base := filepath.Base(f)
		prog := cmp.Or(programs[base], "unlisted")
		checked, fileBeyond := 0, false
		for _, g := range gs {
			xs := g.Xforms
			if g.Final != nil {
				xs = append(xs[:len(xs):len(xs)], *g.Final)
			}
			for xi := range xs {
				terms, why := jwfCorpusTerms(&xs[xi], own)
				if why != "" {
					skipped[why]++
					continue
				}
				checked++
				plain := true
				for _, tm := range terms {
					used[tm.id]++
					plain = plain && (tm.id == VarLinear3D || tm.id == VarFlatten)
				}
				if !plain {
					beyond++
					fileBeyond = true
				}
				which := fmt.Sprintf("xform %d", xi)
				if xi == len(g.Xforms) {
					which = "final xform"
				}
				// The key is the case's position, so a failure names a
				// case that reruns alike.
				for pi, pt := range jwfPoints() {
					x, y, z := jwfCase(&in, terms, pt, rng.Key(8, uint64(len(got)), uint64(pi)))
					got = append(got, jwfWant{x: x, y: y, z: z,
						label: fmt.Sprintf("%s flame %q %s %v point %v", base, g.Name, which, terms, pt)})
				}
			}
		}
		if checked == 0 {
			continue
		}
		if fileBeyond {
			beyondFiles++
		}
		tl := tally[prog]
		if tl == nil {
			tl = &jwfCorpusTally{}
			tally[prog] = tl
		}
		tl.files++
		tl.xforms += checked
		tl.cases += checked * len(jwfPoints())
	}
	bad := 0
	if len(got) > 0 {
		bad = jwfCompare(t, dir, java, &in, got)
	}
	var sum, jwf jwfCorpusTally
	for _, p := range slices.Sorted(maps.Keys(tally)) {
		tl := tally[p]
		t.Logf("%-28s files %3d xforms %5d cases %6d", p, tl.files, tl.xforms, tl.cases)
		sum.files += tl.files
		sum.xforms += tl.xforms
		sum.cases += tl.cases
		if strings.HasPrefix(p, "JWildfire") {
			jwf.files += tl.files
			jwf.xforms += tl.xforms
			jwf.cases += tl.cases
		}
	}
	t.Logf("%-28s files %3d xforms %5d cases %6d", "JWildfire, all versions", jwf.files, jwf.xforms, jwf.cases)
	t.Logf("%-28s files %3d xforms %5d cases %6d", "other programs", sum.files-jwf.files, sum.xforms-jwf.xforms,
		sum.cases-jwf.cases)
	t.Logf("%-28s files %3d xforms %5d cases %6d (of %d files); %d cases disagree", "all",
		sum.files, sum.xforms, sum.cases, len(files), bad)
	t.Logf("xforms with a variation other than linear3D and flatten: %d in %d files", beyond, beyondFiles)
	t.Logf("variations checked (xforms): %s", jwfCounts(used, func(id VarID) string { return VarNames[id] }))
	t.Logf("xforms not checked, by the first variation without a class here: %s", jwfCounts(skipped, func(s string) string { return s }))
	if sum.files < 30 {
		t.Errorf("only %d corpus files had an xform to check; issue 32 asks for at least 30", sum.files)
	}
}

// jwfCounts lists counts, most first, as "name n, ...".
func jwfCounts[K cmp.Ordered](m map[K]int, name func(K) string) string {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b K) int {
		return cmp.Or(m[b]-m[a], cmp.Compare(a, b))
	})
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", name(k), m[k])
	}
	return b.String()
}
