package flame

import "sync/atomic"

// fixedOne is the fixed-point scale of histogram colour sums. Samples add
// integers, so the sums do not depend on the order in which threads add
// them: a render is the same for any number of threads. 2^20 keeps ~6
// decimal digits of each contribution (at most 255·2^20 < 2^28) and room for
// 2^36 samples in one bucket.
const fixedOne = 1 << 20

// histogram is flam3's bucket array: per bucket the sums of R, G, B, A
// (palette colour × 255 × visibility, fixed point) and the hit count. When
// every xform is fully visible each sample adds exactly 255 to A, so the
// count is A/255 and no separate counter is kept: one cache line per sample
// instead of two, which is most of the cost of a sample.
type histogram struct {
	width, height int
	rgba          []uint64
	hits          []uint32 // nil when counts come from alpha
	shared        bool     // add atomically: several goroutines share it
}

func newHistogram(w, h int, shared, alphaHits bool) *histogram {
	hg := &histogram{width: w, height: h, rgba: make([]uint64, 4*w*h), shared: shared}
	if !alphaHits {
		hg.hits = make([]uint32, w*h)
	}
	return hg
}

// count is the number of samples in bucket b.
func (h *histogram) count(b int) uint32 {
	if h.hits == nil {
		return uint32((h.rgba[4*b+3] + 255*fixedOne/2) / (255 * fixedOne))
	}
	return h.hits[b]
}

// add deposits one sample's fixed-point colour c into bucket b.
func (h *histogram) add(b int, c *[4]uint64) {
	p := h.rgba[4*b : 4*b+4 : 4*b+4]
	if h.shared {
		atomic.AddUint64(&p[0], c[0])
		atomic.AddUint64(&p[1], c[1])
		atomic.AddUint64(&p[2], c[2])
		atomic.AddUint64(&p[3], c[3])
		if h.hits != nil {
			atomic.AddUint32(&h.hits[b], 1)
		}
		return
	}
	p[0] += c[0]
	p[1] += c[1]
	p[2] += c[2]
	p[3] += c[3]
	if h.hits != nil {
		h.hits[b]++
	}
}

// depositBatch is how many samples a chaos game gathers before adding
// them to the histogram: enough independent adds to keep the memory system
// busy, few enough that the buffer stays in the first-level cache.
const depositBatch = 256

// deposit is one sample waiting to be added: bucket b gets colour c.
type deposit struct {
	c [4]uint64
	b uint32
}

type depositBuffer struct {
	d [depositBatch]deposit
	n int
}

// addAll adds every deposit of ds to h. Buckets are below 2^31 (maxBuckets).
func (h *histogram) addAll(ds []deposit) {
	if h.shared {
		for i := range ds {
			h.add(int(ds[i].b), &ds[i].c)
		}
		return
	}
	rgba := h.rgba
	for i := range ds {
		b := int(ds[i].b)
		p := rgba[4*b : 4*b+4 : 4*b+4]
		p[0] += ds[i].c[0]
		p[1] += ds[i].c[1]
		p[2] += ds[i].c[2]
		p[3] += ds[i].c[3]
	}
	if h.hits != nil {
		for i := range ds {
			h.hits[ds[i].b]++
		}
	}
}

// merge adds o into h (both private to the caller).
func (h *histogram) merge(o *histogram) {
	for i, v := range o.rgba {
		h.rgba[i] += v
	}
	for i, v := range o.hits {
		h.hits[i] += v
	}
}

// color returns bucket b's sums on flam3's scale (255 per full sample).
func (h *histogram) color(b int) [4]float64 {
	p := h.rgba[4*b : 4*b+4]
	return [4]float64{
		float64(p[0]) / fixedOne, float64(p[1]) / fixedOne,
		float64(p[2]) / fixedOne, float64(p[3]) / fixedOne,
	}
}
