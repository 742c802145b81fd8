package output

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// PNGText is one text entry of a PNG, as flam3 writes flam3_version and the
// like in tEXt chunks and flam3_genome, the genome's XML, in a zTXt chunk.
type PNGText struct {
	// Key is the keyword: 1 to 79 printable Latin-1 characters, spaces
	// allowed but not leading, trailing or two in a row (PNG 11.3.4.2).
	Key string
	// Text is the value. It is stored as Latin-1 in tEXt or zTXt; text with
	// characters outside Latin-1 goes into an iTXt chunk as UTF-8 instead,
	// so nothing is lost. It may not contain NUL.
	Text string
	// Compress stores Text zlib-compressed: zTXt (or compressed iTXt)
	// rather than tEXt.
	Compress bool
}

const (
	pngSignature = "\x89PNG\r\n\x1a\n"
	// pngMaxChunk is the largest chunk length PNG allows (2^31-1).
	pngMaxChunk = 1<<31 - 1
	// pngMaxKeyword is the longest keyword PNG allows, in bytes.
	pngMaxKeyword = 79
)

// EncodePNGText is EncodePNGCompressed with text chunks, placed right after
// IHDR in the order given. Every entry is checked before anything is written.
func EncodePNGText(ctx context.Context, w io.Writer, img image.Image, depth BitDepth, c Compression, text []PNGText) error {
	if err := checkDepth(depth); err != nil {
		return fmt.Errorf("output: encode png: %w", err)
	}
	if err := encodePNGText(ctx, w, img, depth, c, text); err != nil {
		return fmt.Errorf("output: encode png: %w", err)
	}
	return nil
}

func encodePNGText(ctx context.Context, w io.Writer, img image.Image, depth BitDepth, c Compression, text []PNGText) error {
	chunks, err := textChunks(text, c)
	if err != nil {
		return err
	}
	return encodePNGChunks(ctx, w, img, depth, c, chunks)
}

// textChunks checks every entry and returns their chunks, concatenated.
func textChunks(text []PNGText, c Compression) ([]byte, error) {
	var out bytes.Buffer
	level, _ := flateLevels(c.level())
	for i, t := range text {
		typ, data, err := textChunk(t, level)
		if err != nil {
			return nil, fmt.Errorf("png: text %d %q: %w", i, t.Key, err)
		}
		if len(data) > pngMaxChunk {
			return nil, fmt.Errorf("png: text %d %q: %s chunk of %d bytes exceeds PNG's limit of %d",
				i, t.Key, typ, len(data), pngMaxChunk)
		}
		if err := writeChunk(&out, typ, data); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// textChunk returns the chunk type and data for t: tEXt or zTXt when the
// text is Latin-1, iTXt otherwise.
func textChunk(t PNGText, level int) (typ string, data []byte, err error) {
	key, err := checkKeyword(t.Key)
	if err != nil {
		return "", nil, err
	}
	if !utf8.ValidString(t.Text) {
		return "", nil, errors.New("text is not valid UTF-8")
	}
	if i := strings.IndexByte(t.Text, 0); i >= 0 {
		return "", nil, fmt.Errorf("text contains NUL at byte %d, which PNG text chunks cannot hold", i)
	}
	data = append(key, 0)
	if latin, ok := toLatin1(t.Text); ok {
		if !t.Compress {
			return "tEXt", append(data, latin...), nil
		}
		data = append(data, 0) // compression method 0: zlib
		data, err = appendZlib(data, latin, level)
		return "zTXt", data, err
	}
	// iTXt: compression flag and method, then an empty language tag and
	// translated keyword, each NUL-terminated.
	if !t.Compress {
		return "iTXt", append(append(data, 0, 0, 0, 0), t.Text...), nil
	}
	data, err = appendZlib(append(data, 1, 0, 0, 0), []byte(t.Text), level)
	return "iTXt", data, err
}

func appendZlib(dst, src []byte, level int) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	zw, err := zlib.NewWriterLevel(buf, level)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(src); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checkKeyword returns key in Latin-1 if PNG allows it as a keyword.
func checkKeyword(key string) ([]byte, error) {
	b, ok := toLatin1(key)
	if !ok {
		return nil, errors.New("keyword is not Latin-1")
	}
	if len(b) < 1 || len(b) > pngMaxKeyword {
		return nil, fmt.Errorf("keyword has %d characters, want 1 to %d", len(b), pngMaxKeyword)
	}
	for _, c := range b {
		if c < 0x20 || (c > 0x7e && c < 0xa1) {
			return nil, fmt.Errorf("keyword has the non-printable character %U", rune(c))
		}
	}
	if b[0] == ' ' || b[len(b)-1] == ' ' || bytes.Contains(b, []byte("  ")) {
		return nil, errors.New("keyword has leading, trailing or consecutive spaces")
	}
	return b, nil
}

// toLatin1 encodes s as Latin-1; ok is false if a rune lies outside it.
// Invalid UTF-8 decodes to U+FFFD, which is outside, so it is refused too.
func toLatin1(s string) (b []byte, ok bool) {
	b = make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return nil, false
		}
		b = append(b, byte(r))
	}
	return b, true
}

