package pga

import (
	"context"
	"math"
	"runtime"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// MemoryOutputs says what a run keeps and writes, as far as memory goes.
type MemoryOutputs struct {
	OBJ, GLB bool // the encodings written (each on its own, one after another)
}

// Footprint is a city's evaluation measured on a sample of its lots and
// scaled to all of them.
type Footprint struct {
	Lots      int
	Shapes    float64 // shapes made, as Options.MaxShapes counts them
	Terminals float64
	Bytes     float64 // the run's peak memory
	// Sampled says Shapes and Terminals were measured. They are not (0)
	// for statistics only on a city no larger than the sample: nothing is
	// kept per shape, so the bytes are the lots' alone, and evaluating
	// every lot twice would only find what the run's own evaluation under
	// MaxShapes finds, with the same error.
	Sampled bool
}

// memorySample is how many lots EstimateMemory evaluates: enough that a
// grammar's random styles average out, few enough to cost little.
const memorySample = 64

// Bytes a run allocates, measured (go1.26, linux/amd64) and rounded up:
//   - memoryLotBytes per lot: the Lot and its polygon, the axiom, its
//     LotAttr map and the lot's evaluator with its pending map;
//   - memoryBaseBytes: the runtime, the grammar and the buffered writers.
//
// Terminals, GLB meshes and OBJ text are counted from the sample itself.
const (
	memoryLotBytes  = 2048
	memoryBaseBytes = 24 << 20
)

// gcHeadroom is how far the Go heap runs past what is live before a
// collection (GOGC=100 lets it double; measured peaks sit at 1.2x to 1.5x
// of the lots, terminals and meshes counted here).
const gcHeadroom = 1.5

// LotsMemory is the bytes n lots cost before any is expanded, for a check
// before they are made.
func LotsMemory(n int) float64 { return memoryBaseBytes + gcHeadroom*float64(n)*memoryLotBytes }

// EstimateMemory evaluates up to memorySample of the axioms (evenly spread)
// and scales what they made to all of them: the shapes and terminals, and
// the bytes at the run's peak: the lots, the terminals kept (when an output
// writes geometry) in their evaluation chunks and gathered, and the largest
// encoding: a GLB's meshes (float32 corners and normals, uint32 indices,
// all kept until the file is written) or an OBJ group's text. An error is
// the sample's own (a limit it ran into).
func (g *Grammar) EstimateMemory(axioms []Shape, opt Options, out MemoryOutputs) (Footprint, error) {
	n := len(axioms)
	fp := Footprint{Lots: n, Bytes: LotsMemory(n)}
	if n == 0 {
		return fp, nil
	}
	if !out.OBJ && !out.GLB && n <= memorySample {
		return fp, nil
	}
	fp.Sampled = true
	k := min(n, memorySample)
	sample := make([]Shape, k)
	for i := range sample {
		sample[i] = axioms[i*n/k]
	}
	if opt.LotAttrs != nil {
		attrs := make([]map[string]float64, k)
		for i := range attrs {
			if j := i * n / k; j < len(opt.LotAttrs) {
				attrs[i] = opt.LotAttrs[j]
			}
		}
		opt.LotAttrs = attrs
	}
	opt.Progress = nil
	// Whole lots a worker: split lots count their shapes in sub-evaluators
	// (cpu.go's evaluate splits when lots are fewer than twice the workers).
	opt.Workers = max(1, min(runtime.GOMAXPROCS(0), k/2))
	evs, err := g.evaluate(sample, &opt, nil)
	if err != nil {
		return fp, err
	}
	var shapes int64
	chunks := 0.0 // terminals the evaluators' chunks hold room for
	for _, ev := range evs {
		shapes += ev.flushed + ev.local
		for _, c := range ev.out {
			chunks += float64(cap(c))
		}
	}
	ts, projs := gather(evs, opt.Workers)
	scale := float64(n) / float64(k)
	fp.Shapes = float64(shapes) * scale
	fp.Terminals = float64(len(ts)) * scale
	if !out.OBJ && !out.GLB {
		return fp, nil // statistics only: terminals are counted, not kept
	}
	// Kept: in the evaluators' chunks (from 16 a lot, doubling to
	// outChunk) and then gathered into one slice, with the encoders' index
	// of them by name.
	term := float64(unsafe.Sizeof(TerminalShape{}))
	kept := chunks*term + float64(len(ts))*(term+16)
	// The encoders' buffers, measured on the sample by encoding it: a
	// format's bytes, twice (chunks being built beside those being written).
	enc := 0.0
	m := g.Mesh(ts, projs)
	if out.GLB {
		var c countingWriter
		_ = mesh.EncodeGLB(context.Background(), &c, m, mesh.Options{})
		enc = max(enc, 2*float64(c))
	}
	if out.OBJ {
		var c countingWriter
		_ = mesh.EncodeOBJ(context.Background(), &c, m, mesh.OBJOptions{})
		enc = max(enc, 2*float64(c))
	}
	fp.Bytes += gcHeadroom * (kept + enc) * scale
	if math.IsNaN(fp.Bytes) {
		fp.Bytes = math.Inf(1)
	}
	return fp, nil
}

// countingWriter counts what is written to it and keeps nothing.
type countingWriter int64

func (c *countingWriter) Write(b []byte) (int, error) {
	*c += countingWriter(len(b))
	return len(b), nil
}
