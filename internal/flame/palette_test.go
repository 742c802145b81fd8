package flame

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func rgb(r, g, b float64) [4]float64 { return [4]float64{r / 255, g / 255, b / 255, 1} }

func samePalEntry(a, b [4]float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9 {
			return false
		}
	}
	return true
}

func TestPaletteForms(t *testing.T) {
	const x = `<xform weight="1" linear="1"/>`
	cases := []struct {
		name string
		body string
		want map[int][4]float64
	}{
		{"color rgb", `<color index="0" rgb="255 0 0"/><color index="255" rgb="0 0 255"/>`,
			map[int][4]float64{0: rgb(255, 0, 0), 255: rgb(0, 0, 255)}},
		{"color rgba premultiplied", `<color index="3" rgba="255 128 0 51"/>`,
			map[int][4]float64{3: {0.2, 0.2 * 128 / 255, 0, 0.2}}},
		{"color rgb then a", `<color index="3" rgb="255 255 255" a="127.5"/>`,
			map[int][4]float64{3: {0.5, 0.5, 0.5, 0.5}}},
		{"palette RGB wrapped anywhere", "<palette count=\"3\" format=\"RGB\">\n  FF00\n 00 00FF00\n0000FF\n</palette>",
			map[int][4]float64{0: rgb(255, 0, 0), 1: rgb(0, 255, 0), 2: rgb(0, 0, 255)}},
		{"palette RGBA not premultiplied", `<palette count="1" format="RGBA">FF800040</palette>`,
			map[int][4]float64{0: {1, 128.0 / 255, 0, 64.0 / 255}}},
		{"colors data", `<colors count="2" data="00FF000012FFFFFF"/>`,
			map[int][4]float64{0: rgb(255, 0, 0), 1: rgb(255, 255, 255)}},
		{"colors data attribute order", `<colors data="0000FF00" count="1"/>`,
			map[int][4]float64{0: rgb(0, 255, 0)}},
		{"later entries override", `<palette count="2" format="RGB">FF000000FF00</palette><color index="1" rgb="0 0 255"/>`,
			map[int][4]float64{0: rgb(255, 0, 0), 1: rgb(0, 0, 255)}},
	}
	for _, c := range cases {
		g, _ := parseOne(t, `<flame>`+x+c.body+`</flame>`, ParseOptions{})
		for i, w := range c.want {
			if !samePalEntry(g.Palette[i], w) {
				t.Errorf("%s: palette[%d] = %v, want %v", c.name, i, g.Palette[i], w)
			}
		}
	}
}

func TestPaletteGapFill(t *testing.T) {
	// flam3 interpolates unset entries between their set neighbours,
	// wrapping round the ends of the table.
	g, _ := parseOne(t, `<flame><xform weight="1" linear="1"/>
		<color index="10" rgb="0 0 0"/><color index="20" rgb="100 200 0"/><color index="250" rgb="0 0 255"/></flame>`, ParseOptions{})
	for _, c := range []struct {
		i    int
		want [4]float64
	}{
		{10, rgb(0, 0, 0)},
		{15, rgb(50, 100, 0)},
		{20, rgb(100, 200, 0)},
		{135, rgb(50, 100, 127.5)},
		{250, rgb(0, 0, 255)},
		// 250 -> 10 wraps: 16 steps, entry 255 is 5 of them, entry 0 is 6.
		{255, rgb(0, 0, 255*11/16.0)},
		{0, rgb(0, 0, 255*10/16.0)},
	} {
		if !samePalEntry(g.Palette[c.i], c.want) {
			t.Errorf("palette[%d] = %v, want %v", c.i, g.Palette[c.i], c.want)
		}
	}
	_, ws := parseOne(t, `<flame><xform weight="1" linear="1"/></flame>`, ParseOptions{})
	if !hasWarning(ws, "no palette given") {
		t.Errorf("no warning for a flame without colours: %v", ws)
	}
}

