package output

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// The parallel encoder follows pigz: the filtered scanlines are cut into
// strips that are filtered and deflated independently, each ending in a sync
// flush (byte aligned, not final) except the last, which closes the stream.
// Concatenated, the strips are one deflate stream; their Adler-32s combine
// into the zlib trailer. Strips start with an empty window, which costs a
// little size for time that scales with the cores.
//
// Strip boundaries depend only on the image's size, never on GOMAXPROCS, so
// one input gives the same bytes on every machine.
const (
	// Images with less raw data than this are one strip, encoded on the
	// calling goroutine: goroutines would cost more than they save.
	pngOneStripBytes = 128 << 10
	// Strips aim for a 64th of the image, within these bounds: enough
	// strips for many cores, few enough that the restarts cost little.
	pngStripMinBytes = 32 << 10
	pngStripMaxBytes = 128 << 10
	pngStripsWanted  = 64
	// Largest IDAT chunk written.
	pngMaxIDAT = 1 << 20
)

// PNG filter types (PNG specification, section 9.2).
const (
	ftNone = iota
	ftSub
	ftUp
	ftAverage
	ftPaeth
	nFilters
)

// pngSource gives the scanlines of an image in PNG's byte layout.
type pngSource struct {
	width, height int
	depth         uint8 // bits per sample: 8 or 16
	colorType     uint8 // 0 gray, 2 RGB, 6 RGBA
	bpp           int   // bytes per pixel in the file
	rowBytes      int   // bytes per scanline in the file, without the filter byte
	pix           []byte
	stride        int
	// dropAlpha: the image is opaque, so each pixel's colour samples are
	// copied out and the alpha sample skipped, as image/png does.
	dropAlpha bool
}

// newPNGSource describes img for the parallel encoder; ok is false for types
// it does not handle.
func newPNGSource(img image.Image) (src pngSource, ok bool) {
	b := img.Bounds()
	src.width, src.height = b.Dx(), b.Dy()
	switch m := img.(type) {
	case *image.NRGBA:
		src.depth, src.pix, src.stride = 8, m.Pix, m.Stride
		src.colorType, src.bpp = 6, 4
		if m.Opaque() {
			src.colorType, src.bpp, src.dropAlpha = 2, 3, true
		}
	case *image.NRGBA64:
		src.depth, src.pix, src.stride = 16, m.Pix, m.Stride
		src.colorType, src.bpp = 6, 8
		if m.Opaque() {
			src.colorType, src.bpp, src.dropAlpha = 2, 6, true
		}
	case *image.Gray:
		src.depth, src.pix, src.stride = 8, m.Pix, m.Stride
		src.colorType, src.bpp = 0, 1
	case *image.Gray16:
		src.depth, src.pix, src.stride = 16, m.Pix, m.Stride
		src.colorType, src.bpp = 0, 2
	default:
		return pngSource{}, false
	}
	src.rowBytes = src.bpp * src.width
	return src, true
}

// row returns scanline y (0 is the top), using buf when the samples must be
// rearranged. Pix[0] of every image type is the pixel at Bounds().Min.
func (s *pngSource) row(y int, buf []byte) []byte {
	off := y * s.stride
	if !s.dropAlpha {
		return s.pix[off : off+s.rowBytes]
	}
	sample := int(s.depth / 8)
	colour := 3 * sample // bytes of colour per pixel
	in := s.pix[off : off+(colour+sample)*s.width]
	out := buf[:s.rowBytes]
	if sample == 1 {
		for i, j := 0, 0; j < len(out); i, j = i+4, j+3 {
			out[j], out[j+1], out[j+2] = in[i], in[i+1], in[i+2]
		}
		return out
	}
	for i, j := 0, 0; j < len(out); i, j = i+8, j+6 {
		copy(out[j:j+6], in[i:i+6])
	}
	return out
}

