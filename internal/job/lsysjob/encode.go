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
	rep *Report, o *Options) func(w io.Writer) error {
	switch format {
	case ".json":
		return func(w io.Writer) error { return output.EncodeJSON(w, rep) }
	case ".obj":
		return func(w io.Writer) error { return encodeOBJ(ctx, w, g, o, rep.setsWidth) }
	case ".png":
		return func(w io.Writer) error { return output.EncodePNG(ctx, w, preview, output.Depth8) }
	case ".txt":
		return func(w io.Writer) error { return encodeText(ctx, w, &rep.text) }
	case ".glb":
		return func(w io.Writer) error { return encodeGLB(ctx, w, g, o, rep.setsWidth) }
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

// encodeOBJ writes g as OBJ: lines, or tubes of --cylinders sides,
// capped, with normals.
func encodeOBJ(ctx context.Context, w io.Writer, g *turtle.Geometry, o *Options, setsWidth bool) error {
	m, err := g.Mesh(turtle.MeshOptions{Sides: o.Cylinders, Caps: o.Cylinders > 2, Normals: o.Cylinders > 2,
		WidthScale: tubeScale(o.LineWidth, g, setsWidth)})
	if err != nil {
		return err
	}
	return mesh.EncodeOBJ(ctx, w, m, mesh.OBJOptions{})
}

// encodeGLB writes g as binary glTF: tubes of --cylinders sides (8 when
// 0, lines having no glTF surface), capped, and the polygons, a material
// per colour index.
func encodeGLB(ctx context.Context, w io.Writer, g *turtle.Geometry, o *Options, setsWidth bool) error {
	sides := o.Cylinders
	if sides == 0 {
		sides = 8
	}
	m, err := g.Mesh(turtle.MeshOptions{Sides: sides, Caps: true, Normals: true, ByColor: true,
		WidthScale: tubeScale(o.LineWidth, g, setsWidth)})
	if err != nil {
		return err
	}
	return mesh.EncodeGLB(ctx, w, m, mesh.Options{})
}
