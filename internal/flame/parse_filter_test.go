package flame

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// jwfFilterDoc is a one-flame document with the given <flame> attributes.
func jwfFilterDoc(attrs string) string {
	return `<flame size="40 30" ` + attrs + `><xform weight="1" linear="1"/><color index="0" rgb="1 2 3"/></flame>`
}

// TestParseJWildfireFilter: each JWildfire filter attribute, its
// defaults, and what is warned (or refused under --strict).
func TestParseJWildfireFilter(t *testing.T) {
	const jwf = `filter="0.75" filter_sharpness="4.0" filter_low_density="0.025" filter_indicator="0" `
	cases := []struct {
		name, attrs string
		kernel      FilterKernelType
		ftype       FilteringType
		sharp, low  float64
		indicator   bool
		warn        string // a warning containing this, "" for none about filters
		strictErr   string // --strict's error containing this, "" for none
	}{
		{"flam3", `filter="1" filter_shape="mitchell"`, KernelNone, FilteringNone, 0, 0, false, "", ""},
		{"smoothing gaussian", jwf + `filter_type="GLOBAL_SMOOTHING" filter_kernel="GAUSSIAN"`,
			KernelGaussian, FilteringGlobalSmoothing, 4, 0.025, false, "", ""},
		{"smoothing sinepow15", jwf + `filter_type="GLOBAL_SMOOTHING" filter_kernel="SINEPOW15"`,
			KernelSinePow15, FilteringGlobalSmoothing, 4, 0.025, false, "", ""},
		{"sharpening mitchell_smooth", jwf + `filter_type="GLOBAL_SHARPENING" filter_kernel="MITCHELL_SMOOTH"`,
			KernelMitchellSmooth, FilteringGlobalSharpening, 4, 0.025, false,
			`flame attribute "filter_kernel" (MITCHELL_SMOOTH) not honoured exactly: JWildfire filters the density`,
			`flame attribute "filter_kernel" (MITCHELL_SMOOTH) is not honoured exactly`},
		{"kernel alone is filed by its class", `filter_kernel="LANCZOS3"`,
			KernelLanczos3, FilteringGlobalSharpening, 4, 0.025, false, `(LANCZOS3) not honoured exactly`, `"filter_kernel"`},
		{"kernel alone, smoothing", `filter_kernel="BOX" filter_sharpness="2.5" filter_low_density="0.1"`,
			KernelBox, FilteringGlobalSmoothing, 2.5, 0.1, false, "", ""},
		{"type alone takes JWildfire's default kernel", `filter_type="GLOBAL_SMOOTHING"`,
			KernelMitchellSmooth, FilteringGlobalSmoothing, 4, 0.025, false, `(MITCHELL_SMOOTH) not honoured exactly`, `"filter_kernel"`},
		{"adaptive kernel", jwf + `filter_type="ADAPTIVE" filter_kernel="MITCHELL_SINEPOW"`,
			KernelMitchellSinePow, FilteringAdaptive, 4, 0.025, false,
			`(MITCHELL_SINEPOW) not honoured exactly: JWildfire picks SINEPOW10 or MITCHELL_SMOOTH per pixel`, `"filter_kernel"`},
		{"indicator off an adaptive type is drawn as JWildfire does", `filter_type="GLOBAL_SMOOTHING" filter_kernel="GAUSSIAN" filter_indicator="1"`,
			KernelGaussian, FilteringGlobalSmoothing, 4, 0.025, true, "", ""},
		{"indicator of an adaptive type", `filter_type="ADAPTIVE" filter_kernel="GAUSSIAN" filter_indicator="1"`,
			KernelGaussian, FilteringAdaptive, 4, 0.025, true,
			`flame attribute "filter_indicator" not honoured, ignored (1 flame)`, `"filter_indicator" is not honoured`},
		{"lowercase filter_type, as JWildfire's reader, is ignored", `filter_type="box" filter_kernel="GAUSSIAN"`,
			KernelGaussian, FilteringGlobalSmoothing, 4, 0.025, false, `unknown filter_type "box" ignored`, `unknown filter_type "box"`},
		{"unknown kernel", `filter_type="GLOBAL_SMOOTHING" filter_kernel="SINC"`,
			KernelMitchellSmooth, FilteringGlobalSmoothing, 4, 0.025, false,
			`unknown filter_kernel "SINC" ignored: JWildfire's default MITCHELL_SMOOTH`, `unknown filter_kernel "SINC"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, ws := parseOne(t, jwfFilterDoc(c.attrs), ParseOptions{})
			if g.SpatialFilterKernel != c.kernel || g.SpatialFilteringType != c.ftype ||
				g.SpatialFilterSharpness != c.sharp || g.SpatialFilterLowDensity != c.low || g.SpatialFilterIndicator != c.indicator {
				t.Errorf("got kernel %v type %v sharpness %g low density %g indicator %v, want %v %v %g %g %v",
					g.SpatialFilterKernel, g.SpatialFilteringType, g.SpatialFilterSharpness, g.SpatialFilterLowDensity,
					g.SpatialFilterIndicator, c.kernel, c.ftype, c.sharp, c.low, c.indicator)
			}
			found := false
			for _, w := range ws {
				if strings.Contains(w.Msg, "filter") {
					if c.warn == "" {
						t.Errorf("warning %q, want none", w)
					}
					found = found || strings.Contains(w.String(), c.warn)
				}
			}
			if c.warn != "" && !found {
				t.Errorf("no warning containing %q in %v", c.warn, ws)
			}
			doc := jwfFilterDoc(c.attrs)
			_, _, err := parseString(doc, ParseOptions{Strict: true})
			if c.strictErr != "" {
				// The error points at the attribute: file:line:col.
				at := strings.SplitN(c.strictErr, `"`, 3)[1] // the first quoted name
				if strings.HasPrefix(c.strictErr, "unknown ") {
					at = strings.Fields(c.strictErr)[1]
				}
				col := strings.Index(doc, " "+at+"=") + 2
				if want := fmt.Sprintf("test.flam3:1:%d: ", col); err == nil || !strings.HasPrefix(err.Error(), want) {
					t.Errorf("--strict: error %v, want it at %s", err, want)
				}
			}
			switch {
			case c.strictErr == "" && err != nil:
				t.Errorf("--strict: %v", err)
			case c.strictErr != "" && (err == nil || !strings.Contains(err.Error(), c.strictErr) || !errors.Is(err, ErrInvalidGenome)):
				t.Errorf("--strict: error %v, want an invalid genome containing %q", err, c.strictErr)
			}
		})
	}
}

