package pga

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Textures and UVs, as CityEngine's CGA has them: SetupProjection(XY, w, h)
// fixes a planar projection in the world from the current scope (u along
// its X, v along its Y, both 0 at the scope's low corner, w and h metres a
// texture repeat), which the shape's descendants inherit; ProjectUV() marks
// a shape's descendants to be drawn with texture coordinates from the last
// projection set up on their derivation; Texture("file.png") and
// Color("#rrggbb") give them a material. The projection is kept as two
// float32 affine forms (u = a·p + a0, v = b·p + b0, p in world metres), the
// same eight numbers on the CPU (in the lot's projTable) and in the GPU's
// work items (PgaItem.proj), so the host draws the same UVs from either
// backend's terminals (Result.Projections).

// MaterialDef is a material a Texture or Color operation names.
type MaterialDef struct {
	// Name is a label for the output's material names: the image's file
	// name without its extension, or the colour's hex digits.
	Name  string
	Color [3]float64 // linear RGB; white under a texture
	// Image is the texture file: a path relative to the grammar's folder
	// resolved against it (Grammar.File), "" for a colour.
	Image string
	Pos   Pos // of the operation that first named it
}

// maxMaterials is the most Texture and Color materials a grammar may name:
// a shape keeps its material in 16 bits (PgaItem.mat).
const maxMaterials = math.MaxInt16

// projTable holds the projections SetupProjection made in one lot; shapes
// and terminals refer to them by 1 + index (Shape.proj), gathered into
// Result.Projections with the terminals. The 32 bytes in every shape and
// terminal instead cost grammars without textures 6 % of the CPU's
// evaluation (Skyscrapers: terminals of 256 bytes rather than 224). The
// lock is for the subtrees of a split lot (split_lot.go), which share it.
type projTable struct {
	mu sync.Mutex
	p  [][8]float32
}

func (t *projTable) add(p [8]float32) int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.p = append(t.p, p)
	return int32(len(t.p))
}

// plane reads a projection's axes: two different letters of X, Y and Z.
func (p *parser) plane() (Arg, error) {
	t := p.tok()
	var a Arg
	if t.kind == tIdent && len(t.text) == 2 {
		u, okU := axisOf(t.text[0])
		v, okV := axisOf(t.text[1])
		if okU && okV && u != v {
			p.next()
			a.Plane = [2]Axis{u, v}
			return a, nil
		}
	}
	return a, p.expected("projection axes XY, XZ, YX, YZ, ZX or ZY")
}

func axisOf(c byte) (Axis, bool) {
	switch c {
	case 'X':
		return AxisX, true
	case 'Y':
		return AxisY, true
	case 'Z':
		return AxisZ, true
	}
	return 0, false
}

// material interns the material of a Texture or Color operation.
func (p *parser) material(op *Op) error {
	a := op.Args[0]
	var m MaterialDef
	if op.Name == "Color" {
		c, err := hexColor(a.Str)
		if err != nil {
			return &SyntaxError{a.Pos, err.Error()}
		}
		m = MaterialDef{Name: strings.ToLower(strings.TrimPrefix(a.Str, "#")), Color: c, Pos: a.Pos}
	} else {
		if a.Str == "" || strings.ContainsFunc(a.Str, func(r rune) bool { return r < ' ' }) {
			return &SyntaxError{a.Pos, "Texture needs an image file name"}
		}
		ext := strings.ToLower(filepath.Ext(a.Str))
		if ext != ".png" && ext != ".jpg" && ext != ".jpeg" {
			return &SyntaxError{a.Pos, fmt.Sprintf("Texture %q: want a .png or .jpg image", a.Str)}
		}
		img := a.Str
		if !filepath.IsAbs(img) && p.g.File != "" {
			img = filepath.Join(filepath.Dir(p.g.File), img)
		}
		m = MaterialDef{Name: label(strings.TrimSuffix(filepath.Base(a.Str), filepath.Ext(a.Str))), Color: [3]float64{1, 1, 1}, Image: img, Pos: a.Pos}
	}
	for i, have := range p.g.Materials {
		if have.Color == m.Color && have.Image == m.Image {
			op.Material = i + 1
			return nil
		}
	}
	if len(p.g.Materials) >= maxMaterials {
		return &SyntaxError{op.Pos, fmt.Sprintf("more than %d materials", maxMaterials)}
	}
	p.g.Materials = append(p.g.Materials, m)
	op.Material = len(p.g.Materials)
	return nil
}

