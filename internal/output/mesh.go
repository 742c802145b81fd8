package output

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Vec3 is a point or direction. float64 because that is what the generators
// compute in; the text format decides the precision that is kept.
type Vec3 [3]float64

// Face is a polygon of three or more 0-based indices into Mesh.Vertices.
type Face []int

// Group is a named part of a mesh drawn with one material. Lines are
// polylines of two or more 0-based vertex indices (branches, L-system turtle
// paths) written as OBJ `l` elements.
type Group struct {
	Name string // empty means "default"; must not contain white space
	// Material is a Material.Name, or empty for none. OBJ cannot end a
	// material, so a group without one may only come before every group
	// with one; Validate enforces that.
	Material string
	Faces    []Face
	Lines    [][]int
}

// Mesh is an indexed polygon mesh. Normals are optional; when present there
// is one per vertex, sharing the vertex's index.
type Mesh struct {
	Vertices []Vec3
	Normals  []Vec3
	Groups   []Group
}

// Material is a Wavefront MTL material. Colors are linear RGB in 0..1.
type Material struct {
	Name     string      // must be non-empty and free of white space
	Diffuse  [3]float64  // Kd
	Ambient  *[3]float64 // Ka, written only when set
	Specular *[3]float64 // Ks, written only when set; also selects illum 2
	// Shininess is the specular exponent Ns (0..1000), written only with a
	// Specular color, since it means nothing without one.
	Shininess float64
	// Opacity is the dissolve d in 0..1. Zero means unset and is written as
	// 1 (opaque): a fully invisible material is never what a generator
	// wants, and this way Material{Name: n, Diffuse: c} is opaque.
	Opacity float64
}

// Validate reports the first problem that would make the mesh unreadable or
// silently different when read back: indices out of range, polygons with
// fewer than three corners, lines with fewer than two points, non-finite
// coordinates, names with white space (OBJ splits names on it), a normal
// count that does not match the vertex count, or a group without a material
// after one with a material.
func (m *Mesh) Validate() error {
	if m == nil {
		return fmt.Errorf("obj: nil mesh")
	}
	if len(m.Normals) != 0 && len(m.Normals) != len(m.Vertices) {
		return fmt.Errorf("obj: %d normals for %d vertices (want one per vertex or none)", len(m.Normals), len(m.Vertices))
	}
	for i, v := range m.Vertices {
		if !finite3(v) {
			return fmt.Errorf("obj: vertex %d is not finite: %v", i, v)
		}
	}
	for i, n := range m.Normals {
		if !finite3(n) {
			return fmt.Errorf("obj: normal %d is not finite: %v", i, n)
		}
	}
	nv := len(m.Vertices)
	usedMaterial := ""
	for gi, g := range m.Groups {
		where := fmt.Sprintf("group %d (%q)", gi, g.Name)
		if g.Material == "" && usedMaterial != "" {
			return fmt.Errorf("obj: %s has no material but follows one with %q, which readers would apply to it", where, usedMaterial)
		}
		if g.Material != "" {
			usedMaterial = g.Material
		}
		if err := checkName("group name", g.Name); err != nil {
			return fmt.Errorf("obj: %s: %w", where, err)
		}
		if err := checkName("material name", g.Material); err != nil {
			return fmt.Errorf("obj: %s: %w", where, err)
		}
		for fi, f := range g.Faces {
			if len(f) < 3 {
				return fmt.Errorf("obj: %s: face %d has %d vertices (want 3 or more)", where, fi, len(f))
			}
			if err := checkIndices(f, nv); err != nil {
				return fmt.Errorf("obj: %s: face %d: %w", where, fi, err)
			}
		}
		for li, l := range g.Lines {
			if len(l) < 2 {
				return fmt.Errorf("obj: %s: line %d has %d vertices (want 2 or more)", where, li, len(l))
			}
			if err := checkIndices(l, nv); err != nil {
				return fmt.Errorf("obj: %s: line %d: %w", where, li, err)
			}
		}
	}
	return nil
}

// validateMaterials checks materials on their own and, when mesh is not nil,
// that every material a group uses is defined, since a reader would
// otherwise fall back to its own default without a word.
func validateMaterials(materials []Material, mesh *Mesh) error {
	names := make(map[string]bool, len(materials))
	for i, mat := range materials {
		if mat.Name == "" {
			return fmt.Errorf("mtl: material %d has no name", i)
		}
		if err := checkName("name", mat.Name); err != nil {
			return fmt.Errorf("mtl: material %d: %w", i, err)
		}
		if names[mat.Name] {
			return fmt.Errorf("mtl: material %q defined twice", mat.Name)
		}
		names[mat.Name] = true
		colors := []*[3]float64{&mat.Diffuse, mat.Ambient, mat.Specular}
		for _, c := range colors {
			if c != nil && !finite3(*c) {
				return fmt.Errorf("mtl: material %q: color %v is not finite", mat.Name, *c)
			}
		}
		if !(mat.Opacity >= 0 && mat.Opacity <= 1) {
			return fmt.Errorf("mtl: material %q: opacity %g outside 0..1", mat.Name, mat.Opacity)
		}
		if !(mat.Shininess >= 0 && mat.Shininess <= 1000) {
			return fmt.Errorf("mtl: material %q: shininess %g outside 0..1000", mat.Name, mat.Shininess)
		}
	}
	if mesh == nil {
		return nil
	}
	for gi, g := range mesh.Groups {
		if g.Material != "" && !names[g.Material] {
			return fmt.Errorf("obj: group %d (%q) uses undefined material %q", gi, g.Name, g.Material)
		}
	}
	return nil
}

func checkIndices(idx []int, n int) error {
	for _, i := range idx {
		if i < 0 || i >= n {
			return fmt.Errorf("vertex index %d out of range [0,%d)", i, n)
		}
	}
	return nil
}

func checkName(what, name string) error {
	if strings.ContainsFunc(name, unicode.IsSpace) {
		return fmt.Errorf("%s %q contains white space", what, name)
	}
	return nil
}

func finite3(v [3]float64) bool {
	for _, c := range v {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return false
		}
	}
	return true
}
