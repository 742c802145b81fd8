package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/job/flamejob"
	"github.com/procgen-dev/procgen/internal/job/lsysjob"
)

// FuzzSizeValidation throws arbitrary values at every size a user controls:
// validation must never panic, and whatever it accepts must give a finite,
// positive memory estimate (the estimate is what stands between a flag and
// an allocation).
func FuzzSizeValidation(f *testing.F) {
	f.Add(int64(1024), int64(768), 1000.0, int64(2), "8G", int64(5), "20x10", int64(1000), int64(100))
	f.Add(int64(65536), int64(65536), 1e12, int64(16), "4E", int64(1_000_000), "1x1", int64(20000), int64(1<<31-1))
	f.Add(int64(-1), int64(0), math.NaN(), int64(-3), "0", int64(-2), "0x5", int64(0), int64(-1))
	f.Add(int64(8192), int64(8192), 1e14, int64(4), "1e30", int64(2_000_000_000), "512x512", int64(400000), int64(1e9))
	gs, _, err := flame.Parse(strings.NewReader(`<flame name="f" size="64 48" scale="20" quality="10" estimator_radius="3">
<xform weight="1" color="0" linear="1" coefs="0.5 0 0 0.5 0 0"/><palette count="2" format="RGB">FF8020 2080FF</palette></flame>`),
		"f.flam3", flame.ParseOptions{})
	if err != nil {
		f.Fatal(err)
	}
	g := gs[0]
	a := newApp(nil, &bytes.Buffer{}, &bytes.Buffer{})
	a.opts.MaxMemory = "auto"
	f.Fuzz(func(t *testing.T, w, h int64, q float64, ss int64, mem string, steps int64, grid string, depth, count int64) {
		fo := flamejob.Options{Width: int(w), Height: int(h), Quality: q, Supersample: int(ss), Compression: "fast", JPEGQuality: 90}
		if fo.Validate() == nil {
			fp, err := flame.Estimate(g, flame.Options{Width: fo.Width, Height: fo.Height, Quality: fo.Quality, Supersample: fo.Supersample})
			if err == nil && (!(fp.CPUBytes > 0) || math.IsInf(fp.CPUBytes, 0) || fp.Samples < 0 || fp.Samples > flame.MaxSamples) {
				t.Fatalf("flame %+v: footprint %+v", fo, fp)
			}
		}
		lo := lsysjob.Options{Steps: int(steps), MaxModules: uint64(count), ImageWidth: int(w), ImageHeight: int(h),
			LineScale: q, LineWidth: "auto", View: "front"}
		if lo.Validate() == nil {
			if n, _ := lsysjob.ModuleCap(lo, a.memoryLimit()); lo.Steps > lsysjob.MaxSteps || n < 1 {
				t.Fatalf("lsys %+v accepted out of bounds", lo)
			}
		}
		if n, err := parseSize(mem); err == nil && (n == 0 || n >= 1<<62) {
			t.Fatalf("parseSize(%q) = %d", mem, n)
		}
	})
}

// FuzzCommandFlags runs whole commands with one size flag set to an
// arbitrary value, under a short deadline: whatever happens, no panic, no
// Go trace on stderr, and an exit code of the table (a cut-off run is 130).
func FuzzCommandFlags(f *testing.F) {
	dir := f.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
		return p
	}
	sys := write("k.l", "Lsystem: k\nderivation length: 2\nangle: 90\naxiom: F-F-F-F\nF --> FF-F-F-F-FF\nendlsystem\n")
	gram := write("b.pga", "axiom Box Lot;\nterminal Mass (1, 0);\nLot = Mass;\n")
	rul := write("e.rules", "const N = 8\nstate { int c[N] ~ uniform(0, 1) }\nrule r over i in 0..N\n  when c[i] == 0\n{ c[i] = 1 }\n")
	stems := write("st.csv", "x,y,species,dbh\n10,10,Pl,30\n40,25,Pl,45\n70,60,Pl,20\n")
	traps := write("tr.csv", "x,y,area,count\n20,20,0.5,3\n50,40,0.5,1\n80,70,0.5,0\n30,60,0.5,2\n")
	gen := write("g.flam3", `<flame name="g" size="32 24" scale="20" quality="2"><xform weight="1" color="0" linear="1" coefs="0.5 0 0 0.5 0 0"/><palette count="2" format="RGB">FF8020 2080FF</palette></flame>`)
	commands := [][]string{
		{"flame", "render", gen, "-o", filepath.Join(dir, "o.png"), "--quality"},
		{"flame", "render", gen, "-o", filepath.Join(dir, "o.png"), "--width"},
		{"flame", "render", gen, "-o", filepath.Join(dir, "o.png"), "--supersample"},
		{"lsys", "derive", sys, "-n"},
		{"lsys", "derive", sys, "-o", filepath.Join(dir, "o.png"), "--image-width"},
		{"lsys", "derive", sys, "--max-modules"},
		{"pga", "city", gram, "--grid"},
		{"pga", "city", gram, "--grid", "2x2", "--max-depth"},
		{"pga", "city", gram, "--grid", "2x2", "--max-shapes"},
		{"rules", "run", rul, "--generate"},
		{"rules", "run", rul, "--generate", "2", "--steps"},
		{"flame", "genome", "--mode", "random", "-o", filepath.Join(dir, "n.flam3"), "--count"},
		{"flame", "genome", "--mode", "random", "-o", filepath.Join(dir, "n.flam3"), "--xforms-max"},
		{"lsys", "derive", sys, "-o", filepath.Join(dir, "o.glb"), "--cylinders"},
		{"lsys", "derive", sys, "--all-steps", "-o", filepath.Join(dir, "g.glb"), "--step-time"},
		{"forest", "fit", stems, traps, "--kernel", "exponential", "--counts", "poisson", "-o", filepath.Join(dir, "f.yaml"), "--candidates"},
		{"rules", "run", rul, "--generate", "2", "-o", filepath.Join(dir, "s.csv"), "--replicates"},
		{"--max-memory"},
		{"forest", "fit", stems, traps, "--kernel", "exponential", "--counts", "poisson", "--candidates", "16", "-o", filepath.Join(dir, "b.yaml"), "--bootstrap"},
	}
	for i := range commands {
		f.Add(uint8(i), "1")
		f.Add(uint8(i), "-1")
		f.Add(uint8(i), "1e300")
		f.Add(uint8(i), "99999999999999999999")
	}
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		args := append([]string{"--device", "cpu", "-q"}, commands[int(which)%len(commands)]...)
		args = append(args, value)
		if args[3] == "--max-memory" {
			args = append(args, "lsys", "derive", sys)
		} else {
			// Under the default (3/4 of the machine) an honest estimate
			// still admits runs of many GB, which the fuzzer's workers,
			// two at once and each keeping its garbage, cannot hold:
			// 1G keeps what is admitted small, and an estimate that
			// misses shows as a run far over it.
			args = append(args[:3:3], append([]string{"--max-memory", "1G"}, args[3:]...)...)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, nil, &stdout, &stderr)
		switch code {
		case exitOK, exitFailure, exitUsage, exitInterrupted:
		default:
			t.Fatalf("%q: exit %d", args, code)
		}
		if s := stderr.String(); strings.Contains(s, "goroutine ") || strings.Contains(s, "panic") {
			t.Fatalf("%q: %s", args, s)
		}
	})
}
