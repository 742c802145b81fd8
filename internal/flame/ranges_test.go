package flame

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttrRanges: every ranged attribute accepts its boundary values and
// refuses one step outside them with an error naming the attribute, at the
// flame's line:col and index; over the top is ErrTooLarge (exit 2).
func TestAttrRanges(t *testing.T) {
	const body = `<xform weight="1" linear="1"/>`
	cases := []struct {
		attrs    string
		attr     string // "" for accepted
		tooLarge bool
	}{
		{`size="1 1"`, "", false},
		{`size="65536 1"`, "", false},
		{`size="65537 1"`, "size", true},
		{`size="1 0"`, "size", false},
		{`supersample="1"`, "", false},
		{`supersample="16"`, "", false},
		{`supersample="17"`, "supersample", true},
		{`oversample="16"`, "", false},
		{`oversample="17"`, "oversample", true},
		{`oversample="0"`, "oversample", false},
		{`quality="1e-9"`, "", false},
		{`quality="1e12"`, "", false},
		{`quality="1.1e12"`, "quality", true},
		{`quality="0"`, "quality", false},
		{`passes="1"`, "", false},
		{`passes="1024"`, "", false},
		{`passes="1025"`, "passes", true},
		{`passes="0"`, "passes", false},
		{`temporal_samples="65536"`, "", false},
		{`temporal_samples="65537"`, "temporal_samples", true},
		{`temporal_samples="0"`, "temporal_samples", false},
		{`temporal_samples="65536" passes="1024"`, "", false}, // a still ignores both; Frame bounds their product
		{`filter="0"`, "", false},
		{`filter="20"`, "", false},
		{`filter="20.01"`, "filter", true},
		{`filter="1e6"`, "filter", true},
		{`filter="30000"`, "filter", true},
		{`filter="-0.5"`, "filter", false},
		{`filter="nan"`, "filter", false},
		{`estimator_radius="0"`, "", false},
		{`estimator_radius="40"`, "", false},
		{`estimator_radius="40.5"`, "estimator_radius", true},
		{`estimator_radius="-1"`, "estimator_radius", false},
		{`estimator_minimum="40"`, "", false},
		{`estimator_minimum="41"`, "estimator_minimum", true},
		{`estimator_minimum="-1"`, "estimator_minimum", false},
		{`estimator_curve="0.01"`, "", false},
		{`estimator_curve="100"`, "", false},
		{`estimator_curve="101"`, "estimator_curve", true},
		{`estimator_curve="0.009"`, "estimator_curve", false},
		{`estimator_curve="0"`, "estimator_curve", false},
		{`fuse="0"`, "", false},
		{`fuse="100000"`, "", false},
		{`fuse="100001"`, "fuse", true},
		{`fuse="-1"`, "fuse", false},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		doc := "<flames>\n  <flame name=\"f0\" size=\"10 10\"/>\n  <flame name=\"r\" " + c.attrs + ">" + body + "</flame>\n</flames>"
		// The first flame has no xforms: put the ranged one first instead.
		doc = strings.Replace(doc, "<flame name=\"f0\" size=\"10 10\"/>", "<flame name=\"f0\">"+body+"</flame>", 1)
		_, _, err := parseString(doc, ParseOptions{})
		if c.attr == "" {
			if err != nil {
				t.Errorf("%s: %v, want accepted", c.attrs, err)
			}
			continue
		}
		seen[c.attr] = true
		var ae *AttrError
		if !errors.As(err, &ae) {
			t.Errorf("%s: error %v, want an AttrError", c.attrs, err)
			continue
		}
		if ae.Attr != c.attr || ae.Index != 1 || ae.Line != 3 || ae.Col != 3 {
			t.Errorf("%s: attr %q at flame %d, %d:%d; want %q at flame 1, 3:3", c.attrs, ae.Attr, ae.Index, ae.Line, ae.Col, c.attr)
		}
		if want := `test.flam3:3:3: flame 1 "r": ` + c.attr; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %q, want it to begin %q", c.attrs, err, want)
		}
		if !errors.Is(err, ErrInvalidGenome) || errors.Is(err, ErrTooLarge) != c.tooLarge {
			t.Errorf("%s: %v: ErrTooLarge %v, want %v", c.attrs, err, errors.Is(err, ErrTooLarge), c.tooLarge)
		}
	}
	for attr := range attrRanges {
		if attr != "temporal_filter_width" && !seen[attr] { // an animation attribute: TestAnimAttrRanges
			t.Errorf("range of %s not tested", attr)
		}
	}
}

