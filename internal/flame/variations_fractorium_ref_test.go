package flame

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// frTerm is one term of a Fractorium harness case: a jwfTerm (post for a
// post_ stage) that may instead be a pre_ stage. Parameter names are the
// XML names (ParamNames), which are Fractorium's.
type frTerm struct {
	jwfTerm
	pre bool
}

// String names the term in failure messages.
func (tm frTerm) String() string {
	if tm.pre {
		return "pre_" + tm.jwfTerm.String()
	}
	return tm.jwfTerm.String()
}

// stage is the harness's word for where the term runs.
func (tm frTerm) stage() string {
	switch {
	case tm.pre:
		return "pre"
	case tm.post:
		return "post"
	}
	return "reg"
}

// frReg, frPre and frPost build terms; ps alternate parameter id and value.
func frReg(id VarID, w float64, ps ...float64) frTerm {
	return frTerm{jwfTerm: jwfTerm{id: id, w: w, params: frParams(ps)}}
}

func frPre(id VarID, w float64, ps ...float64) frTerm {
	tm := frReg(id, w, ps...)
	tm.pre = true
	return tm
}

func frPost(id VarID, w float64, ps ...float64) frTerm {
	tm := frReg(id, w, ps...)
	tm.post = true
	return tm
}

func frParams(ps []float64) []jwfParam {
	var out []jwfParam
	for i := 0; i+1 < len(ps); i += 2 {
		id := ParamID(ps[i])
		out = append(out, jwfParam{id: id, name: ParamNames[id], v: ps[i+1]})
	}
	return out
}

// frHarness is the Fractorium reference build PROCGEN_FRACTORIUM_HARNESS
// names (scripts/fractorium-harness.sh builds it); without it the test
// skips.
func frHarness(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("PROCGEN_FRACTORIUM_HARNESS")
	if bin == "" {
		t.Skip("PROCGEN_FRACTORIUM_HARNESS unset: build the reference with scripts/fractorium-harness.sh DIR and name DIR/harness")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no Fractorium harness at %s (scripts/fractorium-harness.sh builds it): %v", bin, err)
	}
	return bin
}