// label keeps letters, digits, '-' and '_' of s: material names may not
// hold white space (OBJ splits on it).
func label(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !isLetter(c) && !isDigit(c) && c != '-' {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "texture"
	}
	return string(b)
}

// hexColor reads "#rrggbb" (sRGB, as CGA's colours) as linear RGB.
func hexColor(s string) ([3]float64, error) {
	var c [3]float64
	h := strings.TrimPrefix(s, "#")
	if len(h) != 6 || len(s) != 7 {
		return c, fmt.Errorf("colour %q: want \"#rrggbb\"", s)
	}
	for k := range c {
		v, err := strconv.ParseUint(h[2*k:2*k+2], 16, 8)
		if err != nil {
			return c, fmt.Errorf("colour %q: want \"#rrggbb\"", s)
		}
		c[k] = srgbToLinear(float64(v) / 255)
	}
	return c, nil
}

func srgbToLinear(x float64) float64 {
	if x <= 0.04045 {
		return x / 12.92
	}
	return math.Pow((x+0.055)/1.055, 2.4)
}

// projection is the planar projection SetupProjection(plane, w, h) fixes
// from s: u along the scope's axis plane[0] from its low corner, a texture
// every w metres (a negative w: -w times the scope's size along that axis,
// as Scale reads it); v likewise along plane[1] with h. A repeat of 0 or
// one that is not finite makes that coordinate 0. pga_projection in
// cuda/pga_run.cuh computes the same numbers in the same order.
func projection(s *Shape, plane [2]Axis, w, h float64) [8]float32 {
	var o Vec3
	for r := 0; r < 3; r++ {
		o[r] = s.Transform[r*4+3]
		for c := 0; c < 3; c++ {
			o[r] -= float64(s.Transform[r*4+c]*s.Size[c]) / 2 // no fused multiply-add: the device rounds each step
		}
	}
	var p [8]float32
	for k, rep := range [2]float64{w, h} {
		a := plane[k]
		if rep < 0 {
			rep = float64(-rep * s.Size[a])
		}
		if rep == 0 || math.IsNaN(rep) || math.IsInf(rep, 0) {
			continue
		}
		ax := Vec3{s.Transform[a], s.Transform[4+a], s.Transform[8+a]}
		d := float64(ax[0]*o[0]) + float64(ax[1]*o[1]) + float64(ax[2]*o[2])
		for c := 0; c < 3; c++ {
			p[4*k+c] = float32(ax[c] / rep)
		}
		p[4*k+3] = float32(-d / rep)
	}
	return p
}

// Projection is the texture projection of terminal t, one of r's: u and v
// as affine forms of world points (u = p[0]x + p[1]y + p[2]z + p[3], v from
// p[4:]); zero without one.
func (r *Result) Projection(t *TerminalShape) [8]float32 { return projection1(r.Projections, t) }

func projection1(projs [][8]float32, t *TerminalShape) [8]float32 {
	if t.proj > 0 && int(t.proj) <= len(projs) {
		return projs[t.proj-1]
	}
	return [8]float32{}
}

// uvAt is the texture coordinate the projection p gives world point q.
func uvAt(p *[8]float32, q Vec3) [2]float32 {
	var uv [2]float32
	for k := range uv {
		uv[k] = float32(float64(p[4*k])*q[0] + float64(p[4*k+1])*q[1] + float64(p[4*k+2])*q[2] + float64(p[4*k+3]))
	}
	return uv
}
