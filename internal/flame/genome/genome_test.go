package genome

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
)

func write(t *testing.T, ks ...*flame.AnimGenome) []byte {
	t.Helper()
	for i, k := range ks {
		k.Time = float64(i)
	}
	var b bytes.Buffer
	if err := flame.WriteAnimation(&b, ks); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// roundTrip writes ks, reads them back with procgen's parser and checks
// that the xforms come back as written.
func roundTrip(t *testing.T, ks ...*flame.AnimGenome) {
	t.Helper()
	data := write(t, ks...)
	back, _, err := flame.ParseAnimGenomes(data, "written.flam3", flame.ParseOptions{Strict: true})
	if err != nil {
		t.Fatalf("procgen cannot read what it wrote: %v\n%s", err, data)
	}
	if len(back) != len(ks) {
		t.Fatalf("read %d genomes, wrote %d", len(back), len(ks))
	}
	for i := range ks {
		if len(back[i].Xforms) != len(ks[i].Xforms) || (back[i].Final == nil) != (ks[i].Final == nil) {
			t.Fatalf("genome %d: %d xforms read, %d written", i, len(back[i].Xforms), len(ks[i].Xforms))
		}
		for j, x := range ks[i].Xforms {
			if back[i].Xforms[j].Coefs != x.Coefs || !slices.Equal(back[i].Xforms[j].Vars, x.Vars) {
				t.Fatalf("genome %d xform %d changed in the round trip", i, j)
			}
		}
	}
}

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

func TestRandomDeterministicPerSeed(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42} {
		a := write(t, Random(rng(seed), RandomOptions{}))
		b := write(t, Random(rng(seed), RandomOptions{}))
		c := write(t, Random(rng(seed+1000), RandomOptions{}))
		if !bytes.Equal(a, b) {
			t.Errorf("seed %d: two runs differ", seed)
		}
		if bytes.Equal(a, c) {
			t.Errorf("seed %d and %d give the same genome", seed, seed+1000)
		}
	}
}

func TestRandomRespectsOptions(t *testing.T) {
	vars := []flame.VarID{flame.VarJulia, flame.VarSpherical}
	checked := 0
	for seed := range uint64(50) {
		k := Random(rng(seed), RandomOptions{Vars: vars, MinXforms: 3, MaxXforms: 5, Symmetry: -3, Final: -1})
		anim := animated(k)
		if len(anim) < 3 || len(anim) > 5 {
			t.Fatalf("seed %d: %d xforms, want 3..5", seed, len(anim))
		}
		if k.Final != nil {
			t.Fatalf("seed %d: a final xform with Final -1", seed)
		}
		if sym := len(k.Xforms) - len(anim); sym != 3 { // mirror + 2 rotations
			t.Fatalf("seed %d: %d symmetry xforms, want 3", seed, sym)
		}
		for _, i := range anim {
			sum := 0.0
			for _, v := range k.Xforms[i].Vars {
				if !slices.Contains(vars, v.ID) {
					t.Fatalf("seed %d: variation %s outside the set", seed, flame.VarNames[v.ID])
				}
				sum += v.Weight
				checked++
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("seed %d: weights sum to %g", seed, sum)
			}
		}
		roundTrip(t, k)
	}
	if checked == 0 {
		t.Fatal("no variation was checked")
	}
}

func TestMutateKinds(t *testing.T) {
	parent := Random(rng(9), RandomOptions{MinXforms: 3, MaxXforms: 3, Symmetry: 1, Final: -1})
	for _, kind := range Mutations {
		t.Run(string(kind), func(t *testing.T) {
			a, got, err := Mutate(rng(5), parent, kind, MutateOptions{})
			if err != nil || got != kind {
				t.Fatalf("Mutate: %v (kind %s)", err, got)
			}
			b, _, _ := Mutate(rng(5), parent, kind, MutateOptions{})
			if !bytes.Equal(write(t, a), write(t, b)) {
				t.Fatal("same seed, different mutants")
			}
			if bytes.Equal(write(t, a), write(t, Clone(parent))) {
				t.Fatal("the mutant equals its parent")
			}
			changedCoefs := 0
			for i := range min(len(a.Xforms), len(parent.Xforms)) {
				if a.Xforms[i].Coefs != parent.Xforms[i].Coefs {
					changedCoefs++
				}
			}
			switch kind {
			case MutateDelete:
				if len(a.Xforms) != len(parent.Xforms)-1 {
					t.Fatalf("delete left %d of %d xforms", len(a.Xforms), len(parent.Xforms))
				}
			case MutateSymmetry:
				if len(a.Xforms) <= len(parent.Xforms) || len(animated(a)) != len(animated(parent)) {
					t.Fatal("symmetry added no symmetry xform")
				}
			case MutateOneCoefs:
				if changedCoefs != 1 {
					t.Fatalf("one-coefs changed %d affines", changedCoefs)
				}
			case MutateAllCoefs:
				if changedCoefs != 3 {
					t.Fatalf("coefs changed %d of 3 affines", changedCoefs)
				}
			case MutatePalette:
				if a.Palette == parent.Palette || changedCoefs != 0 {
					t.Fatal("palette mutation left the palette or changed affines")
				}
			case MutatePost:
				for i := range a.Xforms {
					if a.Xforms[i].Post == parent.Xforms[i].Post {
						t.Fatalf("post left xform %d's post", i)
					}
				}
			case MutateVariations:
				if changedCoefs != 0 {
					t.Fatal("variations mutation changed affines")
				}
			}
			if parent.Xforms[0].Coefs != Random(rng(9), RandomOptions{MinXforms: 3, MaxXforms: 3, Symmetry: 1, Final: -1}).Xforms[0].Coefs {
				t.Fatal("Mutate changed its input")
			}
			roundTrip(t, a)
		})
	}
}

