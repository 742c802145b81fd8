package flamejob

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
)

// Genomes come from flam3 files, from standard input (-), or from a PNG
// that flam3 or procgen wrote: its flam3_genome chunk holds the genome it
// was rendered from, as flam3 writes it, so an image can be rendered again.

// flam3GenomeKey is the PNG text chunk flam3 keeps the genome in.
const flam3GenomeKey = "flam3_genome"

// maxGenomeText bounds a genome read from a PNG chunk (the file itself is
// bounded by input.Image, standard input by input.Genome).
const maxGenomeText = 64 << 20

// isPNGInput says whether a genome argument names a PNG to read the genome
// of.
func isPNGInput(path string) bool { return strings.EqualFold(filepath.Ext(path), ".png") }

// parseGenomes reads the genomes of one input: a flam3 file, - for
// standard input (stdin), or a PNG's flam3_genome chunk. Errors point into
// the file, the standard input or the chunk.
func parseGenomes(ctx context.Context, stdin io.Reader, path string, opts flame.ParseOptions) ([]*flame.Genome, []flame.Warning, error) {
	switch {
	case path == output.Stdout:
		data, err := input.Read(ctx, stdin, "standard input", input.Genome)
		if err != nil {
			return nil, nil, fmt.Errorf("flame: %w", err)
		}
		return flame.Parse(bytes.NewReader(data), "<stdin>", opts)
	case isPNGInput(path):
		f, err := input.Open(ctx, path, input.Image)
		if err != nil {
			return nil, nil, fmt.Errorf("flame: %w", err)
		}
		defer f.Close()
		text, err := output.ReadPNGText(f, maxGenomeText)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		g, ok := text[flam3GenomeKey]
		if !ok {
			return nil, nil, job.Usagef("%s: no %s text chunk: only PNGs written by flam3 or procgen hold their genome",
				path, flam3GenomeKey)
		}
		return flame.Parse(strings.NewReader(g), path+"["+flam3GenomeKey+"]", opts)
	}
	return flame.ParseFileContext(ctx, path, opts)
}

// flam3Text is what flam3 writes into a PNG beside the image: the genome
// it was rendered from (o's overrides applied), the version, and the
// render's samples and share of bad samples (st; none for zero samples).
func flam3Text(version string, g *flame.Genome, o flame.Options, st flame.Stats) ([]output.PNGText, error) {
	xml, err := flame.GenomeXML(g, o)
	if err != nil {
		return nil, err
	}
	return flam3TextOf(version, string(xml), st.Samples, st.BadValues), nil
}

// flam3TextOf is flam3Text for a genome already written as XML. flam3's
// render time (flam3_time) is left out: one input and seed give one file,
// byte for byte, as golden-file checks and farms' deduplication expect.
func flam3TextOf(version, xml string, samples, bad int64) []output.PNGText {
	text := []output.PNGText{{Key: "flam3_version", Text: "procgen " + version}}
	if samples > 0 {
		text = append(text,
			output.PNGText{Key: "flam3_error_rate", Text: strconv.FormatFloat(float64(bad)/float64(samples), 'g', 6, 64)},
			output.PNGText{Key: "flam3_samples", Text: strconv.FormatInt(samples, 10)})
	}
	return append(text, output.PNGText{Key: flam3GenomeKey, Text: xml, Compress: true})
}