// TestParseJWildfireFilterBad: a number that is not one is a syntax
// error naming the attribute, as for every other numeric attribute.
func TestParseJWildfireFilterBad(t *testing.T) {
	for _, attrs := range []string{`filter_sharpness="sharp"`, `filter_low_density=""`, `filter_indicator="yes"`} {
		_, _, err := parseString(jwfFilterDoc(attrs), ParseOptions{})
		if err == nil || !strings.Contains(err.Error(), "bad "+strings.SplitN(attrs, "=", 2)[0]) {
			t.Errorf("%s: error %v, want a bad value", attrs, err)
		}
	}
}

// TestJWildfireFilterWarningCounted: the approximation is warned once for
// the document, with the number of flames, as other unhonoured names are.
func TestJWildfireFilterWarningCounted(t *testing.T) {
	f := `<flame filter_kernel="MITCHELL_SMOOTH"><xform weight="1" linear="1"/><color index="0" rgb="1 2 3"/></flame>`
	g := `<flame filter_kernel="GAUSSIAN"><xform weight="1" linear="1"/><color index="0" rgb="1 2 3"/></flame>`
	_, ws, err := parseString("<flames>"+f+g+f+"</flames>", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range ws {
		if strings.Contains(w.Msg, "filter_kernel") {
			n++
			if !strings.Contains(w.Msg, "(MITCHELL_SMOOTH)") || !strings.HasSuffix(w.Msg, "(2 flames)") {
				t.Errorf("warning %q", w.Msg)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d filter_kernel warnings, want 1: %v", n, ws)
	}
}
