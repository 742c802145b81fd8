package flame

import (
	"bufio"
	"bytes"
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
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	writeFlame(w, k)
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
