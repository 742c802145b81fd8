package rules

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// The big-board goal: Life on one 16384x16384 board for 1000 steps,
// on the CPU here and on the GPU in bench_big_cuda_test.go (make
// bench-life-big runs both). stencil-GB/s counts what a step must move at
// least, the board read once and written once (8 bytes a cell of int32);
// the run's real traffic is higher (the snapshot the rule reads its
// neighbours from is a copy of the board).
const (
	bigBoard = 16384
	bigSteps = 1000
)

// bigLifeSteps is bigSteps, or PROCGEN_LIFE_BIG_STEPS where set: the CPU
// takes minutes for 1000 steps, and ms/step and stencil-GB/s do not depend
// on the count.
func bigLifeSteps(b *testing.B) int {
	v := os.Getenv("PROCGEN_LIFE_BIG_STEPS")
	if v == "" {
		return bigSteps
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("PROCGEN_LIFE_BIG_STEPS=%q: want a positive number of steps", v)
	}
	return n
}

func bigLife(b *testing.B) (*Program, *States) {
	p := compileConfig(b, "life.rules", map[string]string{"W": fmt.Sprint(bigBoard), "H": fmt.Sprint(bigBoard)})
	return p, Generate(p, 1, 1)
}

// reportStencil reports a run of steps Life steps of one big board that
// took the benchmark's time per op.
func reportStencil(b *testing.B, seconds float64, steps int) {
	cells := float64(bigBoard) * float64(bigBoard) * float64(steps)
	b.ReportMetric(seconds, "s/run")
	b.ReportMetric(seconds*1e3/float64(steps), "ms/step")
	b.ReportMetric(8*cells/seconds/1e9, "stencil-GB/s")
}

// BenchmarkLifeBigBoardCPU is the board on every core (-cpu sets them),
// the engine's Run alone (the board generated beforehand).
func BenchmarkLifeBigBoardCPU(b *testing.B) {
	p, init := bigLife(b)
	steps := bigLifeSteps(b)
	st := &States{N: 1, Words: init.Words, Data: make([]uint32, len(init.Data))}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(st.Data, init.Data)
		b.StartTimer()
		if _, err := (CPU{}).Run(context.Background(), p, st, Options{Steps: steps, NoFiredPerStep: true}); err != nil {
			b.Fatal(err)
		}
	}
	reportStencil(b, b.Elapsed().Seconds()/float64(b.N), steps)
}