// fromLatin1 decodes Latin-1 bytes to a Go (UTF-8) string.
func fromLatin1(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	out := make([]byte, 0, len(b)+len(b)/2)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return string(out)
}

// ReadPNGText reads the chunks of a PNG up to IEND and returns its tEXt,
// zTXt and iTXt entries by keyword; of repeated keywords the first wins.
// Latin-1 keywords and texts are returned as UTF-8. It checks the signature
// and every CRC, and is safe on hostile input: image data is skipped, never
// held, and keywords and texts together, after decompression, may hold at
// most maxBytes bytes, or it fails.
func ReadPNGText(r io.Reader, maxBytes int64) (map[string]string, error) {
	if maxBytes < 0 {
		return nil, fmt.Errorf("png: negative text limit %d", maxBytes)
	}
	tr := textReader{r: bufio.NewReader(r), left: maxBytes, max: maxBytes, text: map[string]string{}}
	if err := tr.read(); err != nil {
		return nil, err
	}
	return tr.text, nil
}

type textReader struct {
	r         *bufio.Reader
	left, max int64 // text budget left, and its total
	text      map[string]string
}

func (t *textReader) read() error {
	var sig [8]byte
	if _, err := io.ReadFull(t.r, sig[:]); err != nil {
		return fmt.Errorf("png: read signature: %w", eofUnexpected(err))
	}
	if string(sig[:]) != pngSignature {
		return errors.New("png: not a PNG file (bad signature)")
	}
	for first := true; ; first = false {
		var head [8]byte
		if _, err := io.ReadFull(t.r, head[:]); err != nil {
			return fmt.Errorf("png: truncated before IEND: %w", eofUnexpected(err))
		}
		n := binary.BigEndian.Uint32(head[:4])
		typ := string(head[4:])
		if !validChunkType(head[4:]) {
			return fmt.Errorf("png: invalid chunk type %q", typ)
		}
		if n > pngMaxChunk {
			return fmt.Errorf("png: %s chunk length %d exceeds PNG's limit of %d", typ, n, pngMaxChunk)
		}
		if first && typ != "IHDR" {
			return fmt.Errorf("png: first chunk is %s, not IHDR", typ)
		}
		crc := crc32.NewIEEE()
		crc.Write(head[4:])
		lr := &io.LimitedReader{R: t.r, N: int64(n)}
		body := io.TeeReader(lr, crc)
		switch typ {
		case "tEXt", "zTXt", "iTXt":
			if err := t.textChunk(typ, body); err != nil {
				return err
			}
		}
		// The rest of the chunk (all of it, for image data) only feeds
		// the CRC, through io.Discard's small pooled buffer.
		if _, err := io.Copy(io.Discard, body); err != nil {
			return fmt.Errorf("png: read %s chunk: %w", typ, err)
		}
		if lr.N > 0 {
			return fmt.Errorf("png: truncated %s chunk: %w", typ, io.ErrUnexpectedEOF)
		}
		var sum [4]byte
		if _, err := io.ReadFull(t.r, sum[:]); err != nil {
			return fmt.Errorf("png: truncated %s chunk CRC: %w", typ, eofUnexpected(err))
		}
		if binary.BigEndian.Uint32(sum[:]) != crc.Sum32() {
			return fmt.Errorf("png: %s chunk: CRC mismatch", typ)
		}
		if typ == "IEND" {
			return nil
		}
	}
}