func TestPaletteIndexed(t *testing.T) {
	pf := testPalettes(t)
	if len(pf.Palettes) != 4 || pf.Palettes[1].Name != "red-to-blue" {
		t.Fatalf("palette file: %d palettes", len(pf.Palettes))
	}
	opts := ParseOptions{Palettes: pf}
	const x = `<xform weight="1" linear="1"/>`

	// The library palette replaces inline colours; the first of two
	// palettes with one number wins.
	g, _ := parseOne(t, `<flame palette="7">`+x+`<color index="0" rgb="1 2 3"/></flame>`, opts)
	if !samePalEntry(g.Palette[0], rgb(255, 0, 0)) || !samePalEntry(g.Palette[255], rgb(0, 0, 255)) {
		t.Errorf("palette 7: %v %v", g.Palette[0], g.Palette[255])
	}

	// hue rotates in HSV by whole turns: 1/3 turns red into green, and a
	// hue of 1.5 is 0.5 (flam3 takes it modulo 1).
	for _, c := range []struct {
		hue  string
		want [4]float64
	}{
		{"0.333333333333333333", rgb(0, 255, 0)},
		{"1.5", rgb(0, 255, 255)},
		{"-0.333333333333333333", rgb(0, 0, 255)},
	} {
		g, _ = parseOne(t, `<flame palette="15" hue="`+c.hue+`">`+x+`</flame>`, opts)
		if !samePalEntry(g.Palette[100], c.want) {
			t.Errorf("hue %s: %v, want %v", c.hue, g.Palette[100], c.want)
		}
	}

	// A grey ramp keeps its colours under rotation (no saturation).
	g, _ = parseOne(t, `<flame palette="0" hue="0.4">`+x+`</flame>`, opts)
	if !samePalEntry(g.Palette[77], rgb(77, 77, 77)) {
		t.Errorf("grey: %v", g.Palette[77])
	}

	// A number missing from the library: white and a warning, as flam3.
	g, ws := parseOne(t, `<flame palette="42">`+x+`</flame>`, opts)
	if g.Palette[9] != [4]float64{1, 1, 1, 1} || !hasWarning(ws, "palette 42 not in the palette file") {
		t.Errorf("missing palette: %v %v", g.Palette[9], ws)
	}

	// The old two-palette form blends in HSV.
	g, _ = parseOne(t, `<flame>`+x+`<palette index0="15" index1="15" hue1="0.333333333333333333" blend="0.5"/></flame>`, opts)
	if !samePalEntry(g.Palette[0], rgb(255, 255, 0)) {
		t.Errorf("blend red/green: %v", g.Palette[0])
	}

	// Without a palette file an index cannot be resolved.
	if _, _, err := parseString(`<flame palette="7">`+x+`</flame>`, ParseOptions{}); !errors.Is(err, ErrInvalidGenome) || !strings.Contains(err.Error(), "palette 7: no palette file") {
		t.Errorf("no palette file: %v", err)
	}
}

func TestReadPaletteFileErrors(t *testing.T) {
	cases := []struct {
		doc, msg string
	}{
		{`<palettes/>`, "no <palette> elements"},
		{`<palettes><palette number="1"/></palettes>`, "no data attribute"},
		{`<palettes><palette number="x" data=""/></palettes>`, `bad number "x"`},
		{`<palettes><palette number="1" data="00FF0000"/></palettes>`, "holds 1 of 256 colours"},
		{`<palettes><palette number="1" data="` + strings.Repeat("00GG0000", 256) + `"/></palettes>`, `bad hex colour data "GG"`},
		{`<palettes><palette number="1" data="` + strings.Repeat("00000000", 257) + `"/></palettes>`, "data after 256 colours"},
		{`<palettes><palette`, "malformed XML"},
	}
	for _, c := range cases {
		_, err := ReadPaletteFile(strings.NewReader(c.doc), "p.xml")
		if err == nil || !strings.HasPrefix(err.Error(), "p.xml:") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%.60s: %v, want %q", c.doc, err, c.msg)
		}
	}
	if _, err := LoadPaletteFile("testdata/parse/no-such-file.xml"); err == nil {
		t.Errorf("missing file accepted")
	}
}

func TestPaletteLookup(t *testing.T) {
	var nilFile *PaletteFile
	if _, ok := nilFile.Lookup(0); ok {
		t.Errorf("nil file found a palette")
	}
	pf := testPalettes(t)
	p, ok := pf.Lookup(7)
	if !ok || p.Name != "red-to-blue" || p.Colors[0] != [3]uint8{255, 0, 0} {
		t.Errorf("Lookup(7) = %v %v", p, ok)
	}
}
