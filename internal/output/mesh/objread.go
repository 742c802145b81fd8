package mesh

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Shape is a small polygon mesh read from a file: positions and faces of
// position indices, as a surface placed by the L-system turtle needs.
type Shape struct {
	Positions [][3]float32
	// Faces are polygons of three or more Positions, concatenated;
	// FaceSizes gives their corner counts.
	Faces     []int32
	FaceSizes []int32
	// Normals, when not nil, are one per position (a GLB's NORMAL); the
	// turtle otherwise gives each face its own normal.
	Normals [][3]float32
}

// MaxShapeBytes bounds a shape file: a surface is instanced or copied once
// per use, so it is meant to be small.
const MaxShapeBytes = 64 << 20

// ReadOBJ reads the polygons of a Wavefront OBJ file: its v and f
// statements (f corners as v, v/vt, v//vn or v/vt/vn, negative indices
// counting back from the last v). Texture coordinates, normals, groups and
// materials are read past: the turtle gives a surface its colour, and its
// normals follow from the faces. Errors name name:line:col.
func ReadOBJ(name string, r io.Reader) (*Shape, error) {
	sc := bufio.NewScanner(io.LimitReader(r, MaxShapeBytes+1))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	s := &Shape{}
	read := 0
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		read += len(b) + 1
		if read > MaxShapeBytes+1 {
			return nil, fmt.Errorf("%s: over %d MiB, the most a surface file may hold", name, MaxShapeBytes>>20)
		}
		if err := s.objLine(b, func(col int, format string, args ...any) error {
			return fmt.Errorf("%s:%d:%d: %s", name, line, col, fmt.Sprintf(format, args...))
		}); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(s.FaceSizes) == 0 {
		return nil, fmt.Errorf("%s: no faces (f statements): a surface needs at least one polygon", name)
	}
	return s, nil
}

type objErrf func(col int, format string, args ...any) error

// objLine reads one statement.
func (s *Shape) objLine(b []byte, errf objErrf) error {
	if i := bytes.IndexByte(b, '#'); i >= 0 {
		b = b[:i]
	}
	fields, cols := splitFields(b)
	if len(fields) == 0 {
		return nil
	}
	switch string(fields[0]) {
	case "v":
		if len(fields) < 4 {
			return errf(cols[0], "v needs x y z, found %d numbers", len(fields)-1)
		}
		var p [3]float32
		for k := range 3 {
			x, err := strconv.ParseFloat(string(fields[k+1]), 32)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				return errf(cols[k+1], "expected a finite number, found %q", fields[k+1])
			}
			p[k] = float32(x)
		}
		s.Positions = append(s.Positions, p)
	case "f":
		if len(fields) < 4 {
			return errf(cols[0], "f needs three or more corners, found %d", len(fields)-1)
		}
		for k, f := range fields[1:] {
			v := f
			if i := bytes.IndexByte(f, '/'); i >= 0 {
				v = f[:i]
			}
			n, err := strconv.Atoi(string(v))
			if err != nil || n == 0 {
				return errf(cols[k+1], "expected a vertex number, found %q", f)
			}
			if n < 0 {
				n += len(s.Positions) + 1
			}
			if n < 1 || n > len(s.Positions) {
				return errf(cols[k+1], "vertex %s out of range: %d vertices so far", v, len(s.Positions))
			}
			s.Faces = append(s.Faces, int32(n-1))
		}
		s.FaceSizes = append(s.FaceSizes, int32(len(fields)-1))
	}
	return nil
}

// splitFields splits at spaces and tabs, with each field's 1-based column.
func splitFields(b []byte) (fields [][]byte, cols []int) {
	i := 0
	for i < len(b) {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' {
			j++
		}
		if j > i {
			fields, cols = append(fields, b[i:j]), append(cols, i+1)
		}
		i = j
	}
	return fields, cols
}
