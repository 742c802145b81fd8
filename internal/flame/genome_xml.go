package flame

import (
	"bufio"
	"bytes"
	"strconv"
)

// GenomeXML is g as one flam3 <flame> element, with o's `flame render`
// overrides applied as Animation.Override applies them (size with the scale
// that keeps the framing, quality, supersample): the genome an image was
// rendered from, as flam3 writes it into its PNGs' flam3_genome chunk.
// Parse reads it back to the same genome.
func GenomeXML(g *Genome, o Options) ([]byte, error) {
	k := &AnimGenome{Genome: *g, TemporalFilterWidth: 1} // Override changes only the copy's camera and quality
	if err := (&Animation{Keys: []*AnimGenome{k}}).Override(o); err != nil {
		return nil, err
	}
	return flameXML(k, num)
}

// FrameXML is the genome of an animation at a frame's time (Source.At's),
// as flam3-animate writes it into the frame's flam3_genome chunk: the
// program that wrote it (version="procgen VERSION"), its time,
// motion blur (temporal filter, width, samples) and the interpolation
// settings of the segment it lies in, and no name (an interpolated genome
// is none of the keyframes). Numbers are written to 14 significant digits,
// the shortest form at that precision: interpolation's round-off
// (110.00000000000001, a palette's 80.99999999999994) is dropped while
// every value keeps 8 digits more than flam3's %g.
func FrameXML(k *AnimGenome, version string) ([]byte, error) {
	c := *k
	c.Name, c.Smooth = "", false // flam3_interpolate's result is linear
	x, err := flameXML(&c, frameNum)
	if err != nil {
		return nil, err
	}
	v := `<flame version="` + attrEscape("procgen "+version) + `" `
	return append([]byte(v), bytes.TrimPrefix(x, []byte("<flame "))...), nil
}

func frameNum(v float64) string { return strconv.FormatFloat(v, 'g', 14, 64) }

func flameXML(k *AnimGenome, f numFormat) ([]byte, error) {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	writeFlame(w, k, f)
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
