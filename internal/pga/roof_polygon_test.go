package pga

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// closedVolume checks that a solid is closed (every edge run once each way)
// and returns its volume (the divergence theorem).
func closedVolume(t *testing.T, what string, corners []Vec3, faces [][]int) float64 {
	t.Helper()
	edges := map[[2]int]int{}
	vol := 0.0
	for _, f := range faces {
		for i := range f {
			edges[[2]int{f[i], f[(i+1)%len(f)]}]++
		}
		for i := 1; i+1 < len(f); i++ {
			a, b, d := corners[f[0]], corners[f[i]], corners[f[i+1]]
			vol += dot(a, crossV(b, d)) / 6
		}
	}
	for e, n := range edges {
		if n != 1 || edges[[2]int{e[1], e[0]}] != 1 {
			t.Fatalf("%s: edge %v used %d times, reverse %d times: not closed", what, e, n, edges[[2]int{e[1], e[0]}])
		}
	}
	return vol
}

// Roofs on the concave and holed lots: closed solids wound outwards, as
// many corners and triangles as counts says; hip slopes all at the roof's
// angle; gables vertical; a shed one plane. Kinds a footprint cannot take
// are errors naming the lot and saying why.
func TestPolygonRoofs(t *testing.T) {
	refused := map[string]string{
		"PYRAMID 0": "not star-shaped", "PYRAMID 1": "holes", "PYRAMID 2": "holes", "PYRAMID 3": "not star-shaped",
		"GABLE 1": "no ridge", "GABLE 2": "no ridge",
	}
	for i, c := range footprintLots {
		for _, kind := range []RoofKind{Hip, Gable, Pyramid, Shed} {
			name := fmt.Sprintf("%s %d", kind, i)
			src := fmt.Sprintf("axiom Quad Lot;\nterminal R (1, 0);\nLot = Roof(%s, 30) R;", kind)
			g, err := Parse("f.pga", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			lots, err := ParseLots("f.geojson", collection(polygon(`1`, `{}`, c.coords)))
			if err != nil {
				t.Fatal(err)
			}
			axioms, err := g.LotAxioms(Quad, lots, 1, 9)
			if err != nil {
				t.Fatal(err)
			}
			ts, err := g.Evaluate(axioms, Options{Workers: 1})
			if want, ok := refused[name]; ok {
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "lot 0") {
					t.Errorf("%s: got %v, want an error naming lot 0 and %q", name, err, want)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sd := g.solid(&ts[0].Shape) // the roof's frame: Z up
			corners, faces := sd.corners, sd.faces
			normals := make([]Vec3, len(faces))
			for k, f := range faces {
				normals[k] = newell(corners, f)
			}
			vol := closedVolume(t, name, corners, faces)
			if vol <= 0 {
				t.Fatalf("%s: volume %g", name, vol)
			}
			cs, tris := g.counts(&ts[0].Shape)
			nt := 0
			for _, f := range faces {
				nt += len(f) - 2
			}
			if cs != len(corners) || tris != nt || g.faceCount(&ts[0].Shape) != len(faces) {
				t.Errorf("%s: counts %d, %d, %d; solid %d, %d, %d", name, cs, tris, g.faceCount(&ts[0].Shape), len(corners), nt, len(faces))
			}
			lo := math.Inf(1)
			for _, p := range corners {
				lo = math.Min(lo, p[2])
			}
			for k, n := range normals {
				up := n[2]
				switch {
				case up < -0.999: // the underside
					for _, j := range faces[k] {
						if math.Abs(corners[j][2]-lo) > 1e-9 {
							t.Fatalf("%s: underside corner at %g", name, corners[j][2])
						}
					}
				case kind == Hip && math.Abs(up-math.Cos(math.Pi/6)) > 1e-9:
					t.Errorf("%s: slope %d at %g°, want 30°", name, k, math.Acos(up)*180/math.Pi)
				case kind == Gable && math.Abs(up) > 1e-9 && math.Abs(up-math.Cos(math.Pi/6)) > 1e-9:
					t.Errorf("%s: face %d neither a 30° slope nor a vertical gable: %v", name, k, n)
				case kind == Shed && up > 0 && math.Abs(up-math.Cos(math.Pi/6)) > 1e-9:
					t.Errorf("%s: shed face %d tilted %v", name, k, n)
				}
			}
			// A hip roof's volume: its slopes at 30° over the footprint
			// hold the area times a third of the height or more.
			if kind == Hip && vol < c.area*ts[0].Size[2]/3 {
				t.Errorf("%s: volume %g under the pyramid bound %g", name, vol, c.area*ts[0].Size[2]/3)
			}
		}
	}
}

// On an L of 12 m wings a hip roof at 45° is 6 m high (half a wing) and a
// gable roof's ridges run out to the wings' ends.
func TestPolygonRoofHeights(t *testing.T) {
	coords := footprintLots[0].coords
	for _, c := range []struct {
		kind  RoofKind
		h     float64
		ridge float64 // length of the corners' run at the top
	}{{Hip, 6, 18 + 18}, {Gable, 6, 24 + 24}} {
		src := fmt.Sprintf("axiom Quad Lot;\nterminal R (1, 0);\nLot = Roof(%s, 45) R;", c.kind)
		g, ts, _ := footprintCity(t, src, Quad, coords)
		if h := ts[0].Size[2]; math.Abs(h-c.h) > 1e-9 {
			t.Errorf("%s: height %g, want %g", c.kind, h, c.h)
		}
		sd := g.solid(&ts[0].Shape)
		corners, faces := sd.corners, sd.faces
		top := math.Inf(-1)
		for _, p := range corners {
			top = math.Max(top, p[2])
		}
		seen := map[[2]int]bool{}
		l := 0.0
		for _, f := range faces {
			for i := range f {
				a, b := f[i], f[(i+1)%len(f)]
				if a > b {
					a, b = b, a
				}
				p, q := corners[a], corners[b]
				if !seen[[2]int{a, b}] && math.Abs(p[2]-top) < 1e-9 && math.Abs(q[2]-top) < 1e-9 {
					seen[[2]int{a, b}] = true
					l += math.Hypot(p[0]-q[0], p[1]-q[1])
				}
			}
		}
		if math.Abs(l-c.ridge) > 1e-9 {
			t.Errorf("%s: ridges %g m long, want %g", c.kind, l, c.ridge)
		}
	}
}

// The examples build: configs/pga/roofs.pga on courtyard.geojson (a hip
// roof and a yard on each of the four lots), gables.pga on wings.geojson
// (gables over the 11 wing ends, 23 slopes) and pavements.pga on
// courtyard.geojson (outsets), footprints.pga on it (everything a real
// footprint gets), the same on one
// worker as on three (pieces get their profile numbers from their shape,
// not from the order workers register them in).
func TestRoofExamples(t *testing.T) {
	for _, c := range []struct {
		pga, lots string
		want      map[string]int
	}{
		{"roofs.pga", "courtyard.geojson", map[string]int{"Tiles": 4, "Yard": 4}},
		{"gables.pga", "wings.geojson", map[string]int{"GableEnd": 11, "Slope": 23}},
		// An outset strip per edge of each lot (6 + 8 + 8 + 4 rectangle
		// strips), and per edge of the grown polygon for the kerb.
		{"pavements.pga", "courtyard.geojson", map[string]int{"Tiles": 4, "Pavement": 26, "Kerb": 26}},
		// Insets, outsets, skeleton roofs, facade splits, a texture and
		// an asset per bay.
		{"footprints.pga", "courtyard.geojson", map[string]int{"Tiles": 4, "Parapet": 26, "Pavement": 26, "Window": 544, "Wall": 2720}},
	} {
		g, ts := buildExample(t, c.pga, c.lots, 3)
		_, ts1 := buildExample(t, c.pga, c.lots, 1)
		if len(ts1) != len(ts) {
			t.Fatalf("%s: %d terminals on 1 worker, %d on 3", c.pga, len(ts1), len(ts))
		}
		for i := range ts {
			if ts1[i] != ts[i] {
				t.Fatalf("%s: terminal %d differs between 1 and 3 workers", c.pga, i)
			}
		}
		n := map[string]int{}
		for i := range ts {
			n[g.TermName(&ts[i])]++
		}
		for k, v := range c.want {
			if n[k] != v {
				t.Errorf("%s: %d %s, want %d", c.pga, n[k], k, v)
			}
		}
	}
}

func buildExample(t *testing.T, pga, lotFile string, workers int) (*Grammar, []TerminalShape) {
	t.Helper()
	src, err := os.ReadFile("../../configs/pga/" + pga)
	if err != nil {
		t.Fatal(err)
	}
	lotsSrc, err := os.ReadFile("../../configs/pga/" + lotFile)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(pga, src)
	if err != nil {
		t.Fatal(err)
	}
	lots, err := ParseLots(lotFile, lotsSrc)
	if err != nil {
		t.Fatal(err)
	}
	axioms, err := g.LotAxioms(Quad, lots, 1, 9)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := g.Evaluate(axioms, Options{Workers: workers, LotAttrs: LotAttrValues(lots)})
	if err != nil {
		t.Fatalf("%s: %v", pga, err)
	}
	return g, ts
}
