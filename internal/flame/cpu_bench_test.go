package flame

import (
	"context"
	"runtime"
	"testing"
)

// benchCPU reports samples per CPU-second for a small render of a testdata
// genome, so the figure is the iteration and accumulation rate; set it
// against flam3 with BenchmarkCPUCorpus and scripts/bench-flam3-cpu.sh,
// which run corpus genomes.
func benchCPU(b *testing.B, name string) {
	gs, _, err := ParseFile("../../testdata/flame/"+name+".flam3", ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Width: 400, Quality: 200, Supersample: 2}
	var samples int64
	var iterate float64
	for i := 0; i < b.N; i++ {
		_, st, err := CPU{}.Render(context.Background(), gs[0], o)
		if err != nil {
			b.Fatal(err)
		}
		samples += st.Samples
		iterate += st.IterateSeconds
	}
	cpuSec := iterate * float64(runtime.GOMAXPROCS(0))
	b.ReportMetric(float64(samples)/cpuSec/1e6, "iterate-Msamples/cpu-s")
}

func BenchmarkCPUSimple(b *testing.B) { benchCPU(b, "simple") }
func BenchmarkCPUHeavy(b *testing.B)  { benchCPU(b, "heavy") }
