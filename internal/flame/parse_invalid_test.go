package flame

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMalformedXML(t *testing.T) {
	cases := []struct {
		doc, where string
	}{
		{"<flame>\n  <xform weight=\"1\" linear=\"1\">\n</flame>", "test.flam3:3:9:"},
		{"<flame>\n<xform weight=1/>\n</flame>", "test.flam3:2:16:"},
		{"<flame><xform weight=\"1\" linear=\"1\"/>", "test.flam3:1:38:"},
		{"<flames><flame><xform weight=\"1\" linear=\"1\"/></flame>\n<flame", "test.flam3:2:7:"},
		{"<?xml version=\"1.0\" encoding=\"klingon\"?><flame/>", "test.flam3:1:"},
		{"<flame>\xff</flame>", "test.flam3:1:"},
	}
	for _, c := range cases {
		_, _, err := parseString(c.doc, ParseOptions{})
		if !errors.Is(err, ErrSyntax) || !strings.HasPrefix(err.Error(), c.where) {
			t.Errorf("%q: error %v, want %s... wrapping ErrSyntax", c.doc, err, c.where)
		}
	}
}

func TestParseNoFlames(t *testing.T) {
	for _, doc := range []string{"", "  ", "<flames/>", "<x><edit><y/></edit></x>"} {
		_, _, err := parseString(doc, ParseOptions{})
		if !errors.Is(err, ErrNoFlames) {
			t.Errorf("%q: %v", doc, err)
		}
	}
}

func TestParseInvalidGenomes(t *testing.T) {
	const ok = `<xform weight="1" linear="1"/>`
	cases := []struct {
		flameAttrs, body, msg string
	}{
		{`size="0 100"`, ok, "size 0 out of range"},
		{`size="70000 10"`, ok, "size 70000 out of range"},
		{`size="60000 60000"`, ok, "2^31"},
		{`size="100"`, ok, `bad size value "100"`},
		{`size="100 1.5"`, ok, `bad size value`},
		{`supersample="17"`, ok, "supersample 17"},
		{`supersample="0"`, ok, "supersample 0"},
		{`quality="0"`, ok, "quality 0"},
		{`quality="nan"`, ok, "quality NaN"},
		{`quality="fast"`, ok, `bad quality value "fast"`},
		{`passes="0"`, ok, "passes 0"},
		{`filter_shape="sinc"`, ok, `unknown filter_shape "sinc"`},
		{`center="inf 0"`, ok, "center x is +Inf"},
		{``, ``, "no xforms"},
		{``, `<finalxform linear="1"/>`, "no xforms"},
		{``, `<xform linear="1"/><xform weight="0" linear="1"/>`, "do not sum to a positive"},
		{``, `<xform weight="-1" linear="1"/><xform weight="2"/>`, "weight -1 is negative"},
		{``, `<xform weight="1" linear="1" coefs="1 0 0 1 0 nan"/>`, "xform 0: coefs or post not finite"},
		{``, `<xform weight="1" linear="1" coefs="1 0 0 1 0"/>`, `bad coefs value`},
		{``, `<xform weight="1" julian="1" julian_power="inf"/>`, "julian_power is +Inf"},
		{``, `<xform weight="1" linear="nan"/>`, "linear weight is NaN"},
		{``, `<xform weight="1" linear="1" chaos="-1"/>`, "chaos entry 0 is -1"},
		{``, `<xform weight="1" var1="99"/>`, "var1 99 is not a variation"},
		{``, `<xform weight="1" var="` + strings.Repeat("0 ", 100) + `"/>`, "bad var value"},
		{``, `<xform weight="abc" linear="1"/>`, `bad weight value "abc"`},
		{``, ok + `<color index="256" rgb="1 2 3"/>`, "color: missing or bad index (256)"},
		{``, ok + `<color rgb="1 2 3"/>`, "color: missing or bad index (-1)"},
		{``, ok + `<palette count="2" format="RGB">FF0000</palette>`, "holds 1 of 2 colours"},
		{``, ok + `<palette count="1" format="HSV">FF0000</palette>`, `unknown format "HSV"`},
		{`palette="3"`, ok, "no palette file was given"},
	}
	for _, c := range cases {
		doc := "<flames>\n<flame name=\"bad\" " + c.flameAttrs + ">" + c.body + "</flame>\n</flames>"
		_, _, err := parseString(doc, ParseOptions{})
		if !errors.Is(err, ErrInvalidGenome) {
			t.Errorf("%s %s: error %v, want ErrInvalidGenome", c.flameAttrs, c.body, err)
			continue
		}
		// Attributes with a range (ranges.go) are located at line:col.
		prefix, rangePrefix := `test.flam3:2: flame "bad": `, `test.flam3:2:1: flame 0 "bad": `
		if !(strings.HasPrefix(err.Error(), prefix) || strings.HasPrefix(err.Error(), rangePrefix)) ||
			!strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %s: error %q, want %s...%s", c.flameAttrs, c.body, err, prefix, c.msg)
		}
	}
}

func TestValidateDirect(t *testing.T) {
	g := DefaultGenome()
	g.Name = "direct"
	if err := g.Validate(); !errors.Is(err, ErrInvalidGenome) || err.Error() != `flame "direct": no xforms` {
		t.Errorf("empty genome: %v", err)
	}
	g.Xforms = []Xform{newXform(0)}
	g.Xforms[0].Weight = 1
	if err := g.Validate(); err != nil {
		t.Errorf("valid genome: %v", err)
	}
	g.Xforms[0].Chaos = []float64{1, 1}
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "chaos row has 2 entries for 1 xforms") {
		t.Errorf("chaos length: %v", err)
	}
	g.Xforms[0].Chaos = nil
	g.FilterShape = FilterShape(99)
	if err := g.Validate(); err == nil {
		t.Errorf("bad filter shape accepted")
	}
}

// corpusDir is the shared corpus of real genomes, next to the repository.
const corpusDir = "../../../shared/corpus/flames"

// TestParseCorpus parses every genome of the shared corpus and checks it
// against the corpus manifest (variations used, xform count, final xform).
