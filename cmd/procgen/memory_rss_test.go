package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/pga"
)

// rssJob is one job's memory check: args(size) is its command line for a
// size, searched from 1 to hi for the largest one --max-memory limit
// accepts; probe is the --max-memory under which a size is refused by the
// check being measured, so its estimate shows without running it.
type rssJob struct {
	name  string
	limit uint64
	hi    int
	args  func(dir string, size int) []string
	probe func(size int) uint64
}

// TestMemoryEstimateRSS runs each job at the largest size --max-memory
// accepts and compares the child's peak RSS (VmHWM, which the child reads
// at exit) with the estimate a refusal of that size names: the peak must be
// within 1.2x of the estimate and the estimate no more than 3x the peak.
func TestMemoryEstimateRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("runs each job at its largest accepted size (about 15 s)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	small := func(int) uint64 { return 1 }
	jobs := []rssJob{
		{name: "rules", limit: 256 << 20, hi: 1 << 26, probe: small, args: func(dir string, n int) []string {
			return []string{"rules", "run", writeFile(t, dir, "e.rules", "const N = 8\nstate { int c[N] ~ uniform(0, 1) }\nrule r over i in 0..N\n  when c[i] == 0\n{ c[i] = 1 }\n"),
				"--generate", "2", "--steps", strconv.Itoa(n), "-o", filepath.Join(dir, "out.json")}
		}},
		{name: "lsys", limit: 256 << 20, hi: 1 << 22, probe: small, args: func(dir string, n int) []string {
			axiom := strings.Repeat("F+F-", n/4+1)
			return []string{"lsys", "derive", writeFile(t, dir, "a.l", "Lsystem: a\nderivation length: 0\nangle: 90\naxiom: "+axiom+"\nF --> F\nendlsystem\n"),
				"-n", "0", "-o", filepath.Join(dir, "out.json")}
		}},
		{name: "pga", limit: 256 << 20, hi: 48,
			// Past the lots' own check, so that the city's shows.
			probe: func(n int) uint64 { return uint64(pga.LotsMemory(n*n)) + 1 },
			args: func(dir string, n int) []string {
				return []string{"pga", "city", filepath.Join(root, "configs/pga/tower.pga"), "--grid", fmt.Sprintf("%dx%d", n, n),
					"-o", filepath.Join(dir, "city.glb")}
			}},
		{name: "flame render", limit: 512 << 20, hi: 8000, probe: small, args: func(dir string, n int) []string {
			return []string{"flame", "render", filepath.Join(root, "testdata/flame/simple.flam3"), "--width", strconv.Itoa(n),
				"--quality", "20", "-o", filepath.Join(dir, "f.png")}
		}},
		{name: "forest multires", limit: 128 << 20, hi: 1000, probe: small, args: func(dir string, n int) []string {
			stems := writeFile(t, dir, "st.csv", "x,y,species,dbh\n10,10,Sx,30\n50,60,Pl,40\n90,20,Bl,35\n30,80,At,25\n")
			out := filepath.Join(dir, "forest")
			os.RemoveAll(out)
			return []string{"forest", "disperse", stems, "--species", filepath.Join(root, "configs/forest/example-species.yaml"),
				"--method", "multires", "--bounds", fmt.Sprintf("0,0,%d,%d", n, n), "--cell", "0.1", "-o", out}
		}},
	}
	for _, j := range jobs {
		t.Run(j.name, func(t *testing.T) {
			dir := t.TempDir()
			estimate := func(n int) float64 {
				code, out, _ := runProcgen(t, j.probe(n), j.args(dir, n))
				est, ok := parseEstimate(out)
				if code != exitUsage || !ok {
					t.Fatalf("size %d under --max-memory %d: exit %d, %q, want a refusal naming the estimate", n, j.probe(n), code, out)
				}
				return est
			}
			// The largest size whose estimate fits: estimates grow with size.
			// The refusal names a tenth of a MiB: keep that far under.
			fits := func(n int) bool { return estimate(n) <= float64(j.limit)-0.1*(1<<20) }
			lo, hi := 1, j.hi
			if !fits(lo) || fits(hi) {
				t.Fatalf("sizes 1..%d do not straddle the limit %d", j.hi, j.limit)
			}
			for hi-lo > 1 {
				if mid := lo + (hi-lo)/2; fits(mid) {
					lo = mid
				} else {
					hi = mid
				}
			}
			est := estimate(lo)
			code, out, peak := runProcgen(t, j.limit, j.args(dir, lo))
			if code != exitOK {
				t.Fatalf("size %d under --max-memory %d: exit %d: %s", lo, j.limit, code, out)
			}
			t.Logf("%s: size %d, estimate %.1f MiB, peak RSS %.1f MiB (%.2fx)", j.name, lo, est/(1<<20), peak/(1<<20), peak/est)
			if peak > 1.2*est || est > 3*peak {
				t.Errorf("size %d: peak RSS %.1f MiB against an estimate of %.1f MiB: want peak <= 1.2x estimate <= 3.6x peak",
					lo, peak/(1<<20), est/(1<<20))
			}
		})
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runProcgen runs procgen-hwm (this test binary, which testscript.Main put
// on PATH: procgen, then its VmHWM) on the CPU under --max-memory limit: its
// exit code, standard error and peak RSS in bytes. The child reads its own
// VmHWM: wait4's maxrss would count the parent's pages, which the child
// shared until exec.
func runProcgen(t *testing.T, limit uint64, args []string) (int, string, float64) {
	t.Helper()
	cmd := exec.Command("procgen-hwm", append([]string{"--device", "cpu", "-q", "--max-memory", strconv.FormatUint(limit, 10)}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	m := hwmRE.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Skipf("no VmHWM from the child (no /proc/self/status?): %s", stderr.String())
	}
	kb, _ := strconv.ParseFloat(m[1], 64)
	return cmd.ProcessState.ExitCode(), hwmRE.ReplaceAllString(stderr.String(), ""), kb * 1024
}

var hwmRE = regexp.MustCompile(`(?m)^procgen-hwm: VmHWM ([0-9]+) kB\n`)

// reportHWM writes the process's peak RSS (VmHWM) to w, when /proc has it.
func reportHWM(w io.Writer) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			fmt.Fprintf(w, "procgen-hwm: VmHWM %s kB\n", f[1])
		}
	}
}

var estimateRE = regexp.MustCompile(`needs an estimated ([0-9.]+) (KiB|MiB|GiB|TiB)`)

// parseEstimate reads the estimate a refusal names (formatBytes).
func parseEstimate(msg string) (float64, bool) {
	m := estimateRE.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	unit := map[string]float64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}[m[2]]
	return v * unit, err == nil
}
