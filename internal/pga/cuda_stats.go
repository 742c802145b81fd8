//go:build cuda

package pga

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/parallel"
)

// countByName fills Stats.ByName with a histogram of the terminals' kinds
// made on the device (reading the records back cost more than the whole
// evaluation).
func (c *CUDA) countByName(nterm int, res *Result) error {
	nk := len(c.g.TermNames)
	res.Stats.ByName = map[string]int{}
	if nterm == 0 || nk == 0 {
		return nil
	}
	hist, err := gpu.Alloc[uint32](c.dev, nk)
	if err != nil {
		return fmt.Errorf("pga: cuda: %w", err)
	}
	defer hist.Free()
	if err := hist.Zero(); err != nil {
		return err
	}
	f, err := termHist.Load(c.dev)
	if err != nil {
		return err
	}
	if nk*4 > 48<<10 {
		return fmt.Errorf("pga: cuda: %d terminal kinds, more than a block's histogram holds", nk)
	}
	blocks := min((nterm+cudaThreads-1)/cudaThreads, max(1, c.dev.Info().SMs)*8)
	if err := f.Launch(gpu.Dim(blocks), gpu.Dim(cudaThreads), nk*4, termHistArgs{c.terms.Ptr(), uint32(nterm), uint32(nk), hist.Ptr()}); err != nil {
		return err
	}
	counts := make([]uint32, nk)
	if err := hist.Read(counts); err != nil {
		return err
	}
	for t, n := range counts {
		if n > 0 {
			res.Stats.ByName[c.g.TermNames[t]] += int(n)
		}
	}
	return nil
}

// overflowChunk is how many terminal records overflows reads back at once
// (about 26 MB).
// overflows measures, as Grammar.Overflows does, which lots the nterm
// terminals on the device reach outside: pga_overflow measures every
// terminal's corners against its lot's edges there and keeps each lot's
// worst, so only a number a lot comes back. (Reading the terminals back to
// measure them on the host took 181 ms of a 300x300 city_overview's GLB
// on the H200, whose 2 M records are 412 MB.)
func (c *CUDA) overflows(nterm int, lots []Lot, edges lotEdgeTable, tol float64) ([]Overflow, error) {
	flat, rng := edges.flat, edges.rng
	if nterm == 0 || len(lots) == 0 || len(flat) == 0 {
		return nil, nil
	}
	eb, err := gpu.Upload(c.dev, flat)
	if err != nil {
		return nil, err
	}
	defer eb.Free()
	rb, err := gpu.Upload(c.dev, structWords(rng))
	if err != nil {
		return nil, err
	}
	defer rb.Free()
	wb, err := gpu.Alloc[uint64](c.dev, len(lots))
	if err != nil {
		return nil, err
	}
	defer wb.Free()
	if err := wb.Zero(); err != nil {
		return nil, err
	}
	if err := launch(c, overflow, nterm, overflowArgs{c.words.Ptr(), c.terms.Ptr(), uint32(nterm), eb.Ptr(), rb.Ptr(),
		uint32(len(lots)), wb.Ptr()}); err != nil {
		return nil, err
	}
	got := make([]uint64, len(lots))
	if err := wb.Read(got); err != nil {
		return nil, err
	}
	worst := map[int]float64{}
	for l, o := range got {
		if o == 0 {
			continue
		}
		b := ^o // pga_overflow's order back to the double's bits
		if o>>63 == 1 {
			b = o &^ (1 << 63)
		}
		// Grammar.Overflows keeps what lies outside by more than tol and 0.
		if d := math.Float64frombits(b); d > tol && d > 0 {
			worst[l] = d
		}
	}
	return overflowList(worst), nil
}

// lotEdgeTable is every lot's edges as the overflow kernel reads them:
// flat holds (origin x, y, outward normal x, y) per edge, rng[l] lot l's.
type lotEdgeTable struct {
	flat []float64
	rng  []gpuRange
}

// lotEdgeTables lays out the lots' edges (lotEdges) for the overflow
// kernel, on every core. Evaluate has it made while the device runs.
func lotEdgeTables(lots []Lot) lotEdgeTable {
	edges := lotEdges(lots)
	t := lotEdgeTable{rng: make([]gpuRange, len(lots))}
	n := 0
	for l, es := range edges {
		t.rng[l] = gpuRange{Start: int32(n), N: int32(len(es))}
		n += len(es)
	}
	t.flat = make([]float64, 4*n)
	parallel.For(len(lots), 1024, func(_, lo, hi int) {
		for l := lo; l < hi; l++ {
			at := 4 * int(t.rng[l].Start)
			for _, e := range edges[l] {
				t.flat[at], t.flat[at+1], t.flat[at+2], t.flat[at+3] = e.ox, e.oy, e.nx, e.ny
				at += 4
			}
		}
	})
	return t
}
