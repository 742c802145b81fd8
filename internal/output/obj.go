package output

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// floatDigits is the number of significant digits written for coordinates
// and colors. Nine digits are the fewest that round-trip every float32, and
// the programs that read OBJ files (Blender, three.js, game engines, GPUs)
// store them as float32; the 17 digits a float64 would need roughly double
// the file size and carry nothing those readers keep.
const floatDigits = 9

// MTLPath is where WriteOBJ puts the material library for objPath: the same
// name with the extension replaced by .mtl.
func MTLPath(objPath string) string {
	return strings.TrimSuffix(objPath, filepath.Ext(objPath)) + ".mtl"
}

// WriteOBJ writes m to objPath and, when materials is not empty, the
// materials to MTLPath(objPath), referenced from the OBJ by its base name.
// Everything is validated before any file is touched, and the two files are
// written all or nothing: a failed OBJ leaves no new MTL behind.
func WriteOBJ(objPath string, m *Mesh, materials []Material) error {
	mtlPath := ""
	if len(materials) > 0 {
		mtlPath = MTLPath(objPath)
	}
	if err := validateOBJ(objPath, mtlPath, m, materials); err != nil {
		return fmt.Errorf("output: write %s: %w", objPath, err)
	}
	var writes []Write
	mtlName := ""
	if mtlPath != "" {
		mtlName = filepath.Base(mtlPath)
		writes = append(writes, Write{Path: mtlPath, Func: func(w io.Writer) error { return writeMTL(w, materials) }})
	}
	writes = append(writes, Write{Path: objPath, Func: func(w io.Writer) error { return writeOBJ(w, m, mtlName) }})
	return NewPlan(os.Stdout).Commit(context.Background(), writes)
}

func validateOBJ(objPath, mtlPath string, m *Mesh, materials []Material) error {
	if mtlPath != "" && filepath.Clean(mtlPath) == filepath.Clean(objPath) {
		return fmt.Errorf("obj: file name ends in .mtl, which would be overwritten by the material library")
	}
	if err := m.Validate(); err != nil {
		return err
	}
	return validateMaterials(materials, m)
}

// EncodeOBJ writes m to w as a Wavefront OBJ. mtlName, when not empty, is
// written as the mtllib the groups' materials come from. Nothing is written
// when m is invalid (see Mesh.Validate).
func EncodeOBJ(w io.Writer, m *Mesh, mtlName string) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("output: encode obj: %w", err)
	}
	if err := writeOBJ(w, m, mtlName); err != nil {
		return fmt.Errorf("output: encode obj: %w", err)
	}
	return nil
}

// EncodeMTL writes materials to w as a Wavefront MTL material library.
func EncodeMTL(w io.Writer, materials []Material) error {
	if err := validateMaterials(materials, nil); err != nil {
		return fmt.Errorf("output: encode mtl: %w", err)
	}
	if err := writeMTL(w, materials); err != nil {
		return fmt.Errorf("output: encode mtl: %w", err)
	}
	return nil
}

// textWriter builds each line in a reused buffer, so writing millions of
// vertices costs no allocation per number. Write errors are sticky in the
// bufio.Writer and surface at flush.
type textWriter struct {
	bw   *bufio.Writer
	line []byte
}

func newTextWriter(w io.Writer) *textWriter {
	return &textWriter{bw: bufio.NewWriterSize(w, bufferSize), line: make([]byte, 0, 128)}
}

func (t *textWriter) start(keyword string) { t.line = append(t.line[:0], keyword...) }

func (t *textWriter) str(s string) { t.line = append(append(t.line, ' '), s...) }

func (t *textWriter) float(v float64) {
	// -0 would print as "-0", making golden files depend on how a zero was
	// reached.
	if v == 0 {
		v = 0
	}
	t.line = strconv.AppendFloat(append(t.line, ' '), v, 'g', floatDigits, 64)
}

func (t *textWriter) vec(v [3]float64) {
	t.float(v[0])
	t.float(v[1])
	t.float(v[2])
}

// index writes a 1-based OBJ reference for a 0-based index, as "i" or, with
// per-vertex normals, "i//i".
func (t *textWriter) index(i int, withNormal bool) {
	t.line = strconv.AppendInt(append(t.line, ' '), int64(i+1), 10)
	if withNormal {
		t.line = strconv.AppendInt(append(t.line, '/', '/'), int64(i+1), 10)
	}
}

func (t *textWriter) end() {
	t.line = append(t.line, '\n')
	_, _ = t.bw.Write(t.line) // sticky; reported by flush
}

func (t *textWriter) flush() error { return t.bw.Flush() }

func writeOBJ(w io.Writer, m *Mesh, mtlName string) error {
	t := newTextWriter(w)
	faces, lines := 0, 0
	for _, g := range m.Groups {
		faces += len(g.Faces)
		lines += len(g.Lines)
	}
	fmt.Fprintf(t.bw, "# procgen: %d vertices, %d faces, %d lines\n", len(m.Vertices), faces, lines)
	if mtlName != "" {
		t.start("mtllib")
		t.str(mtlName)
		t.end()
	}
	for _, v := range m.Vertices {
		t.start("v")
		t.vec(v)
		t.end()
	}
	withNormals := len(m.Normals) > 0 && len(m.Normals) == len(m.Vertices)
	for _, n := range m.Normals {
		t.start("vn")
		t.vec(n)
		t.end()
	}
	for _, g := range m.Groups {
		// Always a g line: without one, an unnamed group would silently
		// join the group before it in every reader.
		name := g.Name
		if name == "" {
			name = "default"
		}
		t.start("g")
		t.str(name)
		t.end()
		if g.Material != "" {
			t.start("usemtl")
			t.str(g.Material)
			t.end()
		}
		for _, f := range g.Faces {
			t.start("f")
			for _, i := range f {
				t.index(i, withNormals)
			}
			t.end()
		}
		for _, l := range g.Lines {
			// OBJ lines take no normals.
			t.start("l")
			for _, i := range l {
				t.index(i, false)
			}
			t.end()
		}
	}
	return t.flush()
}

func writeMTL(w io.Writer, materials []Material) error {
	t := newTextWriter(w)
	fmt.Fprintf(t.bw, "# procgen: %d materials\n", len(materials))
	for _, mat := range materials {
		t.line = append(t.line[:0], '\n')
		_, _ = t.bw.Write(t.line)
		t.start("newmtl")
		t.str(mat.Name)
		t.end()
		if mat.Ambient != nil {
			t.start("Ka")
			t.vec(*mat.Ambient)
			t.end()
		}
		t.start("Kd")
		t.vec(mat.Diffuse)
		t.end()
		illum := "1" // diffuse and ambient only
		if mat.Specular != nil {
			illum = "2" // with highlights
			t.start("Ks")
			t.vec(*mat.Specular)
			t.end()
			if mat.Shininess != 0 {
				t.start("Ns")
				t.float(mat.Shininess)
				t.end()
			}
		}
		opacity := mat.Opacity
		if opacity == 0 {
			opacity = 1
		}
		t.start("d")
		t.float(opacity)
		t.end()
		t.start("illum")
		t.str(illum)
		t.end()
	}
	return t.flush()
}
