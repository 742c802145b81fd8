package flame

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

func near9(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Hand-derived projections: pitch tilts z into the image's y, yaw turns
// the plane, perspective divides by 1 - persp·z', and the two programs'
// cam_zpos and cam_pos meanings.
func TestProjectCamera(t *testing.T) {
	cases := []struct {
		name       string
		cam        Camera3D
		x, y, z    float64
		wx, wy     float64
		wantInside bool
	}{
		{"pitch 90: z becomes -y", Camera3D{Pitch: math.Pi / 2}, 0, 0, 1, 0, -1, true},
		{"pitch 90: y goes into depth", Camera3D{Pitch: math.Pi / 2}, 0.5, 1, 0, 0.5, 0, true},
		{"pitch 90 and perspective: depth is the old y", Camera3D{Pitch: math.Pi / 2, Perspective: 0.5}, 0.5, 1, 0, 1, 0, true},
		{"yaw 90: x turns to -y", Camera3D{Yaw: math.Pi / 2}, 1, 0, 0, 0, -1, true},
		{"yaw 90: y turns to x", Camera3D{Yaw: math.Pi / 2}, 0, 1, 0, 1, 0, true},
		{"perspective at depth 1", Camera3D{Perspective: 0.5}, 1, 2, 1, 2, 4, true},
		{"perspective at depth -1", Camera3D{Perspective: 0.5}, 1, 2, -1, 1 / 1.5, 2 / 1.5, true},
		{"Fractorium zpos moves depth 1 to 0", Camera3D{Perspective: 0.5, ZPos: 1}, 1, 2, 1, 1, 2, true},
		{"Fractorium keeps points behind the eye", Camera3D{Perspective: 0.5}, 1, 2, 3, -2, -4, true},
		{"JWildfire drops points behind the eye", Camera3D{Perspective: 0.5, JWildfire: true}, 1, 2, 3, 0, 0, false},
		{"JWildfire zpos is only the focus", Camera3D{Perspective: 0.5, ZPos: 1, JWildfire: true}, 1, 2, 1, 2, 4, true},
		{"JWildfire cam_pos", Camera3D{Pos: [3]float64{1, 0, 0.5}, JWildfire: true}, 1, 2, 0, 2 / 1.5, 2 / 1.5, true},
	}
	for _, c := range cases {
		p := newProjector(&c.cam)
		s := rng.NewStream(1)
		x, y, ok := p.project(c.x, c.y, c.z, &s)
		if ok != c.wantInside || (ok && (!near9(x, c.wx) || !near9(y, c.wy))) {
			t.Errorf("%s: (%g, %g, %g) → (%g, %g, %v), want (%g, %g, %v)", c.name, c.x, c.y, c.z, x, y, ok, c.wx, c.wy, c.wantInside)
		}
	}
	if newProjector(&Camera3D{JWildfire: true}) != nil {
		t.Error("a zero camera gave a projector")
	}
}

// blurSpread projects (0.3, -0.2, z) n times and returns the largest and
// the mean distance from the unblurred image of the point.
func blurSpread(t *testing.T, cam Camera3D, z float64, n int) (maxD, meanD float64) {
	t.Helper()
	sharp := cam
	sharp.DOF = 0
	sharp.Perspective += 1e-300 // keep the projector non-nil when DOF is the only setting
	wx, wy, _ := newProjector(&sharp).project(0.3, -0.2, z, nil)
	p := newProjector(&cam)
	s := rng.NewStream(rng.Key(7, 1))
	for i := 0; i < n; i++ {
		x, y, ok := p.project(0.3, -0.2, z, &s)
		if !ok {
			t.Fatalf("point at z %g dropped", z)
		}
		d := math.Hypot(x-wx, y-wy)
		maxD = math.Max(maxD, d)
		meanD += d / float64(n)
	}
	return maxD, meanD
}

// Depth of field: none without cam_dof (and no random numbers drawn), a
// disc of radius 0.1·dof·|z' - focus| with it, growing with the distance
// from the plane in focus.
func TestProjectDepthOfField(t *testing.T) {
	s := rng.NewStream(5)
	p := newProjector(&Camera3D{Pitch: 0.3, Perspective: 0.2})
	for _, z := range []float64{-2, 0, 1.5} {
		x1, y1, _ := p.project(0.3, -0.2, z, &s)
		x2, y2, _ := p.project(0.3, -0.2, z, &s)
		if x1 != x2 || y1 != y2 {
			t.Errorf("dof 0 moved the point at z %g: (%g, %g) then (%g, %g)", z, x1, y1, x2, y2)
		}
	}
	if fresh := rng.NewStream(5); s.Float64() != fresh.Float64() {
		t.Error("dof 0 drew random numbers")
	}

	fr := Camera3D{DOF: 2}
	if maxD, _ := blurSpread(t, fr, 0, 200); maxD != 0 {
		t.Errorf("Fractorium: a point at depth 0 (in focus) moved by %g", maxD)
	}
	max1, mean1 := blurSpread(t, fr, 1, 2000)
	max2, mean2 := blurSpread(t, fr, -2, 2000)
	if max1 > 0.2+1e-12 || max1 < 0.18 || max2 > 0.4+1e-12 || max2 < 0.36 {
		t.Errorf("Fractorium blur radii %g at |z| 1 and %g at |z| 2, want up to 0.2 and 0.4", max1, max2)
	}
	if r := mean2 / mean1; r < 1.8 || r > 2.2 {
		t.Errorf("mean blur at |z| 2 is %g× that at |z| 1, want 2×", r)
	}

	jw := Camera3D{DOF: 2, ZPos: 1, JWildfire: true}
	if maxD, _ := blurSpread(t, jw, 1.5, 200); maxD != 0 {
		t.Errorf("JWildfire: a point behind the focus moved by %g", maxD)
	}
	if maxD, _ := blurSpread(t, jw, -1, 2000); maxD > 0.4+1e-12 || maxD < 0.36 {
		t.Errorf("JWildfire: blur radius %g 2 in front of the focus, want up to 0.4", maxD)
	}
}

// cameraDoc is a small flame with the given extra <flame> attributes.
func cameraDoc(attrs string) string {
	return `<flame name="cam" size="48 48" center="0 0" scale="12" quality="4" ` + attrs + `>
<xform weight="0.5" color="0" linear="1" coefs="0.5 0 0 0.5 -0.5 0"/>
<xform weight="0.5" color="1" julia="1" coefs="0.5 0.2 -0.2 0.5 0.5 0.3"/>
<palette count="2" format="RGB">FF0000FFFF00</palette></flame>`
}

func renderDoc(t *testing.T, doc string, seed uint64) *Frame {
	t.Helper()
	g, _ := parseOne(t, doc, ParseOptions{})
	f, _, err := CPU{}.Render(context.Background(), g, Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func samePix(a, b *Frame) bool {
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			return false
		}
	}
	return len(a.Pix) == len(b.Pix)
}

// A zero camera, in either program's spelling, renders byte for byte as no
// camera; a pitch changes the picture; a depth-of-field render is a
// function of the seed.
func TestRenderCamera(t *testing.T) {
	none := renderDoc(t, cameraDoc(""), 3)
	zero := renderDoc(t, cameraDoc(`cam_pitch="0" cam_yaw="0.0" cam_persp="0" cam_perspective="0" cam_zpos="0" cam_dof="0" cam_pos_x="0.0"`), 3)
	if !samePix(none, zero) {
		t.Error("a zero camera renders differently from none")
	}
	pitched := renderDoc(t, cameraDoc(`cam_pitch="0.9" cam_persp="0.3"`), 3)
	if samePix(none, pitched) {
		t.Error("cam_pitch 0.9 renders as no camera")
	}
	dof := cameraDoc(`version="JWildfire V7.30" cam_pitch="0.9" cam_dof="0.5" cam_zpos="0.2"`)
	if a, b := renderDoc(t, dof, 4), renderDoc(t, dof, 4); !samePix(a, b) {
		t.Error("a depth-of-field render differs between runs with one seed")
	}
}

// Both programs' spellings are read; JWildfire's version selects its
// semantics; the camera is written back and read again.
func TestParseCamera(t *testing.T) {
	fr, _ := parseOne(t, cameraDoc(`version="EMBER-LNX-1.0.0.19" cam_zpos="0.5" cam_persp="0.25" cam_yaw="0.1" cam_pitch="0.8" cam_dof="0.3"`), ParseOptions{Strict: true})
	want := Camera3D{Pitch: 0.8, Yaw: 0.1, Perspective: 0.25, ZPos: 0.5, DOF: 0.3}
	if fr.Camera != want {
		t.Errorf("Fractorium camera %+v, want %+v", fr.Camera, want)
	}
	apo, _ := parseOne(t, cameraDoc(`cam_perspective="0.4"`), ParseOptions{Strict: true})
	if apo.Camera != (Camera3D{Perspective: 0.4}) {
		t.Errorf("Apophysis cam_perspective: %+v", apo.Camera)
	}
	jw, ws := parseOne(t, cameraDoc(`version="JWildfire V7.30 (27.11.2021)" cam_pitch="1.7278759594743864" cam_yaw="0.36" cam_persp="0.04" cam_pos_x="0.1" cam_pos_y="-0.2" cam_pos_z="0.3" cam_zpos="0.7" cam_dof="0.2"`), ParseOptions{Strict: true})
	want = Camera3D{Pitch: 1.7278759594743864, Yaw: 0.36, Perspective: 0.04, ZPos: 0.7, DOF: 0.2, Pos: [3]float64{0.1, -0.2, 0.3}, JWildfire: true}
	if jw.Camera != want || len(ws) != 0 {
		t.Errorf("JWildfire camera %+v (warnings %v), want %+v", jw.Camera, ws, want)
	}
	for _, bad := range []string{`cam_pitch="steep"`, `cam_dof="NaN"`, `cam_persp="-Inf"`} {
		if _, _, err := parseString(cameraDoc(bad), ParseOptions{}); err == nil || !strings.Contains(err.Error(), "bad cam_") {
			t.Errorf("%s: %v, want a bad value error", bad, err)
		}
	}
	x, err := GenomeXML(fr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, _ := parseOne(t, string(x), ParseOptions{Strict: true})
	if back.Camera != fr.Camera {
		t.Errorf("camera written and read back as %+v, want %+v\n%s", back.Camera, fr.Camera, x)
	}
}

// A camera switches a 2D genome to the z-carrying loop, and on the GPU to
// the flame3d family (gpuCarriesZ) with the projector's numbers in the
// genome; a zero camera changes nothing.
func TestCameraOnGPU(t *testing.T) {
	g, _ := parseOne(t, cameraDoc(`cam_yaw="0.4" cam_persp="0.3" cam_dof="0.2"`), ParseOptions{})
	p, err := newPlan(g, Options{Width: 16, Height: 16})
	if err != nil {
		t.Fatal(err)
	}
	cg := p.chaosGame(1)
	if !cg.z3 || cg.proj == nil {
		t.Errorf("z3 = %v, projector %v: want the z-carrying loop with the camera", cg.z3, cg.proj)
	}
	if genomeUsesPluginVars(g) || !gpuCarriesZ(g) {
		t.Error("a genome with a camera must render on the GPU with z")
	}
	gg, _, err := p.gpuInputs(cg)
	if err != nil {
		t.Fatal(err)
	}
	pr := cg.proj
	if gg.Z3 != 1 || gg.Cam != 1 || gg.CamBlurred != 1 || gg.CamPersp != float32(pr.persp) ||
		gg.CamBlur != float32(pr.blur) || gg.CamM[1] != float32(pr.m[0][1]) || gg.CamM[3] != float32(pr.m[1][0]) {
		t.Errorf("GPU genome camera %v %v %v %v %v %v, want the projector's %+v", gg.Z3, gg.Cam, gg.CamBlurred,
			gg.CamPersp, gg.CamBlur, gg.CamM, *pr)
	}
	flat, _ := parseOne(t, cameraDoc(`cam_yaw="0"`), ParseOptions{})
	if gpuCarriesZ(flat) {
		t.Error("a zero camera carries z")
	}
}

// An animation's frames blend the keyframes' cameras (a 3D flame's frames
// are not drawn flat); the first keyframe says which program's camera.
func TestInterpCamera(t *testing.T) {
	k1 := &AnimGenome{Genome: Genome{Camera: Camera3D{Pitch: 1, DOF: 0.5, JWildfire: true}}}
	k2 := &AnimGenome{Genome: Genome{Camera: Camera3D{Pitch: 2, Yaw: 0.8, Pos: [3]float64{0, 0, 4}}}}
	mix := func(f func(k *AnimGenome) float64) float64 { return 0.75*f(k1) + 0.25*f(k2) }
	got := interpCamera(mix, k1.Camera.JWildfire)
	want := Camera3D{Pitch: 1.25, Yaw: 0.2, DOF: 0.375, Pos: [3]float64{0, 0, 1}, JWildfire: true}
	if got != want {
		t.Errorf("interpCamera = %+v, want %+v", got, want)
	}
}
