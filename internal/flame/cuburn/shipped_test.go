package cuburn

import (
	"context"
	"testing"

	"github.com/procgen-dev/procgen/internal/flame"
)

// TestShippedFlock: the flock under configs/flame/flock (two edges of simple
// nodes and cuburn's 1080p profile, which scripts/bench-anim.sh animates)
// loads, takes the profile's size and samples, and a motion-blurred frame of
// each edge renders lit on the CPU.
func TestShippedFlock(t *testing.T) {
	prof, err := ReadProfile("../../../configs/flame/flock/profiles/1080p.json")
	if err != nil {
		t.Fatal(err)
	}
	if prof.Width != 1920 || prof.Height != 1080 || prof.SPP != 2500 {
		t.Fatalf("profile: %dx%d, %g spp; want 1920x1080, 2500", prof.Width, prof.Height, prof.SPP)
	}
	for _, edge := range []string{"simple-a=simple-b.json", "linear-a=linear-b.json"} {
		a, err := LoadFile("../../../configs/flame/flock/edges/"+edge, prof, Options{})
		if err != nil {
			t.Fatal(err)
		}
		a.SetFrameCount(120)
		if err := a.Override(flame.Options{Width: 96, Height: 54, Quality: 40}); err != nil {
			t.Fatal(err)
		}
		fs, err := a.Frame(0.5)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs.Samples) < 2 {
			t.Fatalf("%s: a frame has %d temporal samples; want motion blur", edge, len(fs.Samples))
		}
		f, _, err := flame.CPU{}.RenderFrame(context.Background(), fs, flame.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		img := f.NRGBA()
		lit, n := 0, 0
		for i := 0; i+3 < len(img.Pix); i += 4 {
			n++
			if (int(img.Pix[i])+int(img.Pix[i+1])+int(img.Pix[i+2]))/3 > 40 {
				lit++
			}
		}
		if lit < n/10 {
			t.Fatalf("%s: the middle frame is dark: %d of %d pixels lit", edge, lit, n)
		}
	}
}