// encodePNGParallel writes src as a PNG at the given level, deflating strips
// of rows on all cores, with chunks (complete, CRCs included) after IHDR.
// It stops with ctx's error between strips: the output writer alone sees
// the context only per IDAT chunk, which for a well compressed image at the
// best level is seconds of deflating.
func encodePNGParallel(ctx context.Context, w io.Writer, src pngSource, level png.CompressionLevel, chunks []byte) error {
	if src.width > 1<<31-1 || src.height > 1<<31-1 {
		return fmt.Errorf("png: image %dx%d too large for PNG", src.width, src.height)
	}
	flateLevel, flevel := flateLevels(level)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(src.width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(src.height))
	ihdr[8], ihdr[9] = src.depth, src.colorType // compression, filter, interlace: 0
	if _, err := io.WriteString(w, "\x89PNG\r\n\x1a\n"); err != nil {
		return fmt.Errorf("png: write signature: %w", err)
	}
	if err := writeChunk(w, "IHDR", ihdr[:]); err != nil {
		return err
	}
	if _, err := w.Write(chunks); err != nil {
		return fmt.Errorf("png: write text chunks: %w", err)
	}

	strips := planStrips(src.height, src.rowBytes)
	enc := stripEncoder{src: &src, level: flateLevel, filter: level != png.NoCompression, strips: strips}
	idat := &idatWriter{w: w, buf: make([]byte, 0, pngMaxIDAT)}
	// zlib header: deflate with a 32 KiB window, the level hint, and the
	// check bits that make the 16-bit header a multiple of 31.
	hdr := uint16(0x78)<<8 | uint16(flevel)<<6
	hdr += 31 - hdr%31
	idat.write([]byte{byte(hdr >> 8), byte(hdr)})

	sum, err := enc.run(ctx, idat)
	if err != nil {
		return err
	}
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], sum)
	idat.write(tail[:])
	idat.flush()
	if idat.err != nil {
		return idat.err
	}
	return writeChunk(w, "IEND", nil)
}

// flateLevels maps an image/png level to compress/flate's level and the
// zlib header's FLEVEL hint, as image/png and compress/zlib do.
func flateLevels(l png.CompressionLevel) (level int, flevel uint8) {
	switch l {
	case png.NoCompression:
		return flate.NoCompression, 0
	case png.BestSpeed:
		return flate.BestSpeed, 0
	case png.BestCompression:
		return flate.BestCompression, 3
	}
	return flate.DefaultCompression, 2
}

// planStrips returns the first row of each strip and, last, the height.
func planStrips(height, rowBytes int) []int {
	line := int64(rowBytes) + 1
	total := line * int64(height)
	rows := height
	if total > pngOneStripBytes {
		target := min(max(total/pngStripsWanted, pngStripMinBytes), pngStripMaxBytes)
		rows = int(max((target+line-1)/line, 1))
	}
	bounds := make([]int, 0, (height+rows-1)/rows+1)
	for y := 0; y < height; y += rows {
		bounds = append(bounds, y)
	}
	return append(bounds, height)
}

// stripEncoder deflates the strips of one image.
type stripEncoder struct {
	src    *pngSource
	level  int
	filter bool
	strips []int // strip i is rows strips[i] to strips[i+1]
}

// stripResult is one strip's deflate data and the Adler-32 of its filtered
// bytes, ready once done is closed.
type stripResult struct {
	data  []byte
	adler uint32
	n     int64 // filtered bytes
	err   error
	done  chan struct{}
}

// run deflates every strip and hands the data to idat in order, returning
// the Adler-32 of all filtered bytes.
func (e *stripEncoder) run(ctx context.Context, idat *idatWriter) (uint32, error) {
	n := len(e.strips) - 1
	workers := min(runtime.GOMAXPROCS(0), n)
	sum := uint32(1) // Adler-32 of nothing
	if workers <= 1 {
		wk, err := e.newWorker()
		if err != nil {
			return 0, err
		}
		defer wk.release()
		var out bytes.Buffer
		for i := range n {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			out.Reset()
			r := wk.encode(i, &out)
			if r.err != nil {
				return 0, r.err
			}
			idat.write(out.Bytes())
			if idat.err != nil {
				return 0, idat.err
			}
			sum = adler32Combine(sum, r.adler, r.n)
		}
		return sum, nil
	}

	results := make([]stripResult, n)
	for i := range results {
		results[i].done = make(chan struct{})
	}
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk, err := e.newWorker()
			if err == nil {
				defer wk.release()
			}
			for !stop.Load() && ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err != nil {
					results[i].err = err
				} else {
					var out bytes.Buffer
					r := wk.encode(i, &out)
					results[i].data, results[i].adler, results[i].n, results[i].err = out.Bytes(), r.adler, r.n, r.err
				}
				close(results[i].done)
			}
		}()
	}
	// Every path out stops the workers and waits for them: none outlives
	// the call or writes to results after it returns.
	defer wg.Wait()
	defer stop.Store(true)
	for i := range results {
		r := &results[i]
		// A cancelled ctx stops the workers before their next strip, so
		// this strip may never be done.
		select {
		case <-r.done:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		if r.err != nil {
			return 0, r.err
		}
		idat.write(r.data)
		if idat.err != nil {
			return 0, idat.err
		}
		r.data = nil // let the collector have it
		sum = adler32Combine(sum, r.adler, r.n)
	}
	return sum, nil
}

