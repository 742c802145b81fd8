package flame

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// animRef is one kept row of the animation corpus's settings.tsv.
type animRef struct {
	seq   string
	frame int
	madAB float64
}

func loadAnimRefs(t testing.TB) []animRef {
	f, err := os.Open(filepath.Join(animDir, "settings.tsv"))
	if err != nil {
		t.Skipf("no flam3 animation corpus: %v", err)
	}
	defer f.Close()
	var out []animRef
	var cols map[string]int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if cols == nil {
			cols = map[string]int{}
			for i, c := range fields {
				cols[c] = i
			}
			continue
		}
		if fields[cols["kept"]] != "yes" {
			continue
		}
		frame, err1 := strconv.Atoi(fields[cols["frame"]])
		mad, err2 := strconv.ParseFloat(fields[cols["mad_ab"]], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("settings.tsv: %v %v", err1, err2)
		}
		seq := strings.TrimSuffix(filepath.Base(fields[cols["sequence_file"]]), ".flam3")
		out = append(out, animRef{seq: seq, frame: frame, madAB: mad})
	}
	return out
}

// animSubset is what CI renders: one frame of each sequence, between
// keyframes with motion blur (box, gaussian; A3's exp frames are the
// slowest and run with PROCGEN_ANIM_FIDELITY=all).
var animSubset = map[string]bool{"A1_loop.f0014": true, "A2_edge.f0017": true}

// TestAnimFidelityCPU renders frames of the flam3 animation corpus (loop,
// edge, hand-made keyframes; motion blur box, gaussian and exp) and
// requires each within flam3's own noise: MAD(ours, a) <= 1.5·MAD(a, b) + 0.5.
// By default two frames; PROCGEN_ANIM_FIDELITY=all renders all 24, and
// PROCGEN_ANIM_FIDELITY=blur also checks each against flam3's unblurred
// render (temporal_samples 1), which must be outside the bound (so the
// frame matches flam3's blurred render and not its unblurred one).
func TestAnimFidelityCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("renders at flam3's reference quality")
	}
	runAnimFidelity(t, CPU{}, os.Getenv("PROCGEN_ANIM_FIDELITY"))
}

// runAnimFidelity renders the subset (mode "") or all frames (mode "all",
// or "blur" to also check against flam3's unblurred frames) with r.
func runAnimFidelity(t *testing.T, fr FrameRenderer, mode string) {
	seqs := map[string]*Animation{}
	var table strings.Builder
	fails := 0
	for _, r := range loadAnimRefs(t) {
		name := fmt.Sprintf("%s.f%04d", r.seq, r.frame)
		if mode == "" && !animSubset[name] {
			continue
		}
		a := seqs[r.seq]
		if a == nil {
			a = animSeq(t, r.seq)
			seqs[r.seq] = a
		}
		fs, err := a.Frame(float64(r.frame))
		if err != nil {
			t.Fatal(err)
		}
		f, _, err := fr.RenderFrame(context.Background(), fs, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		img := f.NRGBA()
		mad, psnr := refDiff(img, readPNG(t, filepath.Join(animDir, "frames", name+".a.png")))
		bound := 1.5*r.madAB + 0.5
		ok := mad <= bound
		line := fmt.Sprintf("%-16s MAD %6.3f bound %6.3f PSNR %6.2f", name, mad, bound, psnr)
		if mode == "blur" {
			nb := refMAD(img, readPNG(t, filepath.Join(animDir, "blurcheck", name+".nts1.a.png")))
			line += fmt.Sprintf("  vs unblurred flam3 %6.3f", nb)
			ok = ok && nb > bound // the unblurred frame is outside the noise: blur shows
		}
		fmt.Fprintf(&table, "%s %v\n", line, ok)
		if !ok {
			fails++
		}
		if dir := os.Getenv("PROCGEN_FIDELITY_OUT"); dir != "" && !ok {
			if out, err := os.Create(filepath.Join(dir, name+".png")); err == nil {
				_ = encodePNGForTest(out, img)
				out.Close()
			}
		}
	}
	t.Logf("animation frames against flam3-animate render a:\n%s", table.String())
	if fails > 0 {
		t.Fatalf("%d frames outside flam3's noise", fails)
	}
}

func encodePNGForTest(w *os.File, img *image.NRGBA) error { return png.Encode(w, img) }
