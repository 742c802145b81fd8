//go:build cuda

package flame

import (
	"github.com/procgen-dev/procgen/internal/gpu"
)

// Launch shapes and limits; they match cuda/flame_accum.cu.
const (
	tileBits    = 12
	partThreads = 256
	partChunk   = partThreads * 16
	accChunk    = 1 << 17
	// maxLogEntries bounds one round of the log (4 bytes an entry, and as
	// much again for the partitioned copy): 2^30 entries keep a full wave
	// of chains busy on an H100 and cost 8 GiB.
	maxLogEntries = 1 << 30
	// logBucketLimit: a log entry holds the bucket in 24 bits, and the
	// all-ones entry means "nothing landed".
	logBucketLimit = 1<<24 - 1
)

// Accumulation picks how samples reach the histogram on the GPU.
type Accumulation int

const (
	// AccumAuto uses global atomics: measured on the H100 (see
	// BenchmarkCUDAStages), deferred writeback's partition pass costs as
	// much as the atomics it saves.
	AccumAuto Accumulation = iota
	// AccumAtomic adds every sample to the histogram with global atomics.
	AccumAtomic
	// AccumDeferred logs samples and accumulates them per tile in shared
	// memory (the paper's deferred writeback). It needs every xform fully
	// visible, a stepped palette of opaque colours and under 2^24 buckets.
	AccumDeferred
)

// deferredOK says whether a genome's samples can go through the log.
func deferredOK(gg *gpuGenome, buckets int) bool {
	return gg.AlphaHits != 0 && gg.Linear == 0 && buckets < logBucketLimit
}

// sampleLog is the device state of deferred writeback.
type sampleLog struct {
	log, sorted         *gpu.Buffer[uint32]
	counts, starts, cur *gpu.Buffer[uint32]
	ntiles              int
	count               gpu.Func[logCountArgs]
	scatter             gpu.Func[logScatterArgs]
	accum               gpu.Func[logAccumulateArgs]
	coarse              gpu.Func[coarseCursorsArgs]
}

// coarseShift groups 2^coarseShift tiles into a coarse bin for the first of
// two partition passes: with ~2000 tiles, one pass writes each block's
// chunk to ~2000 places a few bytes each; two passes write to ~60 and ~32.
const coarseShift = 5

func (r *cudaRun) newSampleLog(entries int64, buckets int) (*sampleLog, error) {
	d := r.dev
	l := &sampleLog{ntiles: (buckets + 1<<tileBits - 1) >> tileBits}
	var err error
	if l.log, err = alloc[uint32](r, int(entries)); err != nil {
		return nil, err
	}
	if l.sorted, err = alloc[uint32](r, int(entries)); err != nil {
		return nil, err
	}
	for _, b := range []**gpu.Buffer[uint32]{&l.counts, &l.starts, &l.cur} {
		if *b, err = alloc[uint32](r, l.ntiles); err != nil {
			return nil, err
		}
	}
	if l.count, err = logCount.Load(d); err != nil {
		return nil, err
	}
	if l.scatter, err = logScatter.Load(d); err != nil {
		return nil, err
	}
	if l.accum, err = logAccumulate.Load(d); err != nil {
		return nil, err
	}
	if l.coarse, err = coarseCursors.Load(d); err != nil {
		return nil, err
	}
	if err := l.accum.SetMaxDynamicShared(4 << tileBits * 4); err != nil {
		return nil, err
	}
	return l, nil
}

// flush accumulates the first n log entries into hist.
func (l *sampleLog) flush(r *cudaRun, n int64, genome *gpu.Buffer[uint32], hist *gpu.Buffer[float32], buckets int) error {
	d := r.dev
	sms := d.Info().SMs
	nt := uint32(l.ntiles)
	err := r.stage("log-count", func() error {
		if err := l.counts.Zero(); err != nil {
			return err
		}
		return l.count.Launch(gpu.Dim(sms*8), gpu.Dim(partThreads), 4*l.ntiles,
			logCountArgs{l.log.Ptr(), uint64(n), l.counts.Ptr(), nt})
	})
	if err != nil {
		return err
	}
	var total uint32
	err = r.stage("log-scan", func() error {
		var err error
		total, err = d.ExclusiveScan(l.counts, l.starts)
		return err
	})
	if err != nil {
		return err
	}
	scatter := func(in *gpu.Buffer[uint32], n int64, nbins int, shift uint32, out *gpu.Buffer[uint32]) error {
		blocks := min(int((n+partChunk-1)/partChunk), sms*8)
		return r.stage("log-scatter", func() error {
			return l.scatter.Launch(gpu.Dim(max(blocks, 1)), gpu.Dim(partThreads), 8*nbins,
				logScatterArgs{in.Ptr(), uint64(n), l.cur.Ptr(), uint32(nbins), shift, out.Ptr()})
		})
	}
	final := l.sorted
	if l.ntiles <= 2<<coarseShift {
		if err := l.cur.CopyFrom(l.starts); err != nil {
			return err
		}
		if err := scatter(l.log, n, l.ntiles, 0, l.sorted); err != nil {
			return err
		}
	} else {
		// Pass A by coarse bin into sorted, pass B by tile back into log
		// (free once pass A has read it).
		ncoarse := (l.ntiles + 1<<coarseShift - 1) >> coarseShift
		if err := l.coarse.Launch(gpu.Dim((ncoarse+255)/256), gpu.Dim(256), 0,
			coarseCursorsArgs{l.starts.Ptr(), l.cur.Ptr(), uint32(ncoarse), coarseShift}); err != nil {
			return err
		}
		if err := scatter(l.log, n, ncoarse, coarseShift, l.sorted); err != nil {
			return err
		}
		if err := l.cur.CopyFrom(l.starts); err != nil {
			return err
		}
		if err := scatter(l.sorted, int64(total), l.ntiles, 0, l.log); err != nil {
			return err
		}
		final = l.log
	}
	accBlocks := min(int((int64(total)+accChunk-1)/accChunk), sms*8)
	return r.stage("log-accumulate", func() error {
		return l.accum.Launch(gpu.Dim(max(accBlocks, 1)), gpu.Dim(256), 4<<tileBits*4,
			logAccumulateArgs{final.Ptr(), uint64(total), genome.Ptr(), hist.Ptr(), uint64(buckets)})
	})
}