// stripWorker holds what one goroutine reuses from strip to strip.
type stripWorker struct {
	e      *stripEncoder
	fw     *flate.Writer
	adler  hash.Hash32
	cand   [nFilters][]byte // filtered row for each filter type, type byte first
	rowA   []byte           // rearranged rows when alpha is dropped
	rowB   []byte
	zeroes []byte // the row above the first
}

func (e *stripEncoder) newWorker() (*stripWorker, error) {
	fw, err := takeFlate(e.level)
	if err != nil {
		return nil, fmt.Errorf("png: deflate: %w", err)
	}
	wk := &stripWorker{e: e, fw: fw, adler: adler32.New()}
	n := e.src.rowBytes
	for f := range wk.cand {
		wk.cand[f] = make([]byte, 1+n)
		wk.cand[f][0] = byte(f)
	}
	if e.src.dropAlpha {
		wk.rowA, wk.rowB = make([]byte, n), make([]byte, n)
	}
	wk.zeroes = make([]byte, n)
	return wk, nil
}

// release gives the worker's deflate writer back for the next image.
func (wk *stripWorker) release() {
	p, _ := flateWriters.Load(wk.e.level)
	p.(*sync.Pool).Put(wk.fw)
}

// flateWriters keeps deflate writers, about 1 MB of state each, for later
// images: one pool per level (int -> *sync.Pool). An animation encodes a
// frame's worth of strips with every core's writer, frame after frame.
var flateWriters sync.Map

// takeFlate returns a deflate writer at level, reused when one is free.
func takeFlate(level int) (*flate.Writer, error) {
	p, _ := flateWriters.LoadOrStore(level, &sync.Pool{})
	if fw, ok := p.(*sync.Pool).Get().(*flate.Writer); ok {
		return fw, nil
	}
	return flate.NewWriter(io.Discard, level)
}

// encode filters and deflates strip i into out.
func (wk *stripWorker) encode(i int, out *bytes.Buffer) stripResult {
	src, e := wk.e.src, wk.e
	y0, y1 := e.strips[i], e.strips[i+1]
	last := i == len(e.strips)-2
	wk.fw.Reset(out)
	wk.adler.Reset()
	prev, cur := wk.zeroes, wk.rowB
	if y0 > 0 {
		// The row above comes from the image, so strips need nothing from
		// one another.
		prev = src.row(y0-1, wk.rowA)
	}
	for y := y0; y < y1; y++ {
		row := src.row(y, cur)
		var line []byte
		if e.filter {
			line = filterRow(&wk.cand, row, prev, src.bpp)
		} else {
			line = wk.cand[ftNone]
			copy(line[1:], row)
		}
		// Writes to a bytes.Buffer and to a hash cannot fail.
		_, _ = wk.fw.Write(line)
		_, _ = wk.adler.Write(line)
		// The buffer just filled becomes the row above; the other is free.
		prev = row
		if src.dropAlpha {
			if &cur[0] == &wk.rowA[0] {
				cur = wk.rowB
			} else {
				cur = wk.rowA
			}
		}
	}
	var err error
	if last {
		err = wk.fw.Close()
	} else {
		err = wk.fw.Flush()
	}
	if err != nil {
		return stripResult{err: fmt.Errorf("png: deflate rows %d-%d: %w", y0, y1, err)}
	}
	return stripResult{adler: wk.adler.Sum32(), n: int64(y1-y0) * int64(1+src.rowBytes)}
}