func TestAnimAttrRanges(t *testing.T) {
	for _, c := range []struct {
		width string
		ok    bool
	}{{"0", true}, {"1000", true}, {"1001", false}, {"-1", false}} {
		doc := `<sequence><flame time="0" temporal_filter_width="` + c.width + `"><xform weight="1" linear="1"/></flame></sequence>`
		_, _, err := ParseAnimGenomes([]byte(doc), "a.flam3", ParseOptions{})
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), "temporal_filter_width "+c.width+" out of range")) {
			t.Errorf("temporal_filter_width=%s: %v, want ok %v", c.width, err, c.ok)
		}
	}
}

// TestValidateRanges: genomes that were not parsed (interpolated, from
// cuburn JSON, built in code) are held to the same ranges.
func TestValidateRanges(t *testing.T) {
	for _, c := range []struct {
		set  func(g *Genome)
		attr string
	}{
		{func(g *Genome) { g.FilterRadius = 1e6 }, "filter"},
		{func(g *Genome) { g.EstimatorRadius = math.MaxFloat64 }, "estimator_radius"},
		{func(g *Genome) { g.Passes = 1 << 20 }, "passes"},
		{func(g *Genome) { g.TemporalSamples = 1<<16 + 1 }, "temporal_samples"},
	} {
		g := DefaultGenome()
		g.Xforms = []Xform{newXform(0)}
		g.Xforms[0].Weight = 1
		c.set(&g)
		err := g.Validate()
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), c.attr) {
			t.Errorf("%s: %v, want ErrTooLarge naming it", c.attr, err)
		}
	}
}

// TestKernelLimits: kernels the attributes size with the supersample are
// refused before allocation, naming the genome's attributes, not flags.
func TestKernelLimits(t *testing.T) {
	for _, c := range []struct {
		attrs, hint string
	}{
		{`filter="20" supersample="16" filter_shape="lanczos3"`, "lower the genome's filter"},
		{`estimator_radius="40" supersample="16"`, "lower the genome's estimator_radius"},
		{`estimator_radius="40" estimator_curve="0.2"`, "estimator_radius or raise its estimator_curve"},
		{`size="4000 4000" filter="20" supersample="6"`, "lower the genome's filter"},
	} {
		gs, _, err := parseString(`<flame `+c.attrs+`><xform weight="1" linear="1"/></flame>`, ParseOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.attrs, err)
		}
		_, err = Estimate(gs[0], Options{})
		if !errors.Is(err, ErrTooLarge) || !IsKernelError(err) || !strings.Contains(err.Error(), c.hint) {
			t.Errorf("%s: %v, want a KernelError saying %q", c.attrs, err, c.hint)
		}
	}
	// The footprint counts the kernels: a wide estimator at supersample 16
	// needs far more than the same image without one.
	gs, _, err := parseString(`<flame size="40 30" supersample="16" estimator_radius="20"><xform weight="1" linear="1"/></flame>`+
		`<flame size="40 30" supersample="16" estimator_radius="0"><xform weight="1" linear="1"/></flame>`, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wide, err1 := Estimate(gs[0], Options{})
	none, err2 := Estimate(gs[1], Options{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	p, err := newPlan(gs[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	kernels := 8 * float64(len(p.filter)+len(p.de.coefs)+len(p.de.widths))
	if wide.KernelBytes < kernels || wide.CPUBytes-none.CPUBytes < 0.9*(kernels-8*float64(len(p.filter))) {
		t.Errorf("footprint: kernels %.0f bytes (CPU %.0f against %.0f without DE), allocated %.0f",
			wide.KernelBytes, wide.CPUBytes, none.CPUBytes, kernels)
	}
}

// TestCorpusWithinRanges: no real-world genome of the corpus (flam3's,
// Electric Sheep's, artists' Apophysis and Fractorium files) falls outside
// a range. It skips where the shared corpus is not checked out beside the
// repository.
func TestCorpusWithinRanges(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "corpus", "flames")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no corpus at", root)
	}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".flam3", ".flame", ".xml":
		default:
			return nil
		}
		files++
		gs, _, err := ParseFile(path, ParseOptions{})
		var ae *AttrError
		if errors.As(err, &ae) || errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v", path, err)
		}
		for _, g := range gs {
			if _, err := Estimate(g, Options{}); IsKernelError(err) {
				t.Errorf("%s: %v", path, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Errorf("only %d genome files in the corpus", files)
	}
}
