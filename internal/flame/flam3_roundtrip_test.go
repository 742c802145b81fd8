package flame

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Sequences travel both ways between procgen and flam3 (issue 13):
// `flame sequence` output renders in flam3-animate without complaint and
// matches procgen's own render frame by frame, and flam3-genome's sequence
// output parses in procgen without warnings and renders within flam3's
// noise of flam3-animate's render. Both need flam3 on PATH (Debian's
// flam3-utils) and the corpus, and skip without them.

// The sequence: a loop of each genome and the edge between them, 4
// keyframes each (flam3-genome's nframes=4 loops=1), 20 box-filtered
// temporal samples per frame (flam3-genome's template), rendered at
// flam3-animate's ss/qs: 160x118, quality 500.
var (
	roundtripGenomes = [2]string{"37_es244-57862_WilliamPilgrim", "43_es243-15693_moonflower"}
	roundtripFrames  = []int{2, 5, 8} // loop of 37; edge 37 -> 43; the edge's end into the loop of 43
)

const (
	roundtripNFrames  = 4
	roundtripTemporal = 20
	roundtripSS       = 0.2
	roundtripQS       = 0.25
)

// flam3Tool returns the path of a flam3 program, or skips.
func flam3Tool(t *testing.T, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("renders with flam3")
	}
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not on PATH (Debian: apt-get install flam3-utils): %v", name, err)
	}
	return p
}

// roundtripSources returns the paths of the two corpus genomes, or skips.
func roundtripSources(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, n := range roundtripGenomes {
		p := filepath.Join(corpusDir, "genomes", n+".flam3")
		if _, err := os.Stat(p); err != nil {
			t.Skipf("no flame corpus: %v", err)
		}
		out = append(out, p)
	}
	return out
}

// runFlam3 runs a flam3 program with its options in the environment (flam3
// reads them there) and returns its standard output and error.
func runFlam3(bin string, env ...string) (stdout, stderr []byte, err error) {
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

// flam3Frame renders frame n of the sequence file seq with flam3-animate at
// the round trip's ss/qs with ISAAC seed seed and 2 threads (flam3's noise
// depends on both), and returns the PNG's path. A non-zero exit or anything
// on stderr (verbose=0 leaves only warnings and errors there) fails.
func flam3Frame(t *testing.T, animate, seq string, n int, seed string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), fmt.Sprintf("f%04d.%s.png", n, seed))
	_, stderr, err := runFlam3(animate, "in="+seq, fmt.Sprintf("frame=%d", n), fmt.Sprint("ss=", roundtripSS),
		fmt.Sprint("qs=", roundtripQS), "isaac_seed="+seed, "nthreads=2", "format=png", "enable_png_comments=0",
		"verbose=0", "out="+out)
	if err != nil || len(bytes.TrimSpace(stderr)) > 0 {
		t.Fatalf("flam3-animate frame %d of %s: %v, stderr:\n%s", n, seq, err, stderr)
	}
	return out
}

// flam3Complains reports whether flam3-animate refuses frame n of seq (a
// non-zero exit or anything on stderr) and the first line it said.
func flam3Complains(animate, seq string, n int, dir string) (bool, string) {
	_, stderr, err := runFlam3(animate, "in="+seq, fmt.Sprintf("frame=%d", n), "ss=0.05", "qs=0.01",
		"nthreads=1", "format=png", "verbose=0", "out="+filepath.Join(dir, "complain.png"))
	said, _, _ := strings.Cut(string(bytes.TrimSpace(stderr)), "\n")
	return err != nil || said != "", fmt.Sprintf("exit %v, %q", err, said)
}

// comparedFrame is one frame of compareWithFlam3: our render and the bound
// flam3's two seeds set.
type comparedFrame struct {
	ours  *image.NRGBA
	bound float64
}