// textChunk parses one text chunk from body, leaving any bytes it does not
// need (a repeated keyword's text) for the caller to skip.
func (t *textReader) textChunk(typ string, body io.Reader) error {
	key, err := readNULTerminated(body, pngMaxKeyword)
	if err != nil {
		return fmt.Errorf("png: %s keyword: %w", typ, err)
	}
	if len(key) == 0 {
		return fmt.Errorf("png: %s chunk with an empty keyword", typ)
	}
	label := fmt.Sprintf("%s %q", typ, fromLatin1(key))
	if err := t.take(label, int64(len(key))); err != nil {
		return err
	}
	compressed, latin := false, typ != "iTXt"
	switch typ {
	case "zTXt":
		var method [1]byte
		if _, err := io.ReadFull(body, method[:]); err != nil {
			return fmt.Errorf("png: %s: %w", label, eofUnexpected(err))
		}
		if method[0] != 0 {
			return fmt.Errorf("png: %s: unknown compression method %d", label, method[0])
		}
		compressed = true
	case "iTXt":
		var flags [2]byte
		if _, err := io.ReadFull(body, flags[:]); err != nil {
			return fmt.Errorf("png: %s: %w", label, eofUnexpected(err))
		}
		if flags[0] > 1 || (flags[0] == 1 && flags[1] != 0) {
			return fmt.Errorf("png: %s: unknown compression flag %d, method %d", label, flags[0], flags[1])
		}
		compressed = flags[0] == 1
		// Language tag and translated keyword: read to count them
		// against the budget, then dropped.
		for _, what := range []string{"language tag", "translated keyword"} {
			s, err := readNULTerminated(body, t.left)
			if err != nil {
				return fmt.Errorf("png: %s %s: %w", label, what, err)
			}
			if err := t.take(label, int64(len(s))); err != nil {
				return err
			}
		}
	}
	k := fromLatin1(key)
	if _, seen := t.text[k]; seen {
		return nil
	}
	src := body
	if compressed {
		zr, err := zlib.NewReader(body)
		if err != nil {
			return fmt.Errorf("png: %s: %w", label, eofUnexpected(err))
		}
		src = zr
	}
	// One byte past the budget tells a text that fits from one that does
	// not, without reading (or inflating) any further.
	limit := t.left
	if limit < math.MaxInt64 {
		limit++
	}
	var buf bytes.Buffer
	m, err := buf.ReadFrom(io.LimitReader(src, limit))
	if err != nil {
		return fmt.Errorf("png: %s: %w", label, eofUnexpected(err))
	}
	if err := t.take(label, m); err != nil {
		return err
	}
	if latin {
		t.text[k] = fromLatin1(buf.Bytes())
	} else {
		t.text[k] = buf.String()
	}
	return nil
}

// take counts n bytes of the text chunk named by label against the budget.
func (t *textReader) take(label string, n int64) error {
	if n > t.left {
		return fmt.Errorf("png: %s: text exceeds the limit of %d bytes", label, t.max)
	}
	t.left -= n
	return nil
}

// readNULTerminated reads a string and its NUL terminator, failing if no
// NUL comes within limit+1 bytes. Strings are short, so a byte at a time
// (from a buffered reader) is cheap.
func readNULTerminated(r io.Reader, limit int64) ([]byte, error) {
	var s []byte
	var c [1]byte
	for {
		if _, err := io.ReadFull(r, c[:]); err != nil {
			return nil, fmt.Errorf("no NUL terminator: %w", eofUnexpected(err))
		}
		if c[0] == 0 {
			return s, nil
		}
		if int64(len(s)) >= limit {
			return nil, fmt.Errorf("longer than %d bytes", limit)
		}
		s = append(s, c[0])
	}
}

// validChunkType reports whether typ is four ASCII letters, as PNG requires.
func validChunkType(typ []byte) bool {
	for _, c := range typ {
		if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// eofUnexpected turns io.EOF in the middle of a structure into
// io.ErrUnexpectedEOF.
func eofUnexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
