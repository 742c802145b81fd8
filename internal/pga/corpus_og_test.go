package pga

import (
	"math"
	"testing"
)

// placement is where a terminal sits: its lowest and highest world y and
// the world direction it faces. A face (Quad) faces along its local +Z; a
// Box made by Extrude faces along its local +Y (the face's normal).
type placement struct {
	lo, hi float64
	facing Vec3
}

func place(g *Grammar, s *TerminalShape) placement {
	c, _, _ := g.worldSolid(&s.Shape)
	p := placement{lo: math.Inf(1), hi: math.Inf(-1)}
	for _, q := range c {
		p.lo, p.hi = min(p.lo, q[1]), max(p.hi, q[1])
	}
	if s.Kind == Quad {
		p.facing = s.Transform.direction(Vec3{0, 0, 1})
	} else {
		p.facing = s.Transform.direction(Vec3{0, 1, 0})
	}
	return p
}

const eps = 1e-9

// suburban_house.pga on OperatorGraph's test runner's lot (30 x 10 x 16 m,
// centred at the origin: the ground at y = -5): OperatorGraph's 372
// terminals (Roof 10 and PorchColumn 2 among them), each kind where the
// grammar puts it.
func TestSuburbanHouseAsOperatorGraph(t *testing.T) {
	g := parseCorpus(t, "suburban_house.pga")
	ts, err := g.Evaluate([]Shape{NewAxiom(Box, Vec3{30, 10, 16}, 1)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := count(g, ts)
	if len(ts) != 372 || c["Roof"] != 10 || c["PorchColumn"] != 2 {
		t.Fatalf("%d terminals %v, want OperatorGraph's 372 with 10 Roof and 2 PorchColumn", len(ts), c)
	}
	// The other kinds' counts (ours; they add up to OperatorGraph's total).
	want := map[string]int{"Door": 1, "FloorDivision": 8, "GarageDoor": 1, "GarageDoorBorder": 3, "PorchFront": 1,
		"RoofSide": 6, "Step": 2, "Wall": 227, "Wall2": 1, "Window": 55, "WindowSill": 55}
	for k, n := range want {
		if c[k] != n {
			t.Errorf("%d %s, want %d", c[k], k, n)
		}
	}
	street := Vec3{0, 0, -1} // the door side: GroundFloorFacade tests ShapeNormal(Z) == -1
	onMasses := 0
	for i := range ts {
		s := &ts[i]
		p, k := place(g, s), g.TermName(s)
		vertical := math.Abs(p.facing[1]) < eps
		switch k {
		case "Roof": // slopes facing up, on the three masses and over the porch (its eaves reach below the porch top)
			if !(p.facing[1] > 0.3) || p.lo < -1.5 {
				t.Errorf("Roof faces %v from y %.2f", p.facing, p.lo)
			}
			if p.lo >= -0.5 {
				onMasses++
			}
		case "RoofSide": // gable ends above the walls
			if !vertical || p.lo < -eps {
				t.Errorf("RoofSide faces %v from y %.2f", p.facing, p.lo)
			}
		case "Wall", "Window": // facades
			if !vertical || p.lo < -5-eps || p.hi > 5+eps {
				t.Errorf("%s faces %v, y %.2f to %.2f", k, p.facing, p.lo, p.hi)
			}
		case "WindowSill", "FloorDivision", "GarageDoorBorder": // boxes sticking out of a facade
			if !vertical || s.Kind != Box {
				t.Errorf("%s (%v) sticks out towards %v", k, s.Kind, p.facing)
			}
		case "Door", "PorchFront", "Wall2", "GarageDoor":
			if !near(p.facing[2], street[2]) {
				t.Errorf("%s faces %v, want the street %v", k, p.facing, street)
			}
		case "Step":
			if !near(p.facing[2], street[2]) || p.lo < -5-eps || p.hi > -4+eps {
				t.Errorf("Step faces %v, y %.2f to %.2f", p.facing, p.lo, p.hi)
			}
		case "PorchColumn": // hanging from the porch's underside to the top step
			if !near(p.facing[1], -1) || !near(p.lo, -4) || !near(p.hi, -1) {
				t.Errorf("PorchColumn faces %v, y %.2f to %.2f", p.facing, p.lo, p.hi)
			}
		}
		switch k {
		case "Door": // on the top step, 3 m high
			if !near(p.lo, -4) || !near(p.hi, -1) {
				t.Errorf("Door from y %.2f to %.2f", p.lo, p.hi)
			}
		case "GarageDoor": // on the ground
			if !near(p.lo, -5) {
				t.Errorf("GarageDoor from y %.2f", p.lo)
			}
		}
	}
	if onMasses != 8 {
		t.Errorf("%d roofs on the masses, want 8 (4 on the left wing, 2 on the middle, 2 on the garage)", onMasses)
	}
}

// mc_skyscraper.pga: whatever its random choices, the roofs and headings
// face up at the top of the building, everything else stands upright.
func TestSkyscraperPlacement(t *testing.T) {
	g := parseCorpus(t, "mc_skyscraper.pga")
	for seed := uint64(1); seed <= 5; seed++ {
		ts, err := g.Evaluate([]Shape{NewAxiom(Box, Vec3{30, 120, 30}, seed)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := count(g, ts)
		if c["Roof"] < 1 || c["Wall1"] == 0 {
			t.Fatalf("seed %d: %v", seed, c)
		}
		for i := range ts {
			s := &ts[i]
			p, k := place(g, s), g.TermName(s)
			switch k {
			case "Roof", "Heading":
				if !near(p.facing[1], 1) || p.hi < 56-eps || p.hi > 60+eps {
					t.Fatalf("seed %d: %s faces %v, top at %.2f", seed, k, p.facing, p.hi)
				}
			default:
				if math.Abs(p.facing[1]) > eps || p.lo < -60-eps || p.hi > 60+eps {
					t.Fatalf("seed %d: %s faces %v, y %.2f to %.2f", seed, k, p.facing, p.lo, p.hi)
				}
			}
		}
	}
}

// menger_sponge_3.pga: 20^3 cubes inside the unit cube, none overlapping
// the sponge's holes (the centre of the cube is empty).
func TestMengerPlacement(t *testing.T) {
	g := parseCorpus(t, "menger_sponge_3.pga")
	ts := evalOne(t, g, 1, Options{})
	if len(ts) != 8000 {
		t.Fatalf("%d cubes", len(ts))
	}
	for i := range ts {
		c, _, _ := g.worldSolid(&ts[i].Shape)
		for _, q := range c {
			for a := 0; a < 3; a++ {
				if math.Abs(q[a]) > 0.5+eps {
					t.Fatalf("cube corner %v outside the unit cube", q)
				}
			}
		}
		if p := pos(ts[i]); math.Abs(p[0]) < 1.0/6 && math.Abs(p[1]) < 1.0/6 {
			t.Fatalf("a cube at %v in the hole along Z", p)
		}
	}
}
