//go:build cuda

package fit

import (
	"context"
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/gpu"
)

// The kernels of cuda/forest_fit.cu.
type fitSumsArgs struct {
	cand     gpu.Ptr
	ncand    int32
	traps    gpu.Ptr
	ntraps   int32
	parents  gpu.Ptr
	nparents int32
	s        gpu.Ptr
}

type fitLoglikArgs struct {
	cand   gpu.Ptr
	ncand  int32
	s      gpu.Ptr
	counts gpu.Ptr
	ntraps int32
	total  float64
	out    gpu.Ptr
}

var (
	fitSums   = gpu.Kernel[fitSumsArgs]{Family: "forest_fit", Name: "pg_forest_fit_sums"}
	fitLoglik = gpu.Kernel[fitLoglikArgs]{Family: "forest_fit", Name: "pg_forest_fit_loglik"}
)

// The candidate layout of cuda/forest_fit.cu: fitStride doubles each.
const (
	fitStride  = 8
	fitThreads = 128
	// fitBatch bounds the candidates of one launch, so that the sums
	// buffer stays small (fitBatch x traps doubles).
	fitBatch = 1 << 14
)

// CUDA evaluates on a GPU: the traps and parents stay on the device, each
// batch of candidates goes up as 8 doubles each and comes back as a
// log-likelihood and an STR.
type CUDA struct {
	dev            *gpu.Device
	p              *Problem
	traps, parents *gpu.Buffer[float64]
	counts         *gpu.Buffer[float64]
	sums           gpu.Func[fitSumsArgs]
	loglik         gpu.Func[fitLoglikArgs]
	candBuf, sBuf  *gpu.Buffer[float64]
	outBuf         *gpu.Buffer[float64]
}

// NewCUDA uploads p to dev.
func NewCUDA(dev *gpu.Device, p *Problem) (*CUDA, error) {
	c := &CUDA{dev: dev, p: p}
	var err error
	if c.sums, err = fitSums.Load(dev); err != nil {
		return nil, err
	}
	if c.loglik, err = fitLoglik.Load(dev); err != nil {
		return nil, err
	}
	tr := make([]float64, 0, 3*p.Traps())
	for j := range p.TX {
		tr = append(tr, p.TX[j], p.TY[j], p.Area[j])
	}
	pa := make([]float64, 0, 3*p.Parents())
	for i := range p.PX {
		pa = append(pa, p.PX[i], p.PY[i], p.LogQ[i])
	}
	if c.traps, err = gpu.Upload(dev, tr); err != nil {
		return nil, err
	}
	if c.parents, err = gpu.Upload(dev, pa); err != nil {
		c.Close()
		return nil, err
	}
	if c.counts, err = gpu.Upload(dev, append(append([]float64(nil), p.Count...), p.lgy1...)); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *CUDA) Name() string { return "cuda" }

// Traps is the problem's trap count.
func (c *CUDA) Traps() int { return c.p.Traps() }

// Close frees the device buffers.
func (c *CUDA) Close() {
	for _, b := range []*gpu.Buffer[float64]{c.traps, c.parents, c.counts, c.candBuf, c.sBuf, c.outBuf} {
		if b != nil {
			_ = b.Free()
		}
	}
}

// encode packs a candidate as cuda/forest_fit.cu reads it.
func encode(cd Cand, dst []float64) error {
	k, err := forest.NewKernel(cd.Species)
	ok := err == nil && cd.K >= 0 && cd.STR >= 0
	clear(dst)
	if !ok {
		return nil
	}
	s := cd.Species
	switch s.Kernel {
	case forest.Weibull, "":
		dst[0], dst[1], dst[2] = 0, math.Log(s.D), s.Theta/2
	case forest.ExpPower, forest.Exponential, forest.Gaussian:
		// exp(-(r/a)^b) is the Weibull with D = a^-b, theta = b.
		b := s.B
		if s.Kernel != forest.ExpPower {
			b = map[forest.KernelKind]float64{forest.Exponential: 1, forest.Gaussian: 2}[s.Kernel]
		}
		dst[0], dst[1], dst[2] = 0, -b*math.Log(s.A), b/2
	case forest.Lognormal:
		dst[0], dst[1], dst[2] = 1, math.Log(s.X0), 1/(2*s.Xb*s.Xb)
	case forest.TwoDt:
		dst[0], dst[1], dst[2] = 2, s.P+1, 1/s.U
	default:
		return fmt.Errorf("forest fit: the CUDA likelihood has no %s kernel", s.Kernel)
	}
	dst[3], dst[4], dst[5], dst[6], dst[7] = s.Beta, 1/k.Eta(), cd.STR, cd.K, 1
	return nil
}