// compareWithFlam3 renders the given frames of seq with flam3-animate (two
// seeds) and of a (with fr) and requires each of ours within flam3's noise:
// MAD(ours, a) <= 1.5·MAD(a, b) + 0.5.
func compareWithFlam3(t *testing.T, fr FrameRenderer, animate, seq string, a *Animation, frames []int) map[int]comparedFrame {
	t.Helper()
	done := map[int]comparedFrame{}
	var table strings.Builder
	fails := 0
	for _, n := range frames {
		fa := readPNG(t, flam3Frame(t, animate, seq, n, "seeda"))
		fb := readPNG(t, flam3Frame(t, animate, seq, n, "seedb"))
		fs, err := a.Frame(float64(n))
		if err != nil {
			t.Fatal(err)
		}
		f, _, err := fr.RenderFrame(context.Background(), fs, Options{Seed: uint64(n) + 1})
		if err != nil {
			t.Fatal(err)
		}
		ours := f.NRGBA()
		if ours.Bounds() != fa.Bounds() {
			t.Fatalf("frame %d: ours %v, flam3's %v", n, ours.Bounds(), fa.Bounds())
		}
		mad, psnr := refDiff(ours, fa)
		ab := refMAD(fa, fb)
		bound := 1.5*ab + 0.5
		fmt.Fprintf(&table, "frame %3d  MAD %6.3f  bound %6.3f (flam3 a-b %6.3f)  PSNR %6.2f  %v\n", n, mad, bound, ab, psnr, mad <= bound)
		if mad > bound {
			fails++
		}
		done[n] = comparedFrame{ours, bound}
	}
	t.Logf("%s against flam3-animate:\n%s", filepath.Base(seq), table.String())
	if fails > 0 {
		t.Fatalf("%d frames outside flam3's noise", fails)
	}
	return done
}

// roundtripAnimation parses a sequence file as `flame animate` does, with
// no warnings allowed, and applies flam3-animate's ss and qs.
func roundtripAnimation(t *testing.T, path string) *Animation {
	t.Helper()
	a, warns, err := ParseAnimationFile(path, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Errorf("warning: %s", w)
	}
	a.Resize(roundtripSS, roundtripQS)
	return a
}

// ourSequence is what `procgen flame sequence A B --loop-frames 4
// --edge-frames 4 --temporal-samples 20` writes.
func ourSequence(t *testing.T, srcs []string) []byte {
	t.Helper()
	var gs []*AnimGenome
	for _, p := range srcs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ks, _, err := ParseAnimGenomes(data, p, ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, ks...)
	}
	keys, err := Sequence(gs, SequenceOptions{LoopFrames: roundtripNFrames, EdgeFrames: roundtripNFrames})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		k.TemporalSamples = roundtripTemporal
	}
	var buf bytes.Buffer
	if err := WriteAnimation(&buf, keys); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var coefsAttr = regexp.MustCompile(`coefs="(\S+) (\S+) (\S+) (\S+)`)

// TestFlam3AnimateRendersOurSequence: the loop+edge file procgen writes
// from two corpus genomes renders in flam3-animate with exit 0 and nothing
// on stderr, and procgen's render of each chosen frame is within flam3's
// noise of flam3's. The check has teeth: a misspelt xform attribute makes
// flam3 warn (exit 0, a line on stderr), and the same file with every affine's linear part transposed
// (a writer that mixed up flam3's coefficient order) renders in flam3
// outside that noise of our frame.
func TestFlam3AnimateRendersOurSequence(t *testing.T) {
	animate := flam3Tool(t, "flam3-animate")
	srcs := roundtripSources(t)
	dir := t.TempDir()
	data := ourSequence(t, srcs)
	seq := filepath.Join(dir, "procgen_seq.flam3")
	if err := os.WriteFile(seq, data, 0o644); err != nil {
		t.Fatal(err)
	}
	a := roundtripAnimation(t, seq)
	if n := len(a.Keys); n != 3*roundtripNFrames+1 {
		t.Fatalf("%d keyframes, want %d (loop, edge, loop, closing key)", n, 3*roundtripNFrames+1)
	}
	done := compareWithFlam3(t, CPU{}, animate, seq, a, roundtripFrames)

	misspelt := filepath.Join(dir, "misspelt.flam3")
	if err := os.WriteFile(misspelt, bytes.ReplaceAll(data, []byte(" color_speed="), []byte(" colour_speed=")), 0o644); err != nil {
		t.Fatal(err)
	}
	if bad, said := flam3Complains(animate, misspelt, 1, dir); !bad {
		t.Errorf("flam3-animate read a misspelt attribute without complaint: the stderr check cannot fail")
	} else {
		t.Logf("flam3-animate on a misspelt attribute: %s", said)
	}

	damaged := filepath.Join(dir, "transposed.flam3")
	if err := os.WriteFile(damaged, coefsAttr.ReplaceAll(data, []byte(`coefs="$1 $3 $2 $4`)), 0o644); err != nil {
		t.Fatal(err)
	}
	n := roundtripFrames[1]
	got := refMAD(done[n].ours, readPNG(t, flam3Frame(t, animate, damaged, n, "seeda")))
	t.Logf("frame %d of the transposed file: MAD %.3f from ours (bound %.3f)", n, got, done[n].bound)
	if got <= done[n].bound {
		t.Errorf("flam3's render of a damaged sequence is within the bound of ours (MAD %.3f <= %.3f): the comparison cannot fail",
			got, done[n].bound)
	}
}

