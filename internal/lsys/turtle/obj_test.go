package turtle

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// objCounts reads an OBJ back, checking that every reference is in range
// at the point it appears.
type objCounts struct {
	v, vn, f, l, usemtl, lineRefs int
	verts                         [][3]float32
}

func readOBJ(t *testing.T, data []byte) objCounts {
	t.Helper()
	var c objCounts
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0][0] == '#' {
			continue
		}
		switch f[0] {
		case "v", "vn":
			if len(f) != 4 {
				t.Fatalf("line %d: %q", n, sc.Text())
			}
			var p [3]float32
			for k := range 3 {
				x, err := strconv.ParseFloat(f[k+1], 32)
				if err != nil {
					t.Fatalf("line %d: %v", n, err)
				}
				p[k] = float32(x)
			}
			if f[0] == "v" {
				c.v++
				c.verts = append(c.verts, p)
			} else {
				c.vn++
			}
		case "f", "l":
			min := 3
			if f[0] == "l" {
				min = 2
				c.l++
				c.lineRefs += len(f) - 1
			} else {
				c.f++
			}
			if len(f)-1 < min {
				t.Fatalf("line %d: %q has too few vertices", n, sc.Text())
			}
			for _, ref := range f[1:] {
				parts := strings.Split(ref, "//")
				vi, err := strconv.Atoi(parts[0])
				if err != nil || vi < 1 || vi > c.v {
					t.Fatalf("line %d: vertex %q out of 1..%d", n, ref, c.v)
				}
				if len(parts) == 2 {
					ni, err := strconv.Atoi(parts[1])
					if err != nil || ni < 1 || ni > c.vn {
						t.Fatalf("line %d: normal %q out of 1..%d", n, ref, c.vn)
					}
				}
			}
		case "usemtl":
			c.usemtl++
		case "g", "mtllib":
		default:
			t.Fatalf("line %d: unexpected %q", n, sc.Text())
		}
	}
	return c
}

// objOptions are the settings these tests write OBJ files with: the mesh
// options, and the writer's library and workers.
type objOptions struct {
	Sides         int
	Caps, Normals bool
	WidthScale    float64
	MTLLib        string
	Workers       int
}

// writeOBJ writes g as the lsys command does, with a material per colour
// when there is a library to put them in.
func writeOBJ(ctx context.Context, w io.Writer, g *Geometry, o objOptions) error {
	m, err := g.Mesh(MeshOptions{Sides: o.Sides, Caps: o.Caps, Normals: o.Normals, WidthScale: o.WidthScale,
		ByColor: o.MTLLib != ""})
	if err != nil {
		return err
	}
	return mesh.EncodeOBJ(ctx, w, m, mesh.OBJOptions{Options: mesh.Options{Workers: o.Workers}, MTLLib: o.MTLLib})
}

func encodeOBJ(t *testing.T, g *Geometry, o objOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := writeOBJ(context.Background(), &b, g, o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestOBJLines(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1, Width: 1}
	g := interpret(t, sys, parseModules(t, sys, "F+F+F+F"), 1)
	c := readOBJ(t, encodeOBJ(t, g, objOptions{}))
	if c.v != 5 || c.l != 1 || c.lineRefs != 5 {
		t.Fatalf("square: %+v", c)
	}
	want := [][3]float32{{0, 0, 0}, {0, 1, 0}, {-1, 1, 0}, {-1, 0, 0}, {0, 0, 0}}
	for i, v := range c.verts {
		if v != want[i] {
			t.Fatalf("vertex %d: %v, want %v", i, v, want[i])
		}
	}
	// A branch breaks the polyline; colours too when materials are on.
	g = interpret(t, sys, parseModules(t, sys, "F[+F]F'F"), 1)
	c = readOBJ(t, encodeOBJ(t, g, objOptions{}))
	if c.v != 6 || c.l != 2 {
		t.Fatalf("branch: %+v", c)
	}
	data := encodeOBJ(t, g, objOptions{MTLLib: "plant.mtl"})
	c = readOBJ(t, data)
	if c.l != 3 || c.usemtl != 2 || !bytes.Contains(data, []byte("mtllib plant.mtl\n")) ||
		!bytes.Contains(data, []byte("usemtl color1\n")) {
		t.Fatalf("materials: %+v\n%s", c, data)
	}
	if cs := g.Colors(); len(cs) != 2 || cs[0] != 0 || cs[1] != 1 {
		t.Fatalf("colours %v", cs)
	}
}

func TestOBJTubesAndPolygons(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1, Width: 0.5}
	// Three segments, one of them of zero length, and a quad.
	g := interpret(t, sys, parseModules(t, sys, "F(1)F(0)&F(2){.f.+f.+f.}"), 1)
	for _, o := range []objOptions{
		{Sides: 6},
		{Sides: 6, Caps: true},
		{Sides: 6, Caps: true, Normals: true},
	} {
		c := readOBJ(t, encodeOBJ(t, g, o))
		nv, nf, nn := 2*12+4, 2*6+1, 0
		if o.Caps {
			nf += 2 * 2
		}
		if o.Normals {
			nn = 2*6 + 1
			if o.Caps {
				nn += 2 * 2
			}
		}
		if c.v != nv || c.f != nf || c.vn != nn || c.l != 0 {
			t.Fatalf("%+v: %d v, %d f, %d vn, %d l; want %d, %d, %d", o, c.v, c.f, c.vn, c.l, nv, nf, nn)
		}
		// Ring vertices lie at radius Width/2 around the first segment's
		// axis (the Y axis from 0 to 1).
		for _, v := range c.verts[:12] {
			if r := float64(v[0]*v[0] + v[2]*v[2]); r < 0.0625-1e-6 || r > 0.0625+1e-6 {
				t.Fatalf("ring vertex %v at radius² %v", v, r)
			}
		}
	}
}

func TestOBJLargeIndependentOfWorkers(t *testing.T) {
	sys := &lsys.System{Angle: 23, Step: 1, Width: 1}
	s := randomString(newRand(9), sys, 100_000, alphabet, "")
	g := interpret(t, sys, s, 0)
	if len(g.Segments) < 2*lineGrain {
		t.Fatalf("only %d segments", len(g.Segments))
	}
	for _, o := range []objOptions{{}, {Sides: 3, Caps: true, Normals: true, MTLLib: "m.mtl"}, {MTLLib: "m.mtl"}} {
		o.Workers = 1
		one := encodeOBJ(t, g, o)
		o.Workers = 5
		if five := encodeOBJ(t, g, o); !bytes.Equal(one, five) {
			t.Fatalf("%+v: output depends on workers", o)
		}
		c := readOBJ(t, one)
		if o.Sides == 0 && c.lineRefs-c.l != len(g.Segments) {
			t.Fatalf("%d line segments for %d segments", c.lineRefs-c.l, len(g.Segments))
		}
		if len(g.Polygons) > 0 && c.f < len(g.Polygons) {
			t.Fatalf("%d faces for %d polygons", c.f, len(g.Polygons))
		}
		t.Logf("%+v: %d bytes, %d v", o, len(one), c.v)
	}
}

func TestOBJErrors(t *testing.T) {
	g := &Geometry{}
	for _, o := range []objOptions{{MTLLib: "a b.mtl"}, {Sides: 1 << 20}, {Sides: -1}} {
		if err := writeOBJ(context.Background(), &bytes.Buffer{}, g, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