func TestCrossMethods(t *testing.T) {
	a := Random(rng(1), RandomOptions{MinXforms: 4, MaxXforms: 4, Symmetry: 1, Final: -1})
	b := Random(rng(2), RandomOptions{MinXforms: 3, MaxXforms: 3, Symmetry: 1, Final: -1})
	has := func(k *flame.AnimGenome, p *flame.AnimGenome) int {
		n := 0
		for _, x := range k.Xforms {
			if slices.ContainsFunc(p.Xforms, func(y flame.Xform) bool { return y.Coefs == x.Coefs }) {
				n++
			}
		}
		return n
	}
	for seed := range uint64(20) {
		u, _, _ := Cross(rng(seed), a, b, CrossUnion)
		if len(u.Xforms) != 7 || has(u, a) != 4 || has(u, b) != 3 {
			t.Fatalf("union: %d xforms, %d from a, %d from b", len(u.Xforms), has(u, a), has(u, b))
		}
		al, _, _ := Cross(rng(seed), a, b, CrossAlternate)
		if len(al.Xforms) != 4 || has(al, a) == 0 || has(al, b) == 0 || has(al, a)+has(al, b) != 4 {
			t.Fatalf("seed %d alternate: %d from a, %d from b", seed, has(al, a), has(al, b))
		}
		in, _, _ := Cross(rng(seed), a, b, CrossInterpolate)
		if has(in, a) == len(in.Xforms) || has(in, b) == len(in.Xforms) {
			t.Fatalf("seed %d interpolate: the child is a parent", seed)
		}
		x, _, _ := Cross(rng(seed), a, b, CrossAlternate)
		if !bytes.Equal(write(t, x), write(t, al)) {
			t.Fatal("same seed, different children")
		}
		roundTrip(t, u, al, in)
	}
}

func TestRotateTurnsTheAffine(t *testing.T) {
	g := Random(rng(3), RandomOptions{MinXforms: 2, MaxXforms: 2, Symmetry: 2, Final: -1})
	for _, deg := range []float64{0, 30, 90, -45, 360} {
		k := RotateGenome(g, deg)
		for i, x := range k.Xforms {
			o := g.Xforms[i].Coefs
			if x.Animate == 0 {
				if x.Coefs != o {
					t.Fatal("rotate turned a symmetry xform")
				}
				continue
			}
			// Each column turns by deg; its length, the determinant and
			// the translation stay.
			turn := math.Atan2(x.Coefs[1], x.Coefs[0]) - math.Atan2(o[1], o[0])
			if d := math.Remainder(turn*180/math.Pi-deg, 360); math.Abs(d) > 1e-9 {
				t.Fatalf("%g deg: column turned by %g", deg, turn*180/math.Pi)
			}
			det := func(a flame.Affine) float64 { return a[0]*a[3] - a[1]*a[2] }
			if math.Abs(det(x.Coefs)-det(o)) > 1e-12 || x.Coefs[4] != o[4] || x.Coefs[5] != o[5] {
				t.Fatalf("%g deg: determinant or translation changed", deg)
			}
		}
	}
}

func TestStripTilesTheImage(t *testing.T) {
	g := Random(rng(4), RandomOptions{Width: 64, Height: 120})
	g.Center = [2]float64{0.3, -0.2}
	for _, rot := range []float64{0, 30} {
		g.Rotate = rot
		const n = 4
		var sum [2]float64
		for i := range n {
			k, err := Strip(g, n, i)
			if err != nil {
				t.Fatal(err)
			}
			if k.Height != 30 || k.Width != 64 {
				t.Fatalf("strip size %dx%d", k.Width, k.Height)
			}
			sum[0] += k.Center[0] / n
			sum[1] += k.Center[1] / n
			if i == 0 {
				// The top strip's centre is 45 pixels above the image centre.
				d := math.Hypot(k.Center[0]-g.Center[0], k.Center[1]-g.Center[1]) * g.Scale
				if math.Abs(d-45) > 1e-9 {
					t.Fatalf("top strip %g px from the centre, want 45", d)
				}
			}
		}
		if math.Abs(sum[0]-g.Center[0]) > 1e-12 || math.Abs(sum[1]-g.Center[1]) > 1e-12 {
			t.Fatalf("strip centres average %v, want %v", sum, g.Center)
		}
	}
	if _, err := Strip(g, 7, 0); err == nil {
		t.Fatal("120 rows into 7 strips accepted")
	}
	if _, err := Strip(g, 4, 4); err == nil {
		t.Fatal("strip 4 of 4 accepted")
	}
}

func TestParseVars(t *testing.T) {
	// flam3's elliptic, splits, waves2 and log with other programs'
	// parameters share flam3's names: not picked on their own.
	var shared []string
	for v := range flame.NumVars {
		if !ownName(v) {
			shared = append(shared, flame.VarNames[v])
		}
	}
	if want := []string{"elliptic", "splits", "waves2", "log"}; !slices.Equal(shared, want) {
		t.Errorf("variations sharing a name: %v, want %v", shared, want)
	}
	all := int(flame.NumVars) - len(shared)
	for _, c := range []struct {
		in   string
		n    int
		fail bool
	}{{"", all - len(excluded), false}, {"linear,13", 2, false}, {"-linear", all - 1, false},
		{"nosuch", 0, true}, {"99999", 0, true}, {"1e3", 0, true}} {
		vs, err := ParseVars(c.in)
		if (err != nil) != c.fail || len(vs) != c.n {
			t.Errorf("ParseVars(%q) = %d vars, %v", c.in, len(vs), err)
		}
	}
}