// TestProcgenRendersFlam3GenomeSequence: flam3-genome's sequence= output
// for the same two genomes (nframes=4, loops=1, a template setting 20
// temporal samples) parses without warnings (a misspelt attribute draws
// one), holds the keyframes procgen's Sequence makes (genomeDiffs: camera,
// colours, xforms, palette), and procgen's render of each chosen frame is within
// flam3's noise of flam3-animate's.
func TestProcgenRendersFlam3GenomeSequence(t *testing.T) {
	genome := flam3Tool(t, "flam3-genome")
	animate := flam3Tool(t, "flam3-animate")
	srcs := roundtripSources(t)
	dir := t.TempDir()
	pair := []byte("<pair>\n")
	for _, p := range srcs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pair = append(pair, data...)
	}
	pair = append(pair, "</pair>\n"...)
	pairPath, tmpl := filepath.Join(dir, "pair.flam3"), filepath.Join(dir, "template.flam3")
	if err := os.WriteFile(pairPath, pair, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmpl, []byte(fmt.Sprintf(`<flame temporal_samples="%d"/>`, roundtripTemporal)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runFlam3(genome, "sequence="+pairPath, fmt.Sprint("nframes=", roundtripNFrames), "loops=1",
		"noedits=1", "template="+tmpl)
	if err != nil || len(bytes.TrimSpace(stderr)) > 0 {
		t.Fatalf("flam3-genome sequence=: %v, stderr:\n%s", err, stderr)
	}
	seq := filepath.Join(dir, "flam3_seq.flam3")
	if err := os.WriteFile(seq, out, 0o644); err != nil {
		t.Fatal(err)
	}
	a := roundtripAnimation(t, seq)
	// The no-warnings check can fail: a misspelt attribute draws one.
	misspelt := bytes.ReplaceAll(out, []byte(" color_speed="), []byte(" colour_speed="))
	if _, warns, err := ParseAnimation(misspelt, "misspelt", ParseOptions{}); err != nil || len(warns) == 0 {
		t.Errorf("a misspelt attribute in flam3-genome's output: error %v and no warning", err)
	}

	// The same keyframes as procgen's sequence of the same genomes.
	mine, _, err := ParseAnimation(ourSequence(t, srcs), "procgen", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(mine.Keys) != len(a.Keys) {
		t.Fatalf("flam3-genome wrote %d keyframes, procgen's sequence has %d", len(a.Keys), len(mine.Keys))
	}
	mine.Resize(roundtripSS, roundtripQS)
	for i, k := range a.Keys {
		if k.Time != mine.Keys[i].Time {
			t.Errorf("keyframe %d: time %g, procgen's %g", i, k.Time, mine.Keys[i].Time)
		}
		for _, d := range genomeDiffs(&mine.Keys[i].Genome, &k.Genome) {
			t.Errorf("keyframe %d (t=%g): %s", i, k.Time, d)
		}
	}
	compareWithFlam3(t, CPU{}, animate, seq, a, roundtripFrames)
}
