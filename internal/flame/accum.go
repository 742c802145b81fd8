package flame

import (
	"context"
	"fmt"
	"strings"

	"github.com/procgen-dev/procgen/internal/phase"
)

// An Accum is the raw accumulation of part of a render: the histogram of
// some of its chaos game's sub-batches, and what finishing it needs. A still
// split over n nodes renders, on node i, the i-th of n contiguous ranges of
// sub-batches (contiguous so that a GPU, whose chains are numbered from a
// base, can render a range in its launches as they are);
// each sub-batch's random stream depends only on the seed and k, and the
// histogram sums integers, so the sum of the n parts is the histogram of the
// one-shot render at the total quality, bit for bit, and so is the image
// finished from it.
type Accum struct {
	info AccumInfo
	h    *histogram
	have []bool // shards summed so far
}

// AccumInfo describes an Accum: the render it belongs to and its part.
type AccumInfo struct {
	// Name is the genome's name; GenomeXML the genome as flam3 XML, for the
	// record (finishing uses Finish, not a re-parse).
	Name      string `json:"name"`
	GenomeXML string `json:"genome"`
	Seed      uint64 `json:"seed"`
	// Shard of Shards is the part; a merged Accum has Shard -1.
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
	// Samples in this part, of TotalSamples in the whole render.
	Samples      int64 `json:"samples"`
	TotalSamples int64 `json:"total_samples"`
	BadValues    int64 `json:"bad_values"`
	// BucketsW x BucketsH is the histogram, gutters included.
	BucketsW  int        `json:"buckets_w"`
	BucketsH  int        `json:"buckets_h"`
	AlphaHits bool       `json:"alpha_hits"` // hit counts come from alpha: no count array
	Finish    FinishSpec `json:"finish"`
	// Backend is "cuda" for a part the GPU rendered, "" for the CPU.
	Backend string `json:"backend,omitempty"`
}

// FinishSpec is every parameter of the finishing steps (density
// estimation, spatial filter, tone map), so a merge needs no genome parser.
type FinishSpec struct {
	Width, Height, Supersample int
	DEOffset                   int
	FilterShape                FilterShape
	FilterKernel               FilterKernelType // JWildfire's, when not KernelNone
	FilterRadius               float64
	EstimatorRadius            float64
	EstimatorMinimum           float64
	EstimatorCurve             float64
	K1, K2                     float64
	Gamma, LinRange            float64
	Vibrancy, HighlightPower   float64
	Background                 [3]float64
	Transparent, EarlyClip     bool
}

// Info describes a.
func (a *Accum) Info() AccumInfo { return a.info }

func (p *plan) finishSpec() FinishSpec {
	g := p.g
	return FinishSpec{
		Width: p.width, Height: p.height, Supersample: p.ss, DEOffset: p.deOffset,
		FilterShape: g.FilterShape, FilterKernel: g.SpatialFilterKernel, FilterRadius: g.FilterRadius,
		EstimatorRadius: g.EstimatorRadius, EstimatorMinimum: g.EstimatorMinimum, EstimatorCurve: g.EstimatorCurve,
		K1: p.k1, K2: p.k2, Gamma: p.tone.gamma, LinRange: p.tone.linrange, Vibrancy: p.tone.vibrancy,
		HighlightPower: p.tone.highpow, Background: p.tone.background, Transparent: p.tone.transp,
		EarlyClip: p.earlyClip,
	}
}

// finishPlan rebuilds the finishing half of a plan from its spec.
func (s FinishSpec) finishPlan(bw, bh int) (*plan, error) {
	p := &plan{width: s.Width, height: s.Height, ss: s.Supersample, deOffset: s.DEOffset, bw: bw, bh: bh,
		k1: s.K1, k2: s.K2, earlyClip: s.EarlyClip,
		tone: toneParams{gamma: s.Gamma, linrange: s.LinRange, vibrancy: s.Vibrancy, highpow: s.HighlightPower,
			background: s.Background, transp: s.Transparent}}
	if p.width < 1 || p.height < 1 || p.width > 1<<16 || p.height > 1<<16 || p.ss < 1 || p.ss > 16 {
		return nil, fmt.Errorf("flame: accumulation: bad size %dx%d at supersample %d", p.width, p.height, p.ss)
	}
	var err error
	if p.filter, p.filterWidth, err = buildSpatialFilter(s.FilterShape, s.FilterKernel, s.FilterRadius, p.ss); err != nil {
		return nil, fmt.Errorf("flame: accumulation: %w", err)
	}
	if s.EstimatorRadius > 0 {
		if p.de, err = newDEFilters(s.EstimatorRadius, s.EstimatorMinimum, s.EstimatorCurve, p.ss); err != nil {
			return nil, fmt.Errorf("flame: accumulation: %w", err)
		}
	}
	// The filter reads fw buckets from deOffset+i·ss: all inside the histogram.
	if p.deOffset < 0 || p.deOffset+(p.width-1)*p.ss+p.filterWidth > bw ||
		p.deOffset+(p.height-1)*p.ss+p.filterWidth > bh {
		return nil, fmt.Errorf("flame: accumulation: %dx%d buckets do not hold a %dx%d image", bw, bh, p.width, p.height)
	}
	return p, nil
}