// frCases are the Fractorium-only variations (each alone at its defaults,
// at parameters reaching its branches, and in sums and stages where
// Fractorium's assign and sum semantics matter) that TestFractoriumReference
// maps through both procgen and Fractorium's classes.
func frCases() [][]frTerm {
	P := func(id ParamID) float64 { return float64(id) }
	// The partners in sums: julia (flam3's, 2D in both) and linear3D
	// (Fractorium's linear carries z, w z, where procgen's, flam3's, does
	// not; linear3D is that map in both).
	lin, jul := frReg(VarLinear3D, 0.6), frReg(VarJulia, 0.7)
	return append([][]frTerm{
		{frReg(VarGaussian, 0.8)},
		{frReg(VarGaussian, -1.3)},
		{lin, frReg(VarGaussian, 0.5)},
		{jul, frReg(VarGaussian, 0.4)},
		{frPre(VarGaussian, 0.6), lin},
		{frPre(VarGaussian, 0.9)}, // no regular variation: the moved point passes
		{frReg(VarMirrorX, 0.9)},
		{lin, frReg(VarMirrorX, 0.4)},                 // clears the sum before it
		{frReg(VarMirrorX, 1), frReg(VarWavesn, 0.5)}, // clears the sum, wavesn adds after it
		{frPre(VarMirrorX, 0.8), jul},
		{frPre(VarMirrorX, 1.2), frPre(VarGaussian, 0.3), lin},
		{jul, frPost(VarMirrorX, 0.7)},
		{lin, frPost(VarGaussian, 0.5), frPost(VarSpherical3DFr, 0.8)},
		{frReg(VarWavesn, 0.9)},
		{frReg(VarWavesn, 1.1, P(PWavesnPower), 3, P(PWavesnFreqx), -1.5, P(PWavesnFreqy), 2.7, P(PWavesnScalex), 0.7,
			P(PWavesnScaley), -0.4, P(PWavesnIncx), 0.4, P(PWavesnIncy), -0.3)},
		{frReg(VarWavesn, 0.8, P(PWavesnPower), -2.5, P(PWavesnIncx), 1.2)},
		{frReg(VarWavesn, 0.7, P(PWavesnPower), 0)},
		{jul, frReg(VarWavesn, 0.5, P(PWavesnPower), 2)},
		{frReg(VarGnarly, 0.9)},
		{frReg(VarGnarly, 1.2, P(PGnarlyCellsize), 0.7, P(PGnarlyTwist), -2)},
		{frReg(VarGnarly, 0.8, P(PGnarlyCellsize), 0)},
		{frReg(VarGnarly, 1, P(PGnarlyCellsize), -1.3, P(PGnarlyTwist), 0.5)},
		{frReg(VarFalloffFr, 0.9)},
		{frReg(VarFalloffFr, 1.1, P(PFalloffFrType), 1, P(PFalloffFrScatter), 5, P(PFalloffFrMindist), 0.1,
			P(PFalloffFrMulZ), 0.8, P(PFalloffFrX0), 0.2, P(PFalloffFrY0), -0.3, P(PFalloffFrZ0), 0.4)},
		{frReg(VarFalloffFr, 0.8, P(PFalloffFrType), 2, P(PFalloffFrBoxpow), 3, P(PFalloffFrInvert), 1,
			P(PFalloffFrMindist), 0, P(PFalloffFrScatter), 20, P(PFalloffFrMulZ), 0.5)},
		{frReg(VarFalloffFr, 1.2, P(PFalloffFrType), 2, P(PFalloffFrScatter), 60, P(PFalloffFrMulX), 1.5,
			P(PFalloffFrMulY), -0.5, P(PFalloffFrMulZ), 1)},
		{jul, frReg(VarFalloffFr, 0.5, P(PFalloffFrType), 1)},
		{frReg(VarRotateY, 0.3)},
		{frReg(VarRotateY, -1.4)},
		{jul, frReg(VarRotateY, 0.6)},                          // assigns the sum's y
		{frReg(VarRotateY, 0.6), frReg(VarSpherical3DFr, 0.4)}, // Spherical3D adds to the assigned y
		{frReg(VarRotateZ, 0.7)},
		{lin, frReg(VarRotateZ, -0.3), frReg(VarSpherical3DFr, 0.2)}, // assigns the sum's z
		{frReg(VarRblur, 0.9)},
		{frReg(VarRblur, 1.1, P(PRblurStrength), 0.4, P(PRblurOffset), 0.2, P(PRblurCenterX), 0.3, P(PRblurCenterY), -0.2)},
		{frReg(VarRblur, 0.7, P(PRblurOffset), 5)},
		{lin, frReg(VarRblur, -0.5, P(PRblurStrength), 2)},
		{frReg(VarSphereblur, 0.9)},
		{frReg(VarSphereblur, 1.2, P(PSphereblurPower), 2.5)},
		{frReg(VarSphereblur, 0.6, P(PSphereblurPower), 0.3)},
		{frReg(VarSphereblur, 0.7, P(PSphereblurPower), -1)},
		{frReg(VarBcircle, 0.9)},
		{frReg(VarBcircle, 1.1, P(PBcircleScale), 0.6, P(PBcircleBorderwidth), 0.5)},
		{frReg(VarBcircle, 0.8, P(PBcircleScale), 2, P(PBcircleBorderwidth), -0.3)},
		{frReg(VarBcircle, 0.7, P(PBcircleScale), 1.5), jul},
		{frReg(VarSpherical3DFr, 0.7)},
		{frReg(VarSpherical3DFr, -1.2), lin},
		{frPre(VarSpherical3DFr, 0.9), jul},
		{frReg(VarMobiusFr, 0.8)},
		{frReg(VarMobiusFr, 1.1, P(PMobiusFrReA), 0.3, P(PMobiusFrImA), -0.7, P(PMobiusFrReB), 1.2, P(PMobiusFrImB), 0.4,
			P(PMobiusFrReC), -0.5, P(PMobiusFrImC), 0.9, P(PMobiusFrReD), 0.2, P(PMobiusFrImD), -1.1)},
		{jul, frReg(VarMobiusFr, 0.6, P(PMobiusFrReC), 1, P(PMobiusFrImD), 0.5)},
	}, frJwf12Cases()...)
}

