package flame

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
)

// The accumulation file (.accum), little-endian:
//
//	magic    8 bytes  "PGACCUM\n"
//	version  uint32   accumVersion
//	hlen     uint32   length of the header
//	header   hlen     AccumInfo as JSON
//	hcrc     uint32   CRC-32C of version, hlen and header
//	rgba     4·W·H    uint64 fixed-point sums (R, G, B, A per bucket, row-major)
//	hits     W·H      uint32 counts, only when the header's alpha_hits is false
//	bcrc     uint32   CRC-32C of rgba and hits
//
// The header is checked before the histogram is allocated, so a damaged
// file fails with a message, not an allocation of its claimed size.
const (
	accumMagic   = "PGACCUM\n"
	accumVersion = 1
	maxAccumHdr  = 64 << 20
)

// ErrAccum is wrapped by every error about an accumulation file's format.
var ErrAccum = errors.New("bad accumulation file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Encode writes a in the accumulation file format.
func (a *Accum) Encode(ctx context.Context, w io.Writer) error {
	hdr, err := json.Marshal(a.info)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	pre := make([]byte, 8)
	binary.LittleEndian.PutUint32(pre, accumVersion)
	binary.LittleEndian.PutUint32(pre[4:], uint32(len(hdr)))
	hc := crc32.New(castagnoli)
	hc.Write(pre)
	hc.Write(hdr)
	bw.WriteString(accumMagic)
	bw.Write(pre)
	bw.Write(hdr)
	putU32(bw, hc.Sum32())
	bc := crc32.New(castagnoli)
	buf := make([]byte, 0, 1<<16)
	flush := func() error {
		bc.Write(buf)
		_, err := bw.Write(buf)
		buf = buf[:0]
		if err == nil {
			err = ctx.Err()
		}
		return err
	}
	for _, v := range a.h.rgba {
		buf = binary.LittleEndian.AppendUint64(buf, v)
		if len(buf) == cap(buf) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	for _, v := range a.h.hits {
		buf = binary.LittleEndian.AppendUint32(buf, v)
		if len(buf)+4 > cap(buf) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	putU32(bw, bc.Sum32())
	return bw.Flush()
}

func putU32(w io.Writer, v uint32) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	w.Write(b[:])
}

// AccumReader reads one accumulation file: the header when it is opened,
// the histogram when it is added to a sum.
type AccumReader struct {
	r    *bufio.Reader
	name string
	info AccumInfo
}

func accumErr(name, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", name, ErrAccum, fmt.Sprintf(format, args...))
}

// truncated turns an early end of file into a clear error.
func truncated(name string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return accumErr(name, "truncated (the file ends early: was its render interrupted or its copy cut?)")
	}
	return fmt.Errorf("%s: %w", name, err)
}

// OpenAccum reads and checks the header of the accumulation file r (name
// is for messages).
func OpenAccum(r io.Reader, name string) (*AccumReader, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var pre [16]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil {
		return nil, truncated(name, err)
	}
	if string(pre[:8]) != accumMagic {
		return nil, accumErr(name, "not a procgen accumulation file (write one with flame render --shard I/N -o PART.accum)")
	}
	version := binary.LittleEndian.Uint32(pre[8:])
	if version != accumVersion {
		return nil, accumErr(name, "format version %d; this procgen reads version %d: merge with the procgen that wrote it", version, accumVersion)
	}
	n := binary.LittleEndian.Uint32(pre[12:])
	if n > maxAccumHdr {
		return nil, accumErr(name, "header of %d bytes: damaged", n)
	}
	hdr := make([]byte, n+4)
	if _, err := io.ReadFull(br, hdr); err != nil {
		return nil, truncated(name, err)
	}
	hc := crc32.New(castagnoli)
	hc.Write(pre[8:])
	hc.Write(hdr[:n])
	if hc.Sum32() != binary.LittleEndian.Uint32(hdr[n:]) {
		return nil, accumErr(name, "header checksum mismatch: damaged")
	}
	ar := &AccumReader{r: br, name: name}
	if err := json.Unmarshal(hdr[:n], &ar.info); err != nil {
		return nil, accumErr(name, "header: %v", err)
	}
	if err := ar.info.check(); err != nil {
		return nil, accumErr(name, "%v", err)
	}
	return ar, nil
}

// Info is the header of the file.
func (ar *AccumReader) Info() AccumInfo { return ar.info }

func (in AccumInfo) check() error {
	switch {
	case in.Shards < 1 || in.Shards > 1<<20 || in.Shard < 0 || in.Shard >= in.Shards:
		return fmt.Errorf("shard %d of %d", in.Shard, in.Shards)
	case in.BucketsW < 1 || in.BucketsH < 1 || int64(in.BucketsW)*int64(in.BucketsH) > maxBuckets:
		return fmt.Errorf("%dx%d buckets", in.BucketsW, in.BucketsH)
	case in.TotalSamples < 1 || in.TotalSamples > MaxSamples || in.Samples < 0 || in.Samples > in.TotalSamples:
		return fmt.Errorf("%d of %d samples", in.Samples, in.TotalSamples)
	}
	_, err := in.Finish.finishPlan(in.BucketsW, in.BucketsH)
	return err
}

// sameRender says whether two headers are parts of one render.
func sameRender(a, b AccumInfo) bool {
	a.Shard, a.Samples, a.BadValues = 0, 0, 0
	b.Shard, b.Samples, b.BadValues = 0, 0, 0
	return a == b
}

// Buckets is the histogram's bucket count, for memory checks before NewAccumSum.
func (in AccumInfo) Buckets() int64 { return int64(in.BucketsW) * int64(in.BucketsH) }

// NewAccumSum returns an empty sum for the parts of the render that info
// (any part's header) belongs to.
func NewAccumSum(info AccumInfo) (*Accum, error) {
	if err := info.check(); err != nil {
		return nil, err
	}
	info.Shard, info.Samples, info.BadValues = -1, 0, 0
	return &Accum{
		info: info,
		h:    newHistogram(info.BucketsW, info.BucketsH, false, info.AlphaHits),
		have: make([]bool, info.Shards),
	}, nil
}

// Add reads ar's histogram into a. A part of another render, or a shard
// already added, is refused before anything is read; after an error while
// reading, a holds a partial sum and must be dropped.
func (a *Accum) Add(ctx context.Context, ar *AccumReader) error {
	in := ar.info
	ref := a.info
	ref.Shard = in.Shard
	if !sameRender(ref, in) {
		return fmt.Errorf("%s: %w: %s", ar.name, ErrAccum, describeMismatch(a.info, in))
	}
	if a.have[in.Shard] {
		return fmt.Errorf("%s: %w: shard %d/%d given twice", ar.name, ErrAccum, in.Shard, in.Shards)
	}
	bc := crc32.New(castagnoli)
	if err := addU64(ctx, ar, bc, a.h.rgba); err != nil {
		return err
	}
	if err := addU32(ctx, ar, bc, a.h.hits); err != nil {
		return err
	}
	var sum [4]byte
	if _, err := io.ReadFull(ar.r, sum[:]); err != nil {
		return truncated(ar.name, err)
	}
	if bc.Sum32() != binary.LittleEndian.Uint32(sum[:]) {
		return accumErr(ar.name, "histogram checksum mismatch: damaged")
	}
	if _, err := ar.r.ReadByte(); err != io.EOF {
		return accumErr(ar.name, "data after the end: damaged or not one file")
	}
	a.have[in.Shard] = true
	a.info.Samples += in.Samples
	a.info.BadValues += in.BadValues
	return nil
}

func addU64(ctx context.Context, ar *AccumReader, bc hash.Hash32, dst []uint64) error {
	buf := make([]byte, 1<<16)
	for len(dst) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(dst), len(buf)/8)
		b := buf[:8*n]
		if _, err := io.ReadFull(ar.r, b); err != nil {
			return truncated(ar.name, err)
		}
		bc.Write(b)
		for i := range n {
			dst[i] += binary.LittleEndian.Uint64(b[8*i:])
		}
		dst = dst[n:]
	}
	return nil
}