// Accumulate plays shard of shards' share of g's chaos game (sub-batches
// in shardBatches) into a histogram and returns it unfinished.
// Shard 0 of 1 is the whole render. CUDA.Accumulate is the GPU's.
func (c CPU) Accumulate(ctx context.Context, g *Genome, o Options, shard, shards int) (*Accum, Stats, error) {
	if shards < 1 || shard < 0 || shard >= shards {
		return nil, Stats{}, fmt.Errorf("flame: shard %d/%d: want 0 <= shard < shards", shard, shards)
	}
	p, err := newPlan(g, o)
	if err != nil {
		return nil, Stats{}, err
	}
	phase.Enter(ctx, "flame.iterate")
	cg := p.chaosGame(o.Seed)
	h, st, err := p.iterateShard(ctx, c.Workers, cg, int64(shard), int64(shards), o.Progress)
	if err != nil {
		return nil, st, err
	}
	a, err := newAccum(g, p, h, o, shard, shards, st, "")
	return a, st, err
}

// newAccum wraps a part's histogram with its header; backend is "" for the
// CPU and "cuda" for the GPU, whose chains are other random streams than the
// CPU's sub-batches, so parts of the two never merge. The header keeps the
// genome as rendered (o's size and quality applied), which the merged image
// carries as one render's image does.
func newAccum(g *Genome, p *plan, h *histogram, o Options, shard, shards int, st Stats, backend string) (*Accum, error) {
	xml, err := GenomeXML(g, Options{Width: o.Width, Height: o.Height, Quality: o.Quality, Supersample: o.Supersample})
	if err != nil {
		return nil, err
	}
	a := &Accum{h: h, info: AccumInfo{
		Name: g.Name, GenomeXML: string(xml), Seed: o.Seed, Shard: shard, Shards: shards,
		Samples: st.Samples, TotalSamples: p.samples, BadValues: st.BadValues,
		BucketsW: p.bw, BucketsH: p.bh, AlphaHits: h.hits == nil, Finish: p.finishSpec(), Backend: backend,
	}}
	a.have = make([]bool, shards)
	a.have[shard] = true
	return a, nil
}

// shardBatches is shard's range [lo, hi) of a render's sub-batches.
func shardBatches(total, shard, shards int64) (lo, hi int64) {
	batches := (total + subBatch - 1) / subBatch
	return batches * shard / shards, batches * (shard + 1) / shards
}

// shardSamples is the number of samples of shard's sub-batches.
func shardSamples(total, shard, shards int64) int64 {
	lo, hi := shardBatches(total, shard, shards)
	return min(hi*subBatch, total) - min(lo*subBatch, total)
}

// iterateShard is iterateCPU over the sub-batches of one shard.
func (p *plan) iterateShard(ctx context.Context, workers int, cg *chaosGame, shard, shards int64,
	progress func(done, total int64)) (*histogram, Stats, error) {
	lo, hi := shardBatches(p.samples, shard, shards)
	return accumulateCPU(ctx, workers, p.bw, p.bh, cg.alphaHits(), hi-lo, shardSamples(p.samples, shard, shards), progress,
		func(j int64, h *histogram) (int64, int64) {
			k := lo + j
			n := min(subBatch, p.samples-k*subBatch)
			return n, cg.runBatch(k, int(n), h)
		})
}

// Finish finishes a complete accumulation into the image: density
// estimation, spatial filter and tone map, as a one-shot render does.
func (a *Accum) Finish(ctx context.Context) (*Frame, error) {
	if err := a.Complete(); err != nil {
		return nil, err
	}
	p, err := a.info.Finish.finishPlan(a.info.BucketsW, a.info.BucketsH)
	if err != nil {
		return nil, err
	}
	return p.finish(ctx, a.h)
}

// Complete says whether a holds every shard of its render.
func (a *Accum) Complete() error {
	var missing []string
	for i, ok := range a.have {
		if !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("flame: accumulation of %q lacks shard %s of %d: merge every part", a.info.Name,
			strings.Join(missing, ", "), a.info.Shards)
	}
	if a.info.Samples != a.info.TotalSamples {
		return fmt.Errorf("flame: accumulation of %q holds %d of %d samples", a.info.Name, a.info.Samples, a.info.TotalSamples)
	}
	return nil
}