// frKeepsZ reports whether Fractorium's class of id adds w z to z where
// procgen's adds nothing: Mobius, and waves2 and log, whose z (waves2's
// wave aside) is that.
func frKeepsZ(id VarID) bool {
	return id == VarMobiusFr || id == VarWaves2Z || id == VarLogBase
}

// frStageCases are pre_ and post_ stages of flam3's variations and of
// plugins Fractorium has, the ones the artists' corpus writes among them:
// stages that replace the point (foci, curl, log, unpolar, spherical,
// polar, curl3D, blur_zoom) and stages that add to it (Fractorium's
// ASSIGNTYPE_SUM: gaussian_blur, arch, square, blur3D, ztranslate,
// sineblur), before and after regular variations, and pre and post stages
// together. plane holds the cases mapped on the plane z = 0: Fractorium's
// versions of 62 of its 2D variations (flam3's linear, spherical, swirl,
// foci, log, polar, gaussian_blur, square ... among them) carry z as w z,
// where procgen's, flam3's 2D maps, leave it (a stage keeps the point's z
// and adds none); the others move z themselves and are mapped in 3D. Left
// out: pie (flam3 picks its slice by rounding, Fractorium by truncating:
// the same slices with the same odds, not the same draw) and juliaq
// (JWildfire picks its root from an integer up to 2^31, which procgen
// follows, Fractorium from one up to 32767).
func frStageCases() (space, plane [][]frTerm) {
	P := func(id ParamID) float64 { return float64(id) }
	lin, jul := frReg(VarLinear3D, 0.6), frReg(VarJulia, 0.7)
	space = [][]frTerm{
		{frPre(VarBlur3D, 0.3), lin},
		{frPre(VarZtranslate, 0.4), lin},
		{lin, frPost(VarZtranslate, 0.5)},
		{frPre(VarSineblur, 0.5, P(PSineblurPower), 1.5), jul},
		// Their defaults differ between the programs: every parameter given.
		{frPre(VarCurl3D, 0.4, P(PCurl3DCx), 0.3, P(PCurl3DCy), -0.2, P(PCurl3DCz), 0.45), jul},
		{jul, frPost(VarBlurZoom, 0.6, P(PBlurZoomLength), 0.3, P(PBlurZoomX), 0.1, P(PBlurZoomY), -0.2)},
	}
	plane = [][]frTerm{
		{frPre(VarFoci, 0.7), jul},
		{frPre(VarCurl, 0.5, P(PCurlC1), 0.3, P(PCurlC2), -0.2), lin},
		{frPre(VarLog, 0.6), jul},
		{frPre(VarUnpolar, 0.8), lin},
		{frPre(VarSpherical, 0.9), lin, frReg(VarSwirl, 0.3)},
		{frPre(VarGaussianBlur, 0.3), lin},
		{frPre(VarArch, 0.4), jul},
		{frPre(VarSquare, 0.6), lin},
		{jul, frPost(VarLog, 0.5)},
		{lin, frPost(VarCurl, 0.7, P(PCurlC1), -0.4)},
		{jul, frPost(VarFoci, 0.6)},
		{lin, frPost(VarGaussianBlur, 0.2)},
		{frPre(VarPolar, 0.5), frPre(VarFoci, 0.4), lin},
		{lin, frPost(VarPolar, 0.5)},
	}
	return space, plane
}

// frDraws are the harness draws for one term from procgen's stream s,
// which it advances past them: each Float64 procgen takes, as the value
// in [0, 1) the harness's stand-in ISAAC answers from; julia's one bit
// (procgen's Uint64 & 1, Fractorium's RandBit) as 0.75 for a set bit, 0.25
// for a clear one.
func frDraws(id VarID, s *rng.Stream) []float64 {
	var d []float64
	for range varDraws[id] {
		u := s.Uint64()
		if id == VarJulia {
			d = append(d, 0.25+0.5*float64(u&1))
			continue
		}
		d = append(d, rng.Float64(u))
	}
	if id == VarBlur3D && len(d) == 6 {
		// procgen draws the four of the radius, then the two angles;
		// Fractorium the first angle, the four, the second.
		d = []float64{d[4], d[0], d[1], d[2], d[3], d[5]}
	}
	return d
}

