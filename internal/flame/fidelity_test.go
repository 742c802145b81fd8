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

	"github.com/procgen-dev/procgen/internal/imgdiff"
)

// refSetting is one row of refs/settings.tsv.
type refSetting struct {
	name          string
	width, height int
	ss, qs        float64 // flam3's size and quality scales
	madAB         float64 // flam3's own seed-to-seed MAD, 0..255
	psnrAB        float64
	ssimAB        float64
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
			ss: num("flam3_ss"), qs: num("flam3_qs"), madAB: num("mad_ab"), psnrAB: num("psnr_ab"),
			ssimAB: num("ssim_ab")})
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
	mad, _ := refDiff(a, b)
	return mad
}

// refDiff returns the README's MAD and the PSNR of R, G, B on 0..255.
func refDiff(a, b image.Image) (mad, psnr float64) {
	r := a.Bounds()
	sum, sq := 0.0, 0.0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA() // premultiplied, 0..65535
			br, bg, bb, _ := b.At(x, y).RGBA()
			for _, d := range [3]float64{float64(ar) - float64(br), float64(ag) - float64(bg), float64(ab) - float64(bb)} {
				d /= 257
				sum += math.Abs(d)
				sq += d * d
			}
		}
	}
	n := float64(3 * r.Dx() * r.Dy())
	return sum / n, 10 * math.Log10(255*255/(sq/n))
}

// fidelityCase renders one corpus genome and reports its MAD against flam3's
// render a, the bound it must meet, and whether it did.
func fidelityCase(t *testing.T, r Renderer, s refSetting) (mad, psnr, ssim, bound float64, pass bool) {
	g := refGenome(t, s)
	bound = 1.5*s.madAB + 0.5
	f, _, err := r.Render(context.Background(), g, Options{Seed: 1})
	if err != nil {
		t.Errorf("%s: %v", s.name, err) // counts as a failure; the table goes on
		return math.NaN(), math.NaN(), math.NaN(), bound, false
	}
	ref := readPNG(t, filepath.Join(corpusDir, "refs", s.name+".a.png"))
	if ref.Bounds().Dx() != f.Width || ref.Bounds().Dy() != f.Height {
		t.Fatalf("%s: rendered %dx%d, reference %v", s.name, f.Width, f.Height, ref.Bounds())
	}
	img := f.NRGBA()
	mad, psnr = refDiff(img, ref)
	if m, err := imgdiff.Compare(img, ref); err == nil {
		ssim = m.SSIM
	}
	if dir := os.Getenv("PROCGEN_FIDELITY_OUT"); dir != "" && mad > bound {
		out, err := os.Create(filepath.Join(dir, s.name+".png"))
		if err == nil {
			png.Encode(out, f.NRGBA())
			out.Close()
		}
	}
	return mad, psnr, ssim, bound, mad <= bound
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
	fmt.Fprintf(&table, "%-40s %7s %7s %7s %7s | %7s %7s %7s %s\n", "genome", "MAD", "bound", "PSNR", "SSIM",
		"MAD_ab", "PSNR_ab", "SSIM_ab", "pass")
	for i, s := range settings {
		if i%stride != 0 {
			continue
		}
		mad, psnr, ssim, bound, ok := fidelityCase(t, r, s)
		total++
		if ok {
			passed++
		}
		fmt.Fprintf(&table, "%-40s %7.3f %7.3f %7.2f %7.4f | %7.3f %7.2f %7.4f %v\n", s.name, mad, bound, psnr, ssim,
			s.madAB, s.psnrAB, s.ssimAB, ok)
	}
	t.Logf("fidelity against flam3 render a (MAD and PSNR on RGB 0..255; SSIM of Rec. 709 luma, 11x11 Gaussian; "+
		"_ab: flam3's a against b; pass: MAD <= bound = 1.5·MAD_ab+0.5):\n%s%d of %d within flam3's noise",
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
