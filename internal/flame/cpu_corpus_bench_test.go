//go:build unix

package flame

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// benchCorpusGenomes are spread over the corpus: the picks of
// scripts/bench-flam3-cpu.sh 4, so the two report the same genomes.
var benchCorpusGenomes = []string{
	"01_es243-10333_Aenima",
	"20_es243-15299_Phenix.Requiem",
	"40_es243-11874_revdrace",
	"59_apo-seph-bubbles",
}

// cpuSeconds is the user+system time of this process so far.
func cpuSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	tv := func(t syscall.Timeval) float64 {
		return float64(t.Sec) + float64(t.Usec)/1e6
	}
	return tv(ru.Utime) + tv(ru.Stime)
}

// BenchmarkCPUCorpus renders corpus genomes at the references' framing
// (400 wide) and reports samples per CPU-second, getrusage's user+system
// time of the whole render (iteration, density estimation, filtering) as
// scripts/bench-flam3-cpu.sh measures flam3-render, and of the iteration
// alone (its wall time times the workers). Quality is 1000 as the script's
// and the figures (PROCGEN_BENCH_QUALITY changes it); run with
// -benchtime 1x, and -cpu 1 for the one-thread figure.
func BenchmarkCPUCorpus(b *testing.B) {
	settings := loadSettings(b)
	quality := 1000.0
	if q := os.Getenv("PROCGEN_BENCH_QUALITY"); q != "" {
		v, err := strconv.ParseFloat(q, 64)
		if err != nil || !(v > 0) {
			b.Fatalf("PROCGEN_BENCH_QUALITY=%q: want a positive number", q)
		}
		quality = v
	}
	for _, name := range benchCorpusGenomes {
		var s refSetting
		for _, r := range settings {
			if r.name == name {
				s = r
			}
		}
		if s.name == "" {
			b.Fatalf("%s is not in refs/settings.tsv", name)
		}
		b.Run(name, func(b *testing.B) {
			g := refGenome(b, s)
			g.Quality = quality
			var samples int64
			var iterCPU float64
			c := CPU{}
			workers := float64(runtime.GOMAXPROCS(0))
			b.ResetTimer()
			cpu0, wall0 := cpuSeconds(b), time.Now()
			for i := 0; i < b.N; i++ {
				_, st, err := c.Render(context.Background(), g, Options{Seed: uint64(i + 1)})
				if err != nil {
					b.Fatal(err)
				}
				samples += st.Samples
				iterCPU += st.IterateSeconds * workers
			}
			cpu, wall := cpuSeconds(b)-cpu0, time.Since(wall0).Seconds()
			b.ReportMetric(float64(samples)/cpu/1e6, "Msamples/cpu-s")
			b.ReportMetric(float64(samples)/iterCPU/1e6, "iterate-Msamples/cpu-s")
			b.ReportMetric(float64(samples)/wall/1e6, "Msamples/s")
		})
	}
}
