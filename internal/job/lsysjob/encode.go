package lsysjob

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// text is what a .txt output (the derived string) needs.
type text struct {
	sys   *lsys.System
	final *lsys.String
	// With allSteps the output holds w0..wn, one line each: the derivation
	// runs again with these options (a step's string is gone once the next
	// is derived, and keeping all of them would cost their sum in memory).
	allSteps bool
	deriver  lsys.Deriver
	opts     lsys.DeriveOptions
}

// encoder is the writer of one output format (by extension, or the
// --format of -o -).
func encoder(ctx context.Context, format string, g *turtle.Geometry, preview *image.NRGBA,
	rep *Report, o *Options, palette [][3]float64, mtllib string) func(w io.Writer) error {
	switch format {
	case ".json":
		return func(w io.Writer) error { return output.EncodeJSON(w, rep) }
	case ".png":
		return func(w io.Writer) error { return output.EncodePNG(ctx, w, preview, output.Depth8) }
	case ".txt":
		return func(w io.Writer) error { return encodeText(ctx, w, &rep.text) }
	case ".obj", ".glb", ".ply":
		return func(w io.Writer) error { return encodeMesh(ctx, w, format, g, o, rep.setsWidth, palette, mtllib) }
	}
	return func(io.Writer) error { return fmt.Errorf("lsys: output format %q: unknown", format) }
}

// encodeText writes the final string, or every step's, to w: modules
// with their parameters in the notation of the L-system files, one string a
// line (see lsys.Encoder).
func encodeText(ctx context.Context, w io.Writer, t *text) error {
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

// widthUnits is what --line-width asks for, with auto resolved for g
// (setsWidth: the interpreted string holds '!' or '#').
func widthUnits(mode string, g *turtle.Geometry, setsWidth bool) turtle.WidthUnits {
	u, auto, err := turtle.ParseWidthUnits(mode)
	if err != nil || auto {
		return turtle.AutoWidths(g, setsWidth)
	}
	return u
}

// tubeScale is the world diameter of a tube per unit of turtle width in
// OBJ and glTF outputs: pixels mean nothing in 3D, so a system drawn with
// pixel widths gets tubes relative to its segments, as in the preview.
func tubeScale(mode string, g *turtle.Geometry, setsWidth bool) float64 {
	u := widthUnits(mode, g, setsWidth)
	if u == turtle.WidthsPixels {
		u = turtle.WidthsRelative
	}
	return g.WorldWidthScale(u)
}

// Stems are what --stems resolves to for one output.
const (
	stemLine   = "line"
	stemRibbon = "ribbon"
	stemTube   = "tube"
	stemSmooth = "smooth"
)

// stems resolves --stems for an output format: auto gives tubes where
// --cylinders asks for them; else lines in OBJ (as always); in GLB and PLY
// tubes for a 3D geometry, and for a planar one (a 2D system) ribbons where
// the string sets widths ('!', '#') and lines where it does not: a curve
// has no width to show, and tubes of a planar curve cost a kilobyte a
// segment (Koch island n=7 was a 3.6 GB GLB).
func stems(format string, g *turtle.Geometry, o *Options, setsWidth bool) string {
	switch {
	case o.Stems != "auto":
		return o.Stems
	case o.Cylinders > 0:
		return stemTube
	case format == ".obj":
		return stemLine
	case !g.Planar():
		return stemTube
	case setsWidth:
		return stemRibbon
	}
	return stemLine
}

// meshOptions are the mesh of g for an output format: lines, ribbons or
// tubes of --cylinders sides (8 when 0), capped, with normals; a material
// per colour index in GLB and PLY, and in OBJ with --color-map (its MTL).
func meshOptions(format string, g *turtle.Geometry, o *Options, setsWidth bool, palette [][3]float64) turtle.MeshOptions {
	mo := turtle.MeshOptions{WidthScale: tubeScale(o.LineWidth, g, setsWidth), Palette: palette,
		ByColor: format != ".obj" || palette != nil, Surfaces: o.library}
	switch st := stems(format, g, o, setsWidth); st {
	case stemTube, stemSmooth:
		mo.Sides = o.Cylinders
		if mo.Sides == 0 {
			mo.Sides = 8
		}
		mo.Caps, mo.Normals, mo.Smooth = true, true, st == stemSmooth
	case stemRibbon:
		mo.Ribbons, mo.Normals = true, true
	default:
		mo.Normals = format != ".obj" // OBJ lines have no use for the polygons' normals either (as before)
	}
	return mo
}

// encodeMesh writes g as OBJ, GLB or PLY.
func encodeMesh(ctx context.Context, w io.Writer, format string, g *turtle.Geometry, o *Options, setsWidth bool,
	palette [][3]float64, mtllib string) error {
	m, err := g.Mesh(meshOptions(format, g, o, setsWidth, palette))
	if err != nil {
		return err
	}
	switch format {
	case ".obj":
		return mesh.EncodeOBJ(ctx, w, m, mesh.OBJOptions{MTLLib: mtllib})
	case ".ply":
		return mesh.EncodePLY(ctx, w, m, mesh.Options{})
	}
	return mesh.EncodeGLB(ctx, w, m, mesh.Options{})
}
