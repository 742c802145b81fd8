//go:build cuda

package pga

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// glb builds the GLB of the nterm terminals on the device (CUDATuning.GLB):
// their keys come back for the host's order (planGLB), the order goes up,
// each terminal's vertices and indices are counted in it and scanned, and
// pga_glb_write writes the binary chunk's vertex data, part by part, which
// stays on the device until the file is written (the parts' bounds come
// back). An asset's parts are made on the host and put in their place
// (glbAssets); res.Stats is mended for them (bounds: the phases' ranges).
func (c *CUDA) glb(ctx context.Context, nterm int, res *Result, bounds []phaseRange, lap func(string)) (*GLB, error) {
	var keys []gpuGlbKey
	if nterm > 0 {
		kb, err := gpu.Alloc[uint32](c.dev, nterm*int(unsafe.Sizeof(gpuGlbKey{}))/4)
		if err != nil {
			return nil, err
		}
		defer kb.Free()
		if err := launch(c, glbKeys, nterm, glbKeysArgs{c.terms.Ptr(), uint32(nterm), kb.Ptr()}); err != nil {
			return nil, err
		}
		keys = make([]gpuGlbKey, nterm)
		if err := gpu.ReadStructsLarge(kb, keys); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lap("glb: keys read back")
	plan := c.g.planGLB(keys)
	lap("glb: order and parts")
	out := &GLB{Mesh: c.g.glbMesh(plan), Parts: make([]mesh.BinPart, len(plan.keys))}
	if nterm == 0 {
		return out, nil
	}
	host, err := c.glbAssets(ctx, plan, out, res, bounds)
	if err != nil {
		return nil, err
	}
	if host != nil {
		lap("glb: assets placed on the host")
	}
	perm, start := plan.drawn(host)
	var total uint64
	var dperm *gpu.Buffer[uint32]
	if len(perm) > 0 {
		if dperm, err = gpu.Upload(c.dev, perm); err != nil {
			return nil, err
		}
		defer dperm.Free()
		if err := grow(c.dev, &c.counts, len(perm), 0); err != nil {
			return nil, err
		}
		if err := launch(c, glbCount, len(perm), glbCountArgs{c.words.Ptr(), c.terms.Ptr(), dperm.Ptr(), uint32(len(perm)), c.counts.Ptr()}); err != nil {
			return nil, err
		}
		if err := c.scan(len(perm)); err != nil {
			return nil, err
		}
		st, err := c.status()
		if err != nil {
			return nil, err
		}
		total = st.ScanTotal
	}
	parts, size, err := c.glbLayout(plan, start, host, total, out)
	if err != nil {
		return nil, err
	}
	lap("glb: counts and layout")
	if err := c.glbWrite(dperm, start, parts, host, size, out, lap); err != nil {
		return nil, err
	}
	return out, nil
}

// glbLayout sizes every part the device draws from the scanned counts at
// its first terminal in the drawn order (start[k]: part k's; total: the
// scan's total) and lays all parts out in the binary chunk: positions,
// normals, texture coordinates, indices, part by part, a part made on the
// host (host[k] not nil, sized in out) as its bytes. parts[k] is part k's
// place; the device writes those whose Q0 is not noPart.
func (c *CUDA) glbLayout(plan *glbPlan, start []int, host [][]byte, total uint64, out *GLB) ([]gpuGlbPart, int64, error) {
	np := len(plan.keys)
	n := start[np]
	at := make([]uint64, np+1)
	for k := range np {
		if start[k] >= n {
			at[k] = total
			continue
		}
		var o [1]uint64
		if err := c.counts.ReadAt(o[:], start[k]); err != nil {
			return nil, 0, err
		}
		at[k] = o[0]
	}
	at[np] = total
	parts := make([]gpuGlbPart, np)
	var size int64
	for k := range np {
		if host != nil && host[k] != nil {
			parts[k] = gpuGlbPart{Q0: noPart, Pos: uint64(size)}
			size += int64(len(host[k]))
			continue
		}
		nv, ni := int64(uint32(at[k+1]))-int64(uint32(at[k])), int64(at[k+1]>>32)-int64(at[k]>>32)
		out.Parts[k] = mesh.BinPart{Vertices: int(nv), Indices: int(ni), UV: plan.uv[k]}
		p := gpuGlbPart{Q0: uint32(start[k]), V0: uint32(at[k]), I0: uint32(at[k] >> 32), Pos: uint64(size)}
		p.Nrm = p.Pos + uint64(12*nv)
		p.Tex = p.Nrm + uint64(12*nv)
		p.Idx = p.Tex
		if plan.uv[k] {
			p.UV = 1
			p.Idx += uint64(8 * nv)
		}
		size = int64(p.Idx) + 4*ni
		parts[k] = p
	}
	if total>>32 >= 1<<32-1 || size > math.MaxUint32 {
		return nil, 0, fmt.Errorf("pga: cuda: a GLB of %d vertices and %d indices is over the 4 GiB a GLB file can hold; write OBJ instead",
			uint32(total), total>>32)
	}
	return parts, size, nil
}

// noPart marks a part the device does not draw (glbLayout).
const noPart = math.MaxUint32

// glbWrite runs pga_glb_write on the drawn terminals (perm, nil when
// none; start: the parts' first positions in it) into c.bin (size bytes,
// which stay there for the file: deviceBin), puts the host's parts at
// their places, and reads the drawn parts' bounds back into out.
func (c *CUDA) glbWrite(perm *gpu.Buffer[uint32], start []int, parts []gpuGlbPart, host [][]byte, size int64, out *GLB,
	lap func(string)) error {
	if err := grow(c.dev, &c.bin, int(size), 0); err != nil {
		return err
	}
	var drawn []gpuGlbPart
	var of []int // drawn[j] is part of[j]
	for k, p := range parts {
		if p.Q0 != noPart {
			drawn, of = append(drawn, p), append(of, k)
		} else if err := c.bin.WriteAt(host[k], int(p.Pos)); err != nil {
			return err
		}
	}
	if len(drawn) == 0 || perm == nil {
		out.Bin = deviceBin{c.bin, int(size)}
		return nil
	}
	pb, err := gpu.Upload(c.dev, structWords(drawn))
	if err != nil {
		return err
	}
	defer pb.Free()
	bounds := make([]int32, 6*len(drawn))
	for k := range drawn {
		for r := range 3 {
			bounds[6*k+r], bounds[6*k+3+r] = math.MaxInt32, math.MinInt32
		}
	}
	bb, err := gpu.Upload(c.dev, append(bounds, 0)) // and the flag of values not finite
	if err != nil {
		return err
	}
	defer bb.Free()
	n := start[len(start)-1]
	if err := launch(c, glbWrite, n, glbWriteArgs{c.words.Ptr(), c.terms.Ptr(), perm.Ptr(), uint32(n), c.counts.Ptr(),
		pb.Ptr(), uint32(len(drawn)), c.bin.Ptr(), bb.Ptr(), bb.PtrAt(len(bounds))}); err != nil {
		return err
	}
	got := make([]int32, len(bounds)+1)
	if err := bb.Read(got); err != nil {
		return err
	}
	lap("glb: vertex data written")
	if got[len(bounds)] != 0 {
		return errors.New("pga: cuda: a terminal's mesh has a coordinate that is not finite")
	}
	for j, k := range of {
		for r := range 3 {
			out.Parts[k].Lo[r], out.Parts[k].Hi[r] = unordered(got[6*j+r]), unordered(got[6*j+3+r])
		}
	}
	out.Bin = deviceBin{c.bin, int(size)}
	return nil
}

// deviceBin is a GLB's vertex data left on the device: its first n bytes
// of buf, streamed to the file when it is written.
type deviceBin struct {
	buf *gpu.Buffer[uint8]
	n   int
}

func (d deviceBin) Len() int64 { return int64(d.n) }

func (d deviceBin) WriteChunk(ctx context.Context, w io.Writer) error {
	return d.buf.WriteTo(ctx, w, 0, d.n)
}

// unordered is pga_ordered's inverse: the float whose bits order as o.
func unordered(o int32) float32 {
	if o < 0 {
		o ^= 0x7fffffff
	}
	return math.Float32frombits(uint32(o))
}
