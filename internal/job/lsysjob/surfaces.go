package lsysjob

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/cpfg"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// surfaceSpec is one --surface X=VALUE: the surface named by module X is
// the built-in VALUE (leaf, petal, sepal, flower), the OBJ or GLB file
// VALUE or the cpfg surface file VALUE (.s).
type surfaceSpec struct {
	name lsys.Symbol
	builtin,
	file string
}

// parseSurfaces checks the --surface values; each error is a usage error.
func parseSurfaces(specs []string) ([]surfaceSpec, error) {
	var out []surfaceSpec
	for _, s := range specs {
		name, value, ok := strings.Cut(s, "=")
		if !ok || len(name) != 1 || !isSurfaceName(name[0]) || value == "" {
			return nil, job.Usagef("invalid --surface %q: want X=leaf|petal|sepal|flower, X=FILE.obj, X=FILE.glb or X=FILE.s, X one letter or digit (the module after ~)", s)
		}
		sp := surfaceSpec{name: name[0]}
		switch {
		case turtle.Builtin(value) != nil:
			sp.builtin = value
		case strings.EqualFold(filepathExt(value), ".obj"), strings.EqualFold(filepathExt(value), ".glb"),
			strings.EqualFold(filepathExt(value), ".s"):
			sp.file = value
		default:
			return nil, job.Usagef("invalid --surface %q: %q is neither a built-in surface (leaf, petal, sepal, flower) nor an .obj, .glb or cpfg .s file", s, value)
		}
		out = append(out, sp)
	}
	return out, nil
}

func isSurfaceName(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func filepathExt(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 && !strings.ContainsAny(p[i:], `/\`) {
		return p[i:]
	}
	return ""
}

// surfaceFiles are the files the --surface values read, inputs of the run.
func surfaceFiles(specs []surfaceSpec) []string {
	var files []string
	for _, sp := range specs {
		if sp.file != "" {
			files = append(files, sp.file)
		}
	}
	return files
}

// loadSurfaces is the built-in surfaces with the --surface values over
// them, OBJ, GLB and cpfg .s files read (bounded, errors at file:line:col
// or at the GLB's JSON element; a GLB's external buffers are read relative
// to it, bounded alike); .s
// patches are tessellated at precision steps a side (0: the file's own).
func loadSurfaces(ctx context.Context, specs []surfaceSpec, precision int) (turtle.Surfaces, error) {
	lib := turtle.BuiltinSurfaces()
	for _, sp := range specs {
		if sp.builtin != "" {
			lib[sp.name] = turtle.Builtin(sp.builtin)
			continue
		}
		// Surface files are bounded as palettes are (64 MiB): small inputs
		// read whole.
		data, err := input.ReadFile(ctx, sp.file, input.Palette)
		if err != nil {
			return nil, fmt.Errorf("lsys: --surface %c: %w", sp.name, err)
		}
		var shape *mesh.Shape
		switch ext := filepathExt(sp.file); {
		case strings.EqualFold(ext, ".s"):
			shape, err = cpfg.ReadSurface(sp.file, data, precision)
		case strings.EqualFold(ext, ".glb"):
			shape, err = mesh.ReadGLB(sp.file, data, input.Beside(ctx, sp.file, input.Palette))
		default:
			shape, err = mesh.ReadOBJ(sp.file, bytes.NewReader(data))
		}
		if err != nil {
			return nil, fmt.Errorf("lsys: --surface %c: %w", sp.name, err)
		}
		lib[sp.name] = shape
	}
	return lib, nil
}