// grow returns buf with room for n, reallocated when smaller.
func grow(dev *gpu.Device, buf *gpu.Buffer[float64], n int) (*gpu.Buffer[float64], error) {
	if buf != nil && buf.Len() >= n {
		return buf, nil
	}
	if buf != nil {
		_ = buf.Free()
	}
	return gpu.Alloc[float64](dev, n)
}

// sumsBatch uploads batch (at most fitBatch) and launches the sums
// kernel: the expected counts per unit STR are then in c.sBuf. It returns
// the encoded candidates (slot 7 is 0 for an invalid one).
func (c *CUDA) sumsBatch(batch []Cand) ([]float64, error) {
	nt, np := int32(c.p.Traps()), int32(c.p.Parents())
	n := len(batch)
	host := make([]float64, n*fitStride)
	for i, cd := range batch {
		if err := encode(cd, host[i*fitStride:(i+1)*fitStride]); err != nil {
			return nil, err
		}
	}
	var err error
	if c.candBuf, err = grow(c.dev, c.candBuf, len(host)); err != nil {
		return nil, err
	}
	if c.sBuf, err = grow(c.dev, c.sBuf, n*int(nt)); err != nil {
		return nil, err
	}
	if err := c.candBuf.Write(host); err != nil {
		return nil, err
	}
	pairs := int64(n) * int64(nt)
	if err := c.sums.Launch(gpu.Dim(int((pairs+fitThreads-1)/fitThreads)), gpu.Dim(fitThreads), 0, fitSumsArgs{
		c.candBuf.Ptr(), int32(n), c.traps.Ptr(), nt, c.parents.Ptr(), np, c.sBuf.Ptr()}); err != nil {
		return nil, fmt.Errorf("forest fit: sums: %w", err)
	}
	return host, nil
}

// Sums is CPU.Sums on the device: the bootstrap scores its simulated
// counts on the host with logLik, the twin of pg_forest_fit_loglik, from
// the same sums the device's likelihood uses.
func (c *CUDA) Sums(ctx context.Context, cands []Cand, s []float64) error {
	nt := c.p.Traps()
	for b0 := 0; b0 < len(cands); b0 += fitBatch {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := cands[b0:min(b0+fitBatch, len(cands))]
		host, err := c.sumsBatch(batch)
		if err != nil {
			return err
		}
		dst := s[b0*nt : (b0+len(batch))*nt]
		if err := c.sBuf.ReadAt(dst, 0); err != nil {
			return err
		}
		for i := range batch {
			if host[i*fitStride+7] == 0 {
				for j := range nt {
					dst[i*nt+j] = math.NaN()
				}
			}
		}
	}
	return nil
}

// Eval evaluates cands in batches of at most fitBatch.
func (c *CUDA) Eval(ctx context.Context, cands []Cand, out []Point) error {
	nt := int32(c.p.Traps())
	for b0 := 0; b0 < len(cands); b0 += fitBatch {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := cands[b0:min(b0+fitBatch, len(cands))]
		n := len(batch)
		if _, err := c.sumsBatch(batch); err != nil {
			return err
		}
		var err error
		if c.outBuf, err = grow(c.dev, c.outBuf, 2*n); err != nil {
			return err
		}
		if err := c.loglik.Launch(gpu.Dim((n+fitThreads-1)/fitThreads), gpu.Dim(fitThreads), 0, fitLoglikArgs{
			c.candBuf.Ptr(), int32(n), c.sBuf.Ptr(), c.counts.Ptr(), nt, c.p.total, c.outBuf.Ptr()}); err != nil {
			return fmt.Errorf("forest fit: log-likelihood: %w", err)
		}
		res := make([]float64, 2*n)
		if err := c.outBuf.ReadAt(res, 0); err != nil {
			return err
		}
		for i := range batch {
			out[b0+i] = Point{LL: res[2*i], STR: res[2*i+1]}
		}
	}
	return nil
}
