package genome

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
)

// stats are the features of a set of random genomes compared with
// flam3-genome's.
type stats struct {
	n, xforms        int
	count            map[int]int // animated xforms per genome
	final, sym       int         // genomes with a final xform, with symmetry xforms
	vars             int         // variation uses in animated xforms
	used             map[flame.VarID]bool
	sameVars, posted int
}

func measure(gs []*flame.AnimGenome) stats {
	s := stats{count: map[int]int{}, used: map[flame.VarID]bool{}}
	for _, g := range gs {
		s.n++
		anim := animated(g)
		s.count[len(anim)]++
		if g.Final != nil {
			s.final++
		}
		if len(anim) < len(g.Xforms) {
			s.sym++
		}
		same := true
		for _, i := range anim {
			x := g.Xforms[i]
			s.xforms++
			s.vars += len(x.Vars)
			for _, v := range x.Vars {
				s.used[v.ID] = true
			}
			same = same && slices.EqualFunc(x.Vars, g.Xforms[anim[0]].Vars, func(a, b flame.VarTerm) bool { return a.ID == b.ID })
		}
		if same {
			s.sameVars++
		}
		if len(anim) > 0 && !g.Xforms[anim[0]].Post.IsIdentity() {
			s.posted++
		}
	}
	return s
}

// near checks two proportions p = a/n, q = b/m agree within 4 standard
// errors of their difference (a false alarm about once in 16,000 runs).
func near(t *testing.T, what string, a, n, b, m int) {
	t.Helper()
	p, q := float64(a)/float64(n), float64(b)/float64(m)
	pool := float64(a+b) / float64(n+m)
	se := math.Sqrt(pool * (1 - pool) * (1/float64(n) + 1/float64(m)))
	if math.Abs(p-q) > 4*se+1e-9 {
		t.Errorf("%s: procgen %.3f, flam3-genome %.3f (4 SE = %.3f)", what, p, q, 4*se)
	} else {
		t.Logf("%s: procgen %.3f, flam3-genome %.3f (4 SE = %.3f)", what, p, q, 4*se)
	}
}

// TestRandomMatchesFlam3Genome compares procgen's random genomes with
// flam3-genome's (tries=1, so neither side filters by trial renders).
func TestRandomMatchesFlam3Genome(t *testing.T) {
	bin, err := exec.LookPath("flam3-genome")
	if err != nil {
		t.Skip("flam3-genome not installed (Debian flam3-utils)")
	}
	if testing.Short() {
		t.Skip("flam3-genome takes about a minute for the sample")
	}
	const nFlam3, nOurs = 150, 3000
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "repeat="+fmt.Sprint(nFlam3), "tries=1", "noedits=1", "seed=11", "isaac_seed=procgen-test")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("flam3-genome: %v", err)
	}
	theirs, _, err := flame.ParseAnimGenomes(out, "flam3-genome", flame.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ours := make([]*flame.AnimGenome, nOurs)
	r := rng(2024)
	for i := range ours {
		ours[i] = Random(r, RandomOptions{})
	}
	a, b := measure(ours), measure(theirs)
	if b.n != nFlam3 {
		t.Fatalf("read %d of flam3's genomes, want %d", b.n, nFlam3)
	}
	for k := 1; k <= 7; k++ {
		near(t, fmt.Sprintf("genomes with %d xforms", k), a.count[k], a.n, b.count[k], b.n)
	}
	near(t, "final xform", a.final, a.n, b.final, b.n)
	near(t, "symmetry", a.sym, a.n, b.sym, b.n)
	near(t, "one variation set for all xforms", a.sameVars, a.n, b.sameVars, b.n)
	near(t, "post affine", a.posted, a.n, b.posted, b.n)
	// Variations per xform: a mean, compared as a rate with a Poisson-like
	// spread (the count is 2 + a geometric tail, less repeats).
	ma, mb := float64(a.vars)/float64(a.xforms), float64(b.vars)/float64(b.xforms)
	if se := math.Sqrt(1.5/float64(a.xforms) + 1.5/float64(b.xforms)); math.Abs(ma-mb) > 4*se {
		t.Errorf("variations per xform: procgen %.3f, flam3-genome %.3f (4 SE %.3f)", ma, mb, 4*se)
	}
	for v := range b.used {
		if !slices.Contains(DefaultVars(), v) {
			t.Errorf("flam3-genome used %s, which procgen's default set leaves out", flame.VarNames[v])
		}
	}
	for _, v := range excluded {
		if a.used[v] {
			t.Errorf("procgen used excluded variation %s", flame.VarNames[v])
		}
	}
}

// TestFlam3RendersOurGenomes renders random, mutated and crossed genomes
// with flam3-render: each must render without error to a picture that is
// not all background.
func TestFlam3RendersOurGenomes(t *testing.T) {
	bin, err := exec.LookPath("flam3-render")
	if err != nil {
		t.Skip("flam3-render not installed (Debian flam3-utils)")
	}
	r := rng(77)
	var ks []*flame.AnimGenome
	for range 3 {
		ks = append(ks, Random(r, RandomOptions{Width: 48, Height: 48}))
	}
	for _, kind := range Mutations {
		m, _, err := Mutate(r, ks[0], kind, MutateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, m)
	}
	for _, how := range Crossings {
		c, _, err := Cross(r, ks[1], ks[2], how)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, c)
	}
	ks = append(ks, RotateGenome(ks[0], 45))
	dir := t.TempDir()
	data := write(t, ks...)
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(data)
	cmd.Env = append(os.Environ(), "prefix="+dir+"/g.", "format=png", "nthreads=1", "isaac_seed=x")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("flam3-render: %v\n%s", err, msg)
	}
	lit := 0
	for i := range ks {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("g.%05d.png", i)))
		if err != nil {
			t.Fatalf("genome %d: %v", i, err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		n := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl > 0 {
					n++
				}
			}
		}
		if n > 0 {
			lit++
		} else {
			t.Logf("genome %d renders black in flam3 (its attractor may lie outside the frame)", i)
		}
	}
	// flam3-genome itself retries dark genomes; without trial renders some
	// of ours may frame nothing, but most must show something.
	if lit < len(ks)*3/4 {
		t.Fatalf("%d of %d genomes rendered non-blank by flam3-render", lit, len(ks))
	}
}
