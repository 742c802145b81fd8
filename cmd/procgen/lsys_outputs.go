package main

import (
	"context"
	"errors"
	"io"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// lsysText is what a .txt output (the derived string) needs.
type lsysText struct {
	sys   *lsys.System
	final *lsys.String
	// With allSteps the output holds w0..wn, one line each: the derivation
	// runs again with these options (a step's string is gone once the next
	// is derived, and keeping all of them would cost their sum in memory).
	allSteps bool
	deriver  lsys.Deriver
	opts     lsys.DeriveOptions
}

// encodeLsysText writes the final string, or every step's, to w: modules
// with their parameters in the notation of the L-system files, one string a
// line (see lsys.Encoder).
func encodeLsysText(ctx context.Context, w io.Writer, t *lsysText) error {
	if t == nil || t.sys == nil {
		return errors.New("lsys: no derived string to write")
	}
	if !t.allSteps {
		return lsys.Encode(ctx, w, t.sys, t.final)
	}
	enc := lsys.NewEncoder(w, t.sys)
	o := t.opts
	o.Progress = nil
	o.OnStep = func(_ int, s *lsys.String) error { return enc.Encode(ctx, s) }
	_, err := t.deriver.Derive(ctx, t.sys, o)
	return err
}

// lsysWidthUnits is what --line-width asks for, with auto resolved for g
// (setsWidth: the interpreted string holds '!' or '#').
func lsysWidthUnits(mode string, g *turtle.Geometry, setsWidth bool) turtle.WidthUnits {
	u, auto, err := turtle.ParseWidthUnits(mode)
	if err != nil || auto {
		return turtle.AutoWidths(g, setsWidth)
	}
	return u
}

// lsysTubeScale is the world diameter of a tube per unit of turtle width in
// OBJ and glTF outputs: pixels mean nothing in 3D, so a system drawn with
// pixel widths gets tubes relative to its segments, as in the preview.
func lsysTubeScale(mode string, g *turtle.Geometry, setsWidth bool) float64 {
	u := lsysWidthUnits(mode, g, setsWidth)
	if u == turtle.WidthsPixels {
		u = turtle.WidthsRelative
	}
	return g.WorldWidthScale(u)
}

// encodeLsysOBJ writes g as OBJ: lines, or tubes of --cylinders sides,
// capped, with normals.
func encodeLsysOBJ(ctx context.Context, w io.Writer, g *turtle.Geometry, o lsysOptions, setsWidth bool) error {
	m, err := g.Mesh(turtle.MeshOptions{Sides: o.Cylinders, Caps: o.Cylinders > 2, Normals: o.Cylinders > 2,
		WidthScale: lsysTubeScale(o.LineWidth, g, setsWidth)})
	if err != nil {
		return err
	}
	return mesh.EncodeOBJ(ctx, w, m, mesh.OBJOptions{})
}

// encodeLsysGLB writes g as binary glTF: tubes of --cylinders sides (8 when
// 0, lines having no glTF surface), capped, and the polygons, a material
// per colour index.
func encodeLsysGLB(ctx context.Context, w io.Writer, g *turtle.Geometry, o lsysOptions, setsWidth bool) error {
	sides := o.Cylinders
	if sides == 0 {
		sides = 8
	}
	m, err := g.Mesh(turtle.MeshOptions{Sides: sides, Caps: true, Normals: true, ByColor: true,
		WidthScale: lsysTubeScale(o.LineWidth, g, setsWidth)})
	if err != nil {
		return err
	}
	return mesh.EncodeGLB(ctx, w, m, mesh.Options{})
}
