package flame

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// refSetting is one row of refs/settings.tsv.
type refSetting struct {
	name          string
	width, height int
	ss, qs        float64 // flam3's size and quality scales
	madAB         float64 // flam3's own seed-to-seed MAD, 0..255
}

func loadSettings(t testing.TB) []refSetting {
	f, err := os.Open(filepath.Join(corpusDir, "refs", "settings.tsv"))
	if err != nil {
		t.Skipf("no flam3 corpus: %v", err)
	}
	defer f.Close()
	var out []refSetting
	sc := bufio.NewScanner(f)
	var cols map[string]int
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if cols == nil {
			cols = map[string]int{}
			for i, c := range fields {
				cols[c] = i
			}
			continue
		}
		num := func(c string) float64 {
			v, err := strconv.ParseFloat(fields[cols[c]], 64)
			if err != nil {
				t.Fatalf("settings.tsv: %s: %v", c, err)
			}
			return v
		}
		out = append(out, refSetting{name: fields[cols["genome"]], width: int(num("width")), height: int(num("height")),
			ss: num("flam3_ss"), qs: num("flam3_qs"), madAB: num("mad_ab")})
	}
	return out
}

// refGenome loads a corpus genome transformed as flam3-render's ss and qs
// transform it: size and scale times ss (int truncation), quality times qs.
func refGenome(t testing.TB, s refSetting) *Genome {
	pf, err := LoadPaletteFile(filepath.Join(corpusDir, "palettes", "flam3-palettes.xml"))
	if err != nil {
		t.Fatal(err)
	}
	gs, _, err := ParseFile(filepath.Join(corpusDir, "genomes", s.name+".flam3"), ParseOptions{Palettes: pf})
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	g.Width = int(float64(g.Width) * s.ss)
	g.Height = int(float64(g.Height) * s.ss)
	g.Scale *= s.ss
	g.Quality *= s.qs
	if g.Width != s.width || g.Height != s.height {
		t.Fatalf("%s: transformed size %dx%d, flam3 wrote %dx%d", s.name, g.Width, g.Height, s.width, s.height)
	}
	return g
}

func readPNG(t testing.TB, path string) image.Image {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// refMAD is the corpus README's metric: mean absolute difference of R, G and
// B on 0..255, premultiplied over black.
func refMAD(a, b image.Image) float64 {
	r := a.Bounds()
	sum := 0.0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA() // premultiplied, 0..65535
			br, bg, bb, _ := b.At(x, y).RGBA()
			sum += math.Abs(float64(ar)-float64(br)) + math.Abs(float64(ag)-float64(bg)) + math.Abs(float64(ab)-float64(bb))
		}
	}
	return sum / 257 / float64(3*r.Dx()*r.Dy())
}

// fidelityCase renders one corpus genome and reports its MAD against flam3's
// render a, the bound it must meet, and whether it did.
func fidelityCase(t *testing.T, r Renderer, s refSetting) (mad, bound float64, pass bool) {
	g := refGenome(t, s)
	bound = 1.5*s.madAB + 0.5
	f, _, err := r.Render(context.Background(), g, Options{Seed: 1})
	if err != nil {
		t.Errorf("%s: %v", s.name, err) // counts as a failure; the table goes on
		return math.NaN(), bound, false
	}
	ref := readPNG(t, filepath.Join(corpusDir, "refs", s.name+".a.png"))
	if ref.Bounds().Dx() != f.Width || ref.Bounds().Dy() != f.Height {
		t.Fatalf("%s: rendered %dx%d, reference %v", s.name, f.Width, f.Height, ref.Bounds())
	}
	mad = refMAD(f.NRGBA(), ref)
	if dir := os.Getenv("PROCGEN_FIDELITY_OUT"); dir != "" && mad > bound {
		out, err := os.Create(filepath.Join(dir, s.name+".png"))
		if err == nil {
			png.Encode(out, f.NRGBA())
			out.Close()
		}
	}
	return mad, bound, mad <= bound
}

// runFidelity renders the corpus genomes (all of them, or every `stride`-th;
// PROCGEN_FIDELITY_ONLY=regexp picks by name) and requires 95 % within
// flam3's own noise. It logs the per-genome table; PROCGEN_FIDELITY_OUT=DIR
// saves the renders that fail there.
func runFidelity(t *testing.T, r Renderer, stride int) {
	settings := loadSettings(t)
	if only := os.Getenv("PROCGEN_FIDELITY_ONLY"); only != "" {
		re := regexp.MustCompile(only)
		var keep []refSetting
		for _, s := range settings {
			if re.MatchString(s.name) {
				keep = append(keep, s)
			}
		}
		settings, stride = keep, 1
	}
	var passed, total int
	var table strings.Builder
	fmt.Fprintf(&table, "%-45s %8s %8s %s\n", "genome", "MAD", "bound", "pass")
	for i, s := range settings {
		if i%stride != 0 {
			continue
		}
		mad, bound, ok := fidelityCase(t, r, s)
		total++
		if ok {
			passed++
		}
		fmt.Fprintf(&table, "%-45s %8.3f %8.3f %v\n", s.name, mad, bound, ok)
	}
	t.Logf("fidelity against flam3 (MAD on 0..255, bound 1.5·MAD(a,b)+0.5):\n%s%d of %d within flam3's noise",
		table.String(), passed, total)
	if float64(passed) < 0.95*float64(total) || t.Failed() {
		t.Fatalf("%d of %d genomes within flam3's noise, want at least 95%%", passed, total)
	}
}

// TestFidelityCPU checks the CPU backend against flam3. A full corpus run is
// ~6 billion samples (about 20 minutes on two cores), so by default it renders
// every 8th genome; PROCGEN_FIDELITY=all renders all 53.
func TestFidelityCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("renders at flam3's reference quality")
	}
	stride := 8
	if os.Getenv("PROCGEN_FIDELITY") == "all" {
		stride = 1
	}
	runFidelity(t, CPU{}, stride)
}
