package flame

import (
	"math"
	"strings"
	"testing"
)

// TestGPUPaletteWhole: in step mode with every xform fully visible the
// device's palette holds each entry's whole part (what a sample adds, as
// flam3Bump takes it on the CPU), so the kernel need not truncate every
// sample; in linear mode, or with an xform seen through, it holds the
// entries as they are and the kernel truncates each sample's colour.
func TestGPUPaletteWhole(t *testing.T) {
	const src = `<flame size="64 64" scale="20" %s>
 <xform weight="1" color="0" linear="1" coefs="0.5 0 0 0.5 0 0" %s/>
 <xform weight="1" color="1" spherical="1" coefs="0.5 0 0 0.5 0.5 0"/>
 <color index="0" rgb="10.6 20.2 30.9"/><color index="255" rgb="100.5 0.4 254.7"/>
</flame>`
	for _, c := range []struct {
		flameAttr, xformAttr string
		whole                bool
	}{
		{"", "", true},
		{`palette_mode="linear"`, "", false},
		{"", `opacity="0.5"`, false},
	} {
		gs, _, err := Parse(strings.NewReader(strings.Replace(strings.Replace(src, "%s", c.flameAttr, 1), "%s", c.xformAttr, 1)), "p.flam3", ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := newPlan(gs[0], Options{Width: 64, Height: 64})
		if err != nil {
			t.Fatal(err)
		}
		cg := p.chaosGame(1)
		gg, _, err := p.gpuInputs(cg)
		if err != nil {
			t.Fatal(err)
		}
		for i := range gg.Palette {
			for ch := 0; ch < 4; ch++ {
				want := float32(cg.palette[i][ch])
				if c.whole {
					want = float32(math.Trunc(cg.palette[i][ch]))
				}
				if gg.Palette[i][ch] != want {
					t.Fatalf("%q %q: entry %d channel %d is %g, want %g", c.flameAttr, c.xformAttr, i, ch, gg.Palette[i][ch], want)
				}
			}
		}
		if f := float64(gg.Palette[0][0]); c.whole != (f == math.Trunc(f)) {
			t.Errorf("%q %q: entry 0 red %g: whole %v expected", c.flameAttr, c.xformAttr, f, c.whole)
		}
	}
}
