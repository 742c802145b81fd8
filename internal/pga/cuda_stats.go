//go:build cuda

package pga

import (
	"fmt"
	"unsafe"

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
const overflowChunk = 1 << 18

// overflows measures, as Grammar.Overflows does, which lots the nterm
// terminals on the device reach outside, reading them back a chunk at a
// time so that statistics of a city keep no terminal on the host. The chunk
// is page-locked memory where the driver grants it: Suburban 66x64's 6.2 M
// records (620 MB) crossed from pageable memory at ~2 GB/s, which more than
// doubled its --stats-only run on the GPU.
func (c *CUDA) overflows(nterm int, lots []Lot, tol float64) ([]Overflow, error) {
	edges := lotEdges(lots)
	worst := map[int]float64{}
	n := min(nterm, overflowChunk)
	var buf []gpuTerm
	if pin, err := c.dev.AllocPinned(n * int(unsafe.Sizeof(gpuTerm{}))); err == nil {
		defer pin.Free()
		buf = unsafe.Slice((*gpuTerm)(unsafe.Pointer(unsafe.SliceData(pin.Bytes()))), n)
	} else {
		buf = make([]gpuTerm, n)
	}
	ts := make([]TerminalShape, len(buf))
	for at := 0; at < nterm; at += len(buf) {
		part := buf[:min(len(buf), nterm-at)]
		words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(part))), len(part)*termWords)
		if err := c.terms.ReadAt(words, at*termWords); err != nil {
			return nil, err
		}
		bounds := parallel.Chunks(len(part), 4096)
		found := make([]map[int]float64, len(bounds)-1)
		parallel.For(len(part), 4096, func(ch, lo, hi int) {
			m := map[int]float64{}
			for i := lo; i < hi; i++ {
				t := &part[i]
				s := &ts[i]
				*s = TerminalShape{Term: t.Term, Shape: Shape{Kind: ShapeKind(t.Kind), Roof: RoofKind(t.Roof),
					Profile: t.Profile, Lot: t.Axiom, Size: t.Size}}
				copy(s.Transform[:12], t.M[:])
				s.Transform[15] = 1
				if d := c.g.outside(s, edges, tol); d > tol && d > m[int(t.Axiom)] {
					m[int(t.Axiom)] = d
				}
			}
			found[ch] = m
		})
		for _, m := range found {
			for l, d := range m {
				worst[l] = max(worst[l], d)
			}
		}
	}
	return overflowList(worst), nil
}
