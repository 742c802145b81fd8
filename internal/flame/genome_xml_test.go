package flame

import (
	"bytes"
	"math"
	"testing"
)

// TestGenomeXMLRoundTrip: the XML of a genome, with a render's overrides
// applied, parses back to that genome (its XML again is the same text), at
// the overridden size with the framing kept.
func TestGenomeXMLRoundTrip(t *testing.T) {
	for _, path := range []string{"../../testdata/flame/heavy.flam3", "../../testdata/flame/simple.flam3"} {
		gs, _, err := ParseFile(path, ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g := gs[0]
		x, err := GenomeXML(g, Options{Width: g.Width * 2, Quality: 7})
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := Parse(bytes.NewReader(x), "chunk", ParseOptions{})
		if err != nil {
			t.Fatalf("%s: the written genome does not parse: %v\n%s", path, err, x)
		}
		b := back[0]
		if b.Width != 2*g.Width || b.Height != 2*g.Height || b.Scale != 2*g.Scale || b.Quality != 7 {
			t.Errorf("%s: read back %dx%d, scale %g, quality %g; want %dx%d, scale %g, quality 7", path,
				b.Width, b.Height, b.Scale, b.Quality, 2*g.Width, 2*g.Height, 2*g.Scale)
		}
		if len(b.Xforms) != len(g.Xforms) || (b.Final == nil) != (g.Final == nil) {
			t.Errorf("%s: %d xforms (final %v), want %d (%v)", path, len(b.Xforms), b.Final != nil, len(g.Xforms), g.Final != nil)
		}
		for i := range g.Palette {
			for ch := range 4 {
				if d := math.Abs(b.Palette[i][ch] - g.Palette[i][ch]); d > 1e-12 {
					t.Fatalf("%s: palette entry %d channel %d read back %v, want %v", path, i, ch, b.Palette[i][ch], g.Palette[i][ch])
				}
			}
		}
		again, err := GenomeXML(b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, x) {
			t.Errorf("%s: the genome read back writes different XML:\n%s\nwant\n%s", path, again, x)
		}
		if g.Width == b.Width {
			t.Errorf("%s: GenomeXML changed the genome it was given", path)
		}
	}
}
