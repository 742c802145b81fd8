package flame

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary documents to Parse: nothing may panic or hang,
// and whatever Parse accepts must validate.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/parse/*.flam3")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		`<flame><xform weight="1" linear="1"/></flame>`,
		`<flame palette="7" hue="0.5" symmetry="-3"><xform weight="1" var="1 0 1"/><xform weight="1" var1="4" chaos="0 1"/></flame>`,
		`<flame><xform weight="1" linear="1"/><colors count="2" data="00FF0000000000FF"/><palette index0="0" index1="7"/></flame>`,
		`<flames><flame><symmetry kind="5"/><finalxform julian="1"/><xform weight="1" color="0 1" symmetry="1"/></flame></flames>`,
		`<flame size="10 10"><xform weight="1" linear="1"/><palette count="2" format="RGBA">00000000FFFFFFFF</palette></flame>`,
		// What JWildfire, Fractorium and Apophysis write (issue 32).
		`<Flames><flame temporal_samples="1.0" cam_pitch="0.2"><xform weight="1" bubble="1" bubble#1#="0.5" sunvoroni_color mode="1" dc_booleans_^/&/|="2"/><palette count="4" format="RGB">000000FFFFFF000000FFFFFF</palette></flame></Flames>`,
		`<jwf-flame><layer><xform weight="1" linear="2" linear_fx_priority="-1" pre_linear="2" post_linear="0.5"/><finalxform julian="1"/><finalxform linear="1" coefs="0 1 1 0 0 0"/></layer><layer/></jwf-flame>`,
		`<flame><xform weight="1" julian="1" julian#1#="1" julian#1#_power="3" color_type="NONE" material="0.5"/><foo/></flame>`,
	} {
		f.Add([]byte(s))
	}
	pf, err := LoadPaletteFile("testdata/parse/palettes.xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, strict := range []bool{false, true} {
			gs, _, err := Parse(bytes.NewReader(doc), "fuzz.flam3", ParseOptions{Palettes: pf, Strict: strict})
			if err != nil {
				if gs != nil {
					t.Fatalf("genomes returned with error %v", err)
				}
				continue
			}
			if len(gs) == 0 {
				t.Fatal("no genomes and no error")
			}
			for _, g := range gs {
				if err := g.Validate(); err != nil {
					t.Fatalf("Parse accepted an invalid genome: %v", err)
				}
				for _, x := range g.Xforms {
					for i := 1; i < len(x.Vars); i++ {
						if x.Vars[i-1].ID >= x.Vars[i].ID {
							t.Fatalf("vars out of order: %v", x.Vars)
						}
					}
				}
			}
		}
	})
}