// filterRow picks the filter with image/png's (and libpng's) heuristic: the
// smallest sum of the filtered bytes read as signed magnitudes. It tries
// them in image/png's order, so ties go the same way, and returns the
// chosen candidate, filter type byte first.
func filterRow(cand *[nFilters][]byte, cur, prev []byte, bpp int) []byte {
	n := len(cur)
	up, pa, no, sub, avg := cand[ftUp][1:], cand[ftPaeth][1:], cand[ftNone][1:], cand[ftSub][1:], cand[ftAverage][1:]
	prev = prev[:n]

	sum := 0
	for i := range cur {
		up[i] = cur[i] - prev[i]
		sum += abs8(up[i])
	}
	best, choice := sum, ftUp

	sum = 0
	for i := 0; i < bpp && i < n; i++ {
		pa[i] = cur[i] - prev[i]
		sum += abs8(pa[i])
	}
	for i := bpp; i < n && sum < best; i++ {
		pa[i] = cur[i] - paeth(cur[i-bpp], prev[i], prev[i-bpp])
		sum += abs8(pa[i])
	}
	if sum < best {
		best, choice = sum, ftPaeth
	}

	sum = 0
	for i := 0; i < n && sum < best; i++ {
		sum += abs8(cur[i])
	}
	if sum < best {
		best, choice = sum, ftNone
		copy(no, cur)
	}

	sum = 0
	for i := 0; i < bpp && i < n; i++ {
		sub[i] = cur[i]
		sum += abs8(sub[i])
	}
	for i := bpp; i < n && sum < best; i++ {
		sub[i] = cur[i] - cur[i-bpp]
		sum += abs8(sub[i])
	}
	if sum < best {
		best, choice = sum, ftSub
	}

	sum = 0
	for i := 0; i < bpp && i < n; i++ {
		avg[i] = cur[i] - prev[i]/2
		sum += abs8(avg[i])
	}
	for i := bpp; i < n && sum < best; i++ {
		avg[i] = cur[i] - uint8((int(cur[i-bpp])+int(prev[i]))/2)
		sum += abs8(avg[i])
	}
	if sum < best {
		choice = ftAverage
	}
	return cand[choice]
}

// abs8 is |b| for b read as a signed byte.
func abs8(b uint8) int {
	if b < 128 {
		return int(b)
	}
	return 256 - int(b)
}

// paeth is the Paeth predictor of a (left), b (up) and c (up left).
func paeth(a, b, c uint8) uint8 {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := absInt(p-int(a)), absInt(p-int(b)), absInt(p-int(c))
	if pa <= pb && pa <= pc {
		return a
	}
	if pb <= pc {
		return b
	}
	return c
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// adler32Mod is the largest prime below 2^16, Adler-32's modulus.
const adler32Mod = 65521

// adler32Combine returns the Adler-32 of A followed by B, given the
// checksums of A (a1) and B (a2) and the length of B. With a = 1 + the sum
// of the bytes and b = the sum of a after each byte, appending B adds
// a(B)-1 to a, and to b adds b(B) plus len(B) times a(A)-1.
func adler32Combine(a1, a2 uint32, len2 int64) uint32 {
	const m = adler32Mod
	rem := uint64(len2 % m)
	s1a, s2a := uint64(a1&0xffff), uint64(a1>>16)
	s1b, s2b := uint64(a2&0xffff), uint64(a2>>16)
	s1 := (s1a + s1b + m - 1) % m
	s2 := (s2a + s2b + rem*((s1a+m-1)%m)) % m
	return uint32(s2<<16 | s1)
}

// idatWriter cuts the zlib stream into IDAT chunks of up to pngMaxIDAT
// bytes. The first error sticks and later writes are dropped.
type idatWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (iw *idatWriter) write(p []byte) {
	for len(p) > 0 && iw.err == nil {
		n := min(len(p), pngMaxIDAT-len(iw.buf))
		iw.buf = append(iw.buf, p[:n]...)
		p = p[n:]
		if len(iw.buf) == pngMaxIDAT {
			iw.flush()
		}
	}
}

func (iw *idatWriter) flush() {
	if iw.err != nil || len(iw.buf) == 0 {
		return
	}
	iw.err = writeChunk(iw.w, "IDAT", iw.buf)
	iw.buf = iw.buf[:0]
}

// writeChunk writes one PNG chunk: length, type, data and the CRC-32 of type
// and data.
func writeChunk(w io.Writer, typ string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], typ)
	crc := crc32.Update(crc32.ChecksumIEEE(head[4:]), crc32.IEEETable, data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc)
	for _, p := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(p); err != nil {
			return fmt.Errorf("png: write %s chunk: %w", typ, err)
		}
	}
	return nil
}