func addU32(ctx context.Context, ar *AccumReader, bc hash.Hash32, dst []uint32) error {
	buf := make([]byte, 1<<16)
	for len(dst) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(dst), len(buf)/4)
		b := buf[:4*n]
		if _, err := io.ReadFull(ar.r, b); err != nil {
			return truncated(ar.name, err)
		}
		bc.Write(b)
		for i := range n {
			dst[i] += binary.LittleEndian.Uint32(b[4*i:])
		}
		dst = dst[n:]
	}
	return nil
}

// describeMismatch names the first difference between two renders' headers.
func describeMismatch(want, got AccumInfo) string {
	switch {
	case want.Backend != got.Backend:
		return fmt.Sprintf("rendered on %s, the first part on %s: parts of one render come from one backend (their random streams differ)",
			backendName(got.Backend), backendName(want.Backend))
	case want.Shards != got.Shards:
		return fmt.Sprintf("one of %d shards, the first part one of %d", got.Shards, want.Shards)
	case want.Seed != got.Seed:
		return fmt.Sprintf("seed %d, the first part %d", got.Seed, want.Seed)
	case want.TotalSamples != got.TotalSamples:
		return fmt.Sprintf("a render of %d samples, the first part %d (another --quality or size?)", got.TotalSamples, want.TotalSamples)
	case want.BucketsW != got.BucketsW || want.BucketsH != got.BucketsH || want.Finish != got.Finish:
		return "other sizes or finishing options than the first part"
	case want.GenomeXML != got.GenomeXML: // after the size and quality, which the genome's XML holds too
		return fmt.Sprintf("genome %q, not the %q of the first part", got.Name, want.Name)
	}
	return "another render than the first part"
}

func backendName(b string) string {
	if b == "" {
		return "the CPU"
	}
	return b
}
