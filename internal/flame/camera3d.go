package flame

// The 3D camera of Fractorium and JWildfire: points that carry z are
// rotated by yaw and pitch, divided by a perspective factor and blurred by
// depth of field before they are binned. flam3 3.1.1 ignores these
// attributes; the programs that wrote the files honour them.
//
// The two programs share the rotation (yaw about the view axis, then pitch
// about the image's x axis) and the perspective divisor 1 - persp·z', but
// differ in the rest, so the genome remembers which wrote it:
// Both write the angles in radians (JWildfire converts its editor's degrees).
//   - Fractorium (and Apophysis 7X, and flam3-style files): cam_zpos is subtracted from z before the rotation; the depth
//     blur moves a point by rand·0.1·dof·z' (in focus at z' = 0) in a
//     random direction; a divisor of exactly 0 becomes a tiny epsilon.
//   - JWildfire (version="JWildfire…"): cam_pos_x/y/z
//     move the camera after the rotation and cam_pos_z also adds to the
//     divisor; cam_zpos is the depth in focus and only points in front of it
//     (cam_zpos - z' > 0) are blurred, by rand·0.1·dof·(cam_zpos - z');
//     points with a divisor below epsilon are dropped.

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Camera3D is a genome's 3D camera as its file wrote it.
type Camera3D struct {
	Pitch, Yaw  float64 // cam_pitch, cam_yaw, radians
	Perspective float64 // cam_persp (Fractorium also reads Apophysis' cam_perspective)
	ZPos        float64 // cam_zpos
	DOF         float64 // cam_dof: depth-of-field blur
	Pos         [3]float64
	// JWildfire is set for JWildfire's files: its semantics above apply.
	JWildfire bool
}

// Active reports whether the camera changes the picture: a genome without
// one keeps the plain 2D loop.
func (c *Camera3D) Active() bool {
	return c.Pitch != 0 || c.Yaw != 0 || c.Perspective != 0 || c.ZPos != 0 || c.DOF != 0 ||
		c.Pos != [3]float64{}
}

// projector is a Camera3D made ready for the sample loop.
type projector struct {
	m       [3][3]float64 // m[col][row] as both programs index it
	persp   float64
	zpos    float64
	blur    float64 // 0.1·dof
	pos     [3]float64
	jwf     bool
	blurred bool
}

// zEpsilon is the smallest perspective divisor used (Fractorium) or
// accepted (JWildfire).
const zEpsilon = 1e-10

// newProjector returns nil for an inactive camera.
func newProjector(c *Camera3D) *projector {
	if !c.Active() {
		return nil
	}
	sy, cy := math.Sincos(-c.Yaw)
	sp, cp := math.Sincos(c.Pitch)
	p := &projector{persp: c.Perspective, zpos: c.ZPos, blur: 0.1 * c.DOF, pos: c.Pos, jwf: c.JWildfire,
		blurred: c.DOF != 0}
	p.m[0] = [3]float64{cy, cp * sy, sp * sy}
	p.m[1] = [3]float64{-sy, cp * cy, sp * cy}
	p.m[2] = [3]float64{0, -sp, cp}
	return p
}

// project maps a point with z to the image plane; ok is false for a point
// JWildfire would not draw (behind the camera). The blur draws two numbers
// from r, and only when the camera has depth of field, so a render stays a
// function of --seed.
func (p *projector) project(x, y, z float64, r *rng.Stream) (px, py float64, ok bool) {
	if !p.jwf {
		z -= p.zpos
	}
	cx := p.m[0][0]*x + p.m[1][0]*y + p.m[2][0]*z + p.pos[0]
	cy := p.m[0][1]*x + p.m[1][1]*y + p.m[2][1]*z + p.pos[1]
	cz := p.m[0][2]*x + p.m[1][2]*y + p.m[2][2]*z + p.pos[2]
	zr := 1 - p.persp*cz + p.pos[2]
	if p.jwf {
		if zr < zEpsilon {
			return 0, 0, false
		}
	} else if zr == 0 {
		zr = zEpsilon
	}
	if p.blurred {
		depth := cz // Fractorium: in focus at z' = 0
		if p.jwf {
			depth = p.zpos - cz
		}
		if !p.jwf || depth > 0 {
			a := 2 * math.Pi * r.Float64()
			dr := r.Float64() * p.blur * depth
			s, c := math.Sincos(a)
			cx += dr * c
			cy += dr * s
		}
	}
	return cx / zr, cy / zr, true
}

// interpCamera blends the keyframes' cameras with mix (interpolateN's
// weighted sum) so that an animation of a 3D flame is not rendered flat;
// which program's semantics apply comes from the first keyframe.
func interpCamera(mix func(func(k *AnimGenome) float64) float64, jwf bool) Camera3D {
	c := Camera3D{JWildfire: jwf}
	fields := []struct {
		dst *float64
		get func(*Camera3D) *float64
	}{
		{&c.Pitch, func(k *Camera3D) *float64 { return &k.Pitch }},
		{&c.Yaw, func(k *Camera3D) *float64 { return &k.Yaw }},
		{&c.Perspective, func(k *Camera3D) *float64 { return &k.Perspective }},
		{&c.ZPos, func(k *Camera3D) *float64 { return &k.ZPos }},
		{&c.DOF, func(k *Camera3D) *float64 { return &k.DOF }},
		{&c.Pos[0], func(k *Camera3D) *float64 { return &k.Pos[0] }},
		{&c.Pos[1], func(k *Camera3D) *float64 { return &k.Pos[1] }},
		{&c.Pos[2], func(k *Camera3D) *float64 { return &k.Pos[2] }},
	}
	for _, f := range fields {
		*f.dst = mix(func(k *AnimGenome) float64 { return *f.get(&k.Camera) })
	}
	return c
}