// frCase appends the harness line for terms at the affine point pt to in,
// each term with the draws procgen makes for it from the stream key seeds
// (pre stages first, then the regular terms, then post stages, the order
// procgen and Fractorium's Xform::Apply run them), and returns procgen's
// map of pt (ApplyXform3D on a fresh xform holding terms).
func frCase(in *bytes.Buffer, terms []frTerm, pt [3]float64, key uint64) (ox, oy, oz float64) {
	x := newXform(0)
	for _, tm := range terms {
		switch {
		case tm.pre || tm.post:
			x.Stages = append(x.Stages, StageTerm{Post: tm.post, ID: tm.id, Weight: tm.w})
		default:
			x.Vars = append(x.Vars, VarTerm{ID: tm.id, Weight: tm.w})
		}
		for _, p := range tm.params {
			x.Params[p.id] = p.v
		}
	}
	Precalc(&x)
	// procgen runs an xform's regular variations in VarID order (README:
	// mirror_x and rotate_y/z read the sum in procgen's order, where
	// Fractorium keeps the file's); the harness is given that order, so
	// what is compared is each variation's map and its reading of the sum.
	terms = slices.Clone(terms)
	var reg []frTerm
	for _, tm := range terms {
		if tm.stage() == "reg" {
			reg = append(reg, tm)
		}
	}
	slices.SortStableFunc(reg, func(a, b frTerm) int { return cmp.Compare(a.id, b.id) })
	for i, tm := range terms {
		if tm.stage() == "reg" {
			terms[i], reg = reg[0], reg[1:]
		}
	}
	s := rng.NewStream(key)
	peek := s
	draws := make([][]float64, len(terms))
	for _, st := range []string{"pre", "reg", "post"} {
		for i, tm := range terms {
			if tm.stage() == st {
				draws[i] = frDraws(tm.id, &peek)
			}
		}
	}
	fmt.Fprintf(in, "%.17g %.17g %.17g %d", pt[0], pt[1], pt[2], len(terms))
	for i, tm := range terms {
		fmt.Fprintf(in, " %s %s %.17g %d", tm.stage(), VarNames[tm.id], tm.w, len(draws[i]))
		for _, d := range draws[i] {
			fmt.Fprintf(in, " %.17g", d)
		}
		fmt.Fprintf(in, " %d", len(tm.params))
		for _, p := range tm.params {
			fmt.Fprintf(in, " %s %.17g", p.name, p.v)
		}
	}
	in.WriteByte('\n')
	ox, oy, oz, _ = ApplyXform3D(&x, pt[0], pt[1], pt[2], &s)
	return ox, oy, oz
}

// TestFractoriumReference maps sample points through procgen's
// Fractorium-only variations and through Fractorium's own classes
// (scripts/fractorium-harness.sh builds them with a driver;
// PROCGEN_FRACTORIUM_HARNESS names its binary), with the same random draws,
// and compares to jwfTol. It skips without the harness.
func TestFractoriumReference(t *testing.T) {
	bin := frHarness(t)
	var in bytes.Buffer
	var got []jwfWant
	vars := map[VarID]bool{}
	space, plane := frStageCases()
	cases := append(append(frCases(), space...), plane...)
	for ci, terms := range cases {
		names := make([]string, len(terms))
		for i, tm := range terms {
			names[i] = tm.String()
			vars[tm.id] = true
		}
		for pi, pt := range jwfPoints() {
			if ci >= len(cases)-len(plane) || slices.ContainsFunc(terms, func(tm frTerm) bool { return frKeepsZ(tm.id) }) {
				// Fractorium's Mobius, waves2 and log carry z (w z) as its
				// linear does, and so do the 2D stages of frStageCases'
				// plane; procgen's, as JWildfire's classes without
				// preserve_z and flam3's 2D variations, write none. These
				// cases map points of the plane z = 0, where both agree.
				pt[2] = 0
			}
			x, y, z := frCase(&in, terms, pt, rng.Key(11, uint64(ci), uint64(pi)))
			got = append(got, jwfWant{x: x, y: y, z: z,
				label: fmt.Sprintf("case %d [%s] point %v", ci, strings.Join(names, ", "), pt)})
		}
	}
	bad := refCompare(t, exec.Command(bin), "Fractorium", &in, got)
	t.Logf("%d of %d cases (%d variations) agree with Fractorium's classes", len(got)-bad, len(got), len(vars))
}
