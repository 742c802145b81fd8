package flame

import (
	"strings"
	"testing"
)

// Fractorium's fuse and JWildfire's smooth_gradient="0" are honoured (with
// --strict too): fuse sets the iterations each start point discards, and
// bad values are errors naming the attribute. enable_de="0" is not honoured
// (flam3 renders such files with their estimator): --strict refuses it.
func TestFlameAttrsJWFFractorium(t *testing.T) {
	flame := func(attrs string) string {
		return `<flame size="64 64" center="0 0" scale="10" ` + attrs + `><xform weight="1" color="0" linear="1" coefs="1 0 0 1 0 0"/>` +
			`<color index="0" rgb="255 255 255"/></flame>`
	}
	for _, c := range []struct {
		attrs  string
		fuse   int
		radius float64
		err    string
	}{
		{``, DefaultFuse, DefaultGenome().EstimatorRadius, ""},
		{`fuse="100"`, 100, DefaultGenome().EstimatorRadius, ""},
		{`estimator_radius="9" enable_de="1"`, DefaultFuse, 9, ""},
		{`enable_de="0"`, 0, 0, "enable_de"},
		{`smooth_gradient="0"`, DefaultFuse, DefaultGenome().EstimatorRadius, ""},
		{`fuse="-1"`, 0, 0, "fuse"},
		{`fuse="2000000"`, 0, 0, "fuse"},
		{`fuse="many"`, 0, 0, "fuse"},
		{`smooth_gradient="1"`, 0, 0, "smooth_gradient"}, // not honoured: --strict refuses it
	} {
		gs, _, err := Parse(strings.NewReader(flame(c.attrs)), "a.flame", ParseOptions{Strict: true})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "a.flame:1:") {
				t.Errorf("%s: err %v, want one naming %s at a.flame:1:col", c.attrs, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.attrs, err)
			continue
		}
		if g := gs[0]; g.Fuse != c.fuse || g.EstimatorRadius != c.radius {
			t.Errorf("%s: fuse %d, estimator_radius %g; want %d, %g", c.attrs, g.Fuse, g.EstimatorRadius, c.fuse, c.radius)
		}
	}
}

// A fuse other than flam3's 15 is written back (GenomeXML) and read again;
// flam3's own is not written.
func TestFuseRoundTrip(t *testing.T) {
	for _, fuse := range []int{DefaultFuse, 100} {
		g := DefaultGenome()
		g.Xforms = []Xform{newXform(0)}
		g.Xforms[0].Weight = 1
		g.Xforms[0].Vars = []VarTerm{{VarLinear, 1}}
		g.Fuse = fuse
		x, err := GenomeXML(&g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(x), "fuse=") != (fuse != DefaultFuse) {
			t.Errorf("fuse %d: written as\n%s", fuse, x)
		}
		back, _, err := Parse(strings.NewReader(string(x)), "x.flame", ParseOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		if back[0].Fuse != fuse {
			t.Errorf("fuse %d read back as %d", fuse, back[0].Fuse)
		}
	}
}
