package flame

import (
	"bytes"
	"math"
	"testing"
)

// FuzzParseAnimation feeds arbitrary documents to ParseAnimation: nothing
// may panic or hang; an accepted animation has increasing times, at least
// two keyframes, interpolates anywhere (also outside its keyframes) and
// writes out as a document that reads back with the same keyframe times.
func FuzzParseAnimation(f *testing.F) {
	k := func(t, extra string) string {
		return `<flame time="` + t + `" size="8 6" scale="4" ` + extra + `><xform weight="1" linear="1" coefs="0.5 0 0 0.5 0 0"/>` +
			`<color index="0" rgb="255 0 0"/></flame>`
	}
	for _, s := range []string{
		"<a>" + k("0", "") + k("1", `interpolation="smooth"`) + "</a>",
		"<a>" + k("0", `interpolation_type="linear" palette_interpolation="sweep"`) + k("2", "") + k("3", "") + k("4", "") + "</a>",
		"<a>" + k("0", `temporal_filter_type="exp" temporal_filter_exp="-2"`) + k("1", `rotate="720"`) + "</a>",
		"<a>" + k("0", "") + `<flame time="1" size="8 6"><xform weight="1" spherical="1" julian="1"/><finalxform linear="1"/></flame></a>`,
		k("0", ""),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		a, _, err := ParseAnimation(doc, "fuzz.flam3", ParseOptions{})
		if err != nil {
			if a != nil {
				t.Fatalf("animation returned with error %v", err)
			}
			return
		}
		if len(a.Keys) < 2 {
			t.Fatalf("%d keyframes accepted", len(a.Keys))
		}
		for i := 1; i < len(a.Keys); i++ {
			if !(a.Keys[i].Time > a.Keys[i-1].Time) {
				t.Fatalf("times %g then %g accepted", a.Keys[i-1].Time, a.Keys[i].Time)
			}
		}
		first, last := a.Span()
		for _, tm := range []float64{first - 1, first, (first + last) / 2, last, last + 1} {
			if math.IsInf(tm, 0) || math.IsNaN(tm) {
				continue
			}
			g := a.At(tm)
			if len(g.Xforms) == 0 {
				t.Fatalf("time %g: no xforms", tm)
			}
		}
		var buf bytes.Buffer
		if err := WriteAnimation(&buf, a.Keys); err != nil {
			t.Fatal(err)
		}
		b, _, err := ParseAnimation(buf.Bytes(), "written.flam3", ParseOptions{})
		if err != nil {
			t.Fatalf("written animation does not read back: %v\n%s", err, buf.String())
		}
		for i := range a.Keys {
			if b.Keys[i].Time != a.Keys[i].Time {
				t.Fatalf("keyframe %d: time %g read back as %g", i, a.Keys[i].Time, b.Keys[i].Time)
			}
		}
	})
}
