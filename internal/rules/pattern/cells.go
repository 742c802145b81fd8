package pattern

import (
	"bufio"
	"fmt"
	"io"
)

// ReadCells reads LifeWiki's plain-text format: lines starting with '!'
// are comments, every other line is a row of cells, '.' dead and 'O'
// alive ('*' too, as older files have it); rows may be shorter than the
// widest (the rest is dead). The grid must fit maxW x maxH.
func ReadCells(data []byte, file string, maxW, maxH int) (*Pattern, error) {
	var rows []string
	w := 0
	for i, ln := range lines(data) {
		if len(ln) > 0 && ln[0] == '!' {
			if len(rows) > 0 {
				return nil, errorf(file, i+1, 1, "a comment after the pattern's rows (comments come first)")
			}
			continue
		}
		for col, c := range []byte(ln) {
			if c != '.' && c != 'O' && c != '*' {
				return nil, errorf(file, i+1, col+1, "unexpected %q: want '.' (dead) or 'O' (alive)", c)
			}
			if col+1 > maxW {
				return nil, errorf(file, i+1, col+1, "the pattern is wider than the board's %d cells", maxW)
			}
		}
		if len(rows)+1 > maxH {
			return nil, errorf(file, i+1, 1, "the pattern is taller than the board's %d rows", maxH)
		}
		rows = append(rows, ln)
		w = max(w, len(ln))
	}
	p := &Pattern{W: w, H: len(rows), Cells: make([]uint8, w*len(rows))}
	for y, row := range rows {
		for x, c := range []byte(row) {
			if c != '.' {
				p.Cells[y*w+x] = 1
			}
		}
	}
	return p, nil
}

// WriteCells writes a w x h grid of 0 and 1 as plain text, a "!Name:"
// line first when name is not "". Trailing dead cells of a row and
// trailing empty rows are left out, as LifeWiki's files do; reading it
// back puts the grid's top-left where it was.
func WriteCells(out io.Writer, cells []uint32, w, h int, name string) error {
	for k, v := range cells[:w*h] {
		if v > 1 {
			return fmt.Errorf("cell %d (x %d, y %d) holds %d: plain text .cells holds states 0 and 1 (write .rle or .mc)", k, k%w, k/w, int32(v))
		}
	}
	bw := bufio.NewWriter(out)
	if name != "" {
		fmt.Fprintf(bw, "!Name: %s\n", name)
	}
	last := -1
	for y := range h {
		for _, v := range cells[y*w : (y+1)*w] {
			if v != 0 {
				last = y
				break
			}
		}
	}
	row := make([]byte, 0, w)
	for y := 0; y <= last; y++ {
		row = row[:0]
		for _, v := range cells[y*w : (y+1)*w] {
			row = append(row, ".O"[v])
		}
		end := len(row)
		for end > 0 && row[end-1] == '.' {
			end--
		}
		bw.Write(row[:end])
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
