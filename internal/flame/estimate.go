package flame

import "runtime"

// MaxSamples bounds one render's chaos game: 2^50 samples are about two
// weeks on an H100 and past anything flam3 users ask for; beyond it sample
// counts stop being exact in float64 and, further on, overflow int64.
const MaxSamples = 1 << 50

// Footprint is what a render will need, computed from the genome and the
// options before anything is allocated, so the command can refuse (or the
// user can shrink) a render that cannot fit.
type Footprint struct {
	Width, Height, Supersample int
	Buckets                    int64 // histogram buckets, gutters included
	Samples                    int64
	// CPUBytes is the host memory of a render on the CPU backend;
	// GPUHostBytes the host memory and DeviceBytes the device memory of
	// a render on the CUDA backend.
	CPUBytes, GPUHostBytes, DeviceBytes float64
	// KernelBytes is the part of CPUBytes the genome's filter,
	// estimator and xaos attributes size (the spatial filter, the
	// density-estimation kernels, the xform choice tables), not the flags.
	KernelBytes float64
}

// Per-bucket and per-pixel memory, from the buffers the backends allocate:
// the CPU histogram (4 uint64 sums and a uint32 count) and its float64
// density-estimation accumulator; the GPU's float32 histogram, count and
// accumulator; per output pixel the float32 frame and the 8- or 16-bit
// image the encoder reads, plus the encoder's own copy.
const (
	cpuBucketBytes    = 36 + 32
	cpuPrivateBytes   = 36
	gpuBucketBytes    = 16 + 4 + 16
	pixelBytes        = 16 + 8 + 8
	fixedOverheadByte = 64 << 20
)

// Estimate returns the footprint of rendering g with o, or the error Render
// would return for sizes it refuses (wrapping ErrTooLarge).
func Estimate(g *Genome, o Options) (Footprint, error) {
	p, err := planSizes(g, o)
	if err != nil {
		return Footprint{}, err
	}
	nb := int64(p.bw) * int64(p.bh)
	px := float64(p.width) * float64(p.height)
	f := Footprint{Width: p.width, Height: p.height, Supersample: p.ss, Buckets: nb, Samples: p.samples}
	f.CPUBytes = float64(nb)*cpuBucketBytes + px*pixelBytes + fixedOverheadByte
	if workers := int64(runtime.GOMAXPROCS(0)); nb*cpuPrivateBytes*workers <= privateHistogramBudget {
		f.CPUBytes += float64(nb * cpuPrivateBytes * (workers - 1))
	}
	// The kernels are float64 on the host, and float32 copies on a GPU.
	f.KernelBytes = 8*float64(p.filterWidth)*float64(p.filterWidth) + p.deSize.bytes() + xaosTableBytes(g)
	f.CPUBytes += f.KernelBytes
	f.GPUHostBytes = px*pixelBytes + fixedOverheadByte + 1.5*f.KernelBytes
	f.DeviceBytes = float64(nb)*gpuBucketBytes + px*16 + f.KernelBytes/2
	return f, nil
}

// xaosTableBytes is newXformTable's choice table: one row of chooseGrain
// uint16 per xform (and one more) with xaos, else one row.
func xaosTableBytes(g *Genome) float64 {
	rows := 1
	for i := range g.Xforms {
		if g.Xforms[i].Chaos != nil {
			rows = len(g.Xforms) + 1
			break
		}
	}
	return 2 * chooseGrain * float64(rows)
}
