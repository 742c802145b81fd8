package rules

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// WriteRLE writes the board of state words as an RLE pattern of the whole
// board, lines of at most 70 characters (as Golly writes them). Cells
// must hold 0..255.
func WriteRLE(out io.Writer, p *Program, words []uint32) error {
	return WriteRLERule(out, p, words, "")
}

// WriteRLERule is WriteRLE with `, rule = RULE` in the header (none when
// rule is "").
func WriteRLERule(out io.Writer, p *Program, words []uint32, rule string) error {
	b, err := BoardOf(p)
	if err != nil {
		return err
	}
	f := p.Fields[b.Field]
	cells := words[f.Off : f.Off+f.Size]
	// The largest value, in parallel (a 16384x16384 board is 2^28 cells):
	// above MaxRLEState is an error naming the first such cell, above 1
	// makes the pattern multi-state.
	chunks := parallel.Chunks(len(cells), 1<<16)
	maxes := make([]uint32, len(chunks)-1)
	parallel.For(len(cells), 1<<16, func(c, lo, hi int) {
		m := uint32(0)
		for _, v := range cells[lo:hi] {
			m = max(m, v)
		}
		maxes[c] = m
	})
	top := uint32(0)
	for _, m := range maxes {
		top = max(top, m)
	}
	if top > MaxRLEState {
		for k, v := range cells {
			if v > MaxRLEState {
				return fmt.Errorf("%s: cell %d (x %d, y %d) holds %d: RLE takes states 0..%d", f.Name, k, k%b.W, k/b.W, int32(v), MaxRLEState)
			}
		}
	}
	tags := rleTags(top > 1)
	bw := bufio.NewWriterSize(out, 1<<20)
	if rule != "" {
		fmt.Fprintf(bw, "x = %d, y = %d, rule = %s\n", b.W, b.H, rule)
	} else {
		fmt.Fprintf(bw, "x = %d, y = %d\n", b.W, b.H)
	}
	// Tokens ("12o", "b", "3$") are built in one scratch slice, without a
	// string per run: a 16384x16384 board is tens of millions of runs.
	line := 0
	var tok []byte
	emit := func(n int, tag []byte) {
		tok = tok[:0]
		if n > 1 {
			tok = strconv.AppendInt(tok, int64(n), 10)
		}
		tok = append(tok, tag...)
		if line+len(tok) > 70 {
			bw.WriteByte('\n')
			line = 0
		}
		bw.Write(tok)
		line += len(tok)
	}
	dollar := []byte("$")
	rows := 0 // ends of rows not yet written
	for y := range b.H {
		row := cells[y*b.W : (y+1)*b.W]
		end := len(row)
		for end > 0 && row[end-1] == 0 {
			end--
		}
		if end == 0 {
			rows++
			continue
		}
		if rows > 0 {
			emit(rows, dollar)
		}
		for x := 0; x < end; {
			n := 1
			for x+n < end && row[x+n] == row[x] {
				n++
			}
			emit(n, tags[row[x]])
			x += n
		}
		rows = 1
	}
	bw.WriteString("!\n")
	return bw.Flush()
}

// rleTags are the cell states' letters: b and o for two states, ., A..X,
// pA.. for more.
func rleTags(multi bool) [MaxRLEState + 1][]byte {
	var tags [MaxRLEState + 1][]byte
	for v := range tags {
		switch {
		case !multi && v == 0:
			tags[v] = []byte("b")
		case !multi:
			tags[v] = []byte("o")
		case v == 0:
			tags[v] = []byte(".")
		case v <= 24:
			tags[v] = []byte{byte('A' + v - 1)}
		default:
			tags[v] = []byte{byte('p' + (v-25)/24), byte('A' + (v-25)%24)}
		}
	}
	return tags
}
