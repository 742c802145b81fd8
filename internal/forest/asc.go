package forest

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
)

// WriteASC writes a grid as an ESRI ASCII raster (.asc): a header with the
// lower-left corner and cell size, then the rows from north to south. Values
// are written in full precision; NaN or Inf (none come out of Disperse)
// would be written as the NODATA value.
func WriteASC(w io.Writer, g Grid, values []float64) error {
	if len(values) != g.Cells() {
		return fmt.Errorf("forest: asc: %d values for a %dx%d grid", len(values), g.NX, g.NY)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "ncols %d\nnrows %d\nxllcorner %s\nyllcorner %s\ncellsize %s\nNODATA_value -9999\n",
		g.NX, g.NY, fmtFloat(g.X0), fmtFloat(g.Y0), fmtFloat(g.Cell))
	buf := make([]byte, 0, 32)
	for j := g.NY - 1; j >= 0; j-- {
		for i, v := range values[j*g.NX : (j+1)*g.NX] {
			if i > 0 {
				_ = bw.WriteByte(' ')
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				_, _ = bw.WriteString("-9999")
				continue
			}
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			_, _ = bw.Write(buf)
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
