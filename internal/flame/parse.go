package flame

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/input"
)

// ParseOptions control Parse.
type ParseOptions struct {
	// Palettes resolves palette="N" (and the old index0/index1 form); nil
	// when no palette library is available.
	Palettes *PaletteFile
	// Strict makes an unknown variation or parameter an error instead of a
	// warning.
	Strict bool
	// Context, when set, stops a long parse early with its error (a large
	// document of many flames, on Ctrl-C).
	Context context.Context
}

// Warning is something Parse accepted but a user may want to know about.
type Warning struct {
	File  string
	Line  int
	Flame string
	Msg   string
}

func (w Warning) String() string {
	return fmt.Sprintf("%s:%d: flame %q: %s", w.File, w.Line, w.Flame, w.Msg)
}

var (
	// ErrSyntax is wrapped by errors for input that is not well-formed XML.
	ErrSyntax = errors.New("malformed XML")
	// ErrNoFlames is returned for a document without any <flame> element.
	ErrNoFlames = errors.New("no <flame> element found")
	// ErrInvalidGenome is wrapped by errors for a genome that is well-formed
	// XML but cannot be rendered as written.
	ErrInvalidGenome = errors.New("invalid genome")
)

// SyntaxError locates malformed XML.
type SyntaxError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %v: %s", e.File, e.Line, e.Col, ErrSyntax, e.Msg)
}

func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// maxXforms bounds the xforms of one flame so that hostile input cannot ask
// for quadratic chaos storage; real genomes have at most a few hundred.
const maxXforms = 2048

// ParseFile parses the flam3 genome file at path; see Parse.
func ParseFile(path string, opts ParseOptions) ([]*Genome, []Warning, error) {
	return ParseFileContext(context.Background(), path, opts)
}

// ParseFileContext is ParseFile whose read of path (bounded as every
// genome file is) stops when ctx ends.
func ParseFileContext(ctx context.Context, path string, opts ParseOptions) ([]*Genome, []Warning, error) {
	// Read whole, then parsed: a file over the limit is refused at memory
	// speed, where the XML decoder would crawl through it first.
	data, err := input.ReadFile(ctx, path, input.Genome)
	if err != nil {
		return nil, nil, fmt.Errorf("flame: %w", err)
	}
	return Parse(bytes.NewReader(data), path, opts)
}

// Parse reads every <flame> of a flam3 genome document: one flame as the
// root, or any number inside any other elements (<flames>, <Flames> ...).
// Each genome gets flam3 3.1.1's defaults for what it does not say, and is
// validated. filename labels errors and warnings.
func Parse(r io.Reader, filename string, opts ParseOptions) ([]*Genome, []Warning, error) {
	if filename == "" {
		filename = "<input>"
	}
	er := &errReader{r: r}
	src, err := io.ReadAll(er)
	if err != nil {
		return nil, nil, fmt.Errorf("flame: read %s: %w", filename, err)
	}
	fixed, names := tolerantNames(src)
	p := &parser{d: newDecoder(bytes.NewReader(fixed)), er: er, file: filename, opts: opts, src: src, names: names}
	var gs []*Genome
	for {
		tok, line, err := p.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, p.warnings, err
		}
		se, ok := tok.(xml.StartElement)
		if !ok || (se.Name.Local != "flame" && se.Name.Local != "jwf-flame") {
			continue
		}
		var g *Genome
		if se.Name.Local == "flame" {
			g, err = p.flame(se, line)
		} else {
			g, err = p.jwfFlame(se, line)
		}
		if err != nil {
			return nil, p.warnings, err
		}
		gs = append(gs, g)
	}
	if len(gs) == 0 {
		return nil, p.warnings, fmt.Errorf("%s: %w", filename, ErrNoFlames)
	}
	p.warnUnknown()
	return gs, p.warnings, nil
}

type parser struct {
	d        *xml.Decoder
	er       *errReader
	file     string
	opts     ParseOptions
	warnings []Warning
	col      int // column of the last token's start
	off      int64
	// src is the document as given, for locating attributes; names maps
	// the attribute names tolerantNames rewrote back to the file's.
	src     []byte
	names   nameMap
	unknown unknownUses
	flames  int // <flame> elements begun so far
	tokens  int // tokens read, for checking the context every so often
}

// next returns the next token and the line it starts on.
func (p *parser) next() (xml.Token, int, error) {
	// A document of 100,000 flames takes seconds to read: the context is
	// checked every few thousand tokens (well under a millisecond apart).
	if p.tokens++; p.tokens%4096 == 0 && p.opts.Context != nil {
		if err := p.opts.Context.Err(); err != nil {
			return nil, 0, err
		}
	}
	line, col := p.d.InputPos()
	p.col, p.off = col, p.d.InputOffset()
	tok, err := p.d.Token()
	if err != nil {
		return nil, line, p.decodeErr(err)
	}
	if se, ok := tok.(xml.StartElement); ok && p.names != nil {
		for i := range se.Attr {
			se.Attr[i].Name.Local = p.names.original(se.Attr[i].Name.Local)
		}
	}
	return tok, line, nil
}

// inner is next inside an element, where the end of input is an error.
func (p *parser) inner() (xml.Token, int, error) {
	tok, line, err := p.next()
	if err == io.EOF {
		l, c := p.d.InputPos()
		err = &SyntaxError{File: p.file, Line: l, Col: c, Msg: "unexpected EOF"}
	}
	return tok, line, err
}

// skip consumes the rest of the element whose start was just read.
func (p *parser) skip() error {
	if err := p.d.Skip(); err != nil {
		return p.decodeErr(err)
	}
	return nil
}

func (p *parser) decodeErr(err error) error {
	if err == io.EOF {
		return err
	}
	if p.er.err != nil {
		return fmt.Errorf("flame: read %s: %w", p.file, p.er.err)
	}
	line, col := p.d.InputPos()
	return &SyntaxError{File: p.file, Line: line, Col: col, Msg: xmlErrorText(err)}
}

func xmlErrorText(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return strings.TrimPrefix(err.Error(), "xml: ")
}

// errReader remembers a read error so it is not reported as bad XML.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

func newDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(r)
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(label) {
		case "us-ascii", "ascii", "iso-8859-1", "iso8859-1", "latin1", "latin-1", "windows-1252", "cp1252":
			// Older Apophysis files declare a Windows code page; treating it
			// as Latin-1 only affects names, which are all the text there is.
			b, err := io.ReadAll(in)
			if err != nil {
				return nil, err
			}
			var u bytes.Buffer
			for _, c := range b {
				u.WriteRune(rune(c))
			}
			return &u, nil
		}
		return nil, fmt.Errorf("unsupported encoding %q", label)
	}
	return d
}

// flameParser holds one <flame> while its children are read.
type flameParser struct {
	p            *parser
	line, col    int   // where the <flame> starts
	off          int64 // its byte offset
	xoff         int64 // byte offset of the xform being read
	moreFinals   []extraFinal
	index        int // of the flame in its document, from 0
	g            *Genome
	pal          paletteBuilder
	paletteIndex int // -1: none
	solo         int // -1: none
	symAttr      int
	added        int         // xforms added so far: standard, final and symmetry
	chaos        [][]float64 // raw chaos row of each standard xform, nil if none
	chaosLine    []int
	warned       map[string]bool
	filter       jwfFilterAttrs
}

func (p *parser) flame(se xml.StartElement, line int) (*Genome, error) {
	fp, err := p.newFlame(se, line)
	if err != nil {
		return nil, err
	}
	for {
		tok, line, err := p.inner()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return fp.finish()
		case xml.StartElement:
			if err := fp.element(t, line); err != nil {
				return nil, err
			}
		}
	}
}

// newFlame begins a flame from its element's attributes.
func (p *parser) newFlame(se xml.StartElement, line int) (*flameParser, error) {
	g := DefaultGenome()
	fp := &flameParser{p: p, line: line, col: p.col, off: p.off, index: p.flames, g: &g, paletteIndex: -1, solo: -1,
		warned: map[string]bool{}}
	p.flames++
	for _, a := range se.Attr {
		if a.Name.Local == "name" {
			g.Name = a.Value
		}
	}
	for _, a := range se.Attr {
		if err := fp.flameAttr(a); err != nil {
			return nil, err
		}
	}
	return fp, nil
}

// element reads one child of <flame> (or of a JWildfire <layer>).
func (fp *flameParser) element(t xml.StartElement, line int) error {
	switch t.Name.Local {
	case "color":
		return fp.color(t, line)
	case "colors":
		return fp.colors(t, line)
	case "palette":
		return fp.palette(t, line)
	case "symmetry":
		return fp.symmetry(t, line)
	case "xform", "finalxform":
		return fp.xform(t, line)
	}
	// <edit> history and whatever else: not part of the image, unless
	// --strict does not know it.
	if err := fp.otherElement(t, line); err != nil {
		return err
	}
	return fp.p.skip()
}

func (fp *flameParser) errorf(line int, format string, args ...any) error {
	return &GenomeError{File: fp.p.file, Line: line, Flame: fp.g.Name, Msg: fmt.Sprintf(format, args...)}
}

func (fp *flameParser) warnf(line int, format string, args ...any) {
	fp.p.warnings = append(fp.p.warnings, Warning{File: fp.p.file, Line: line, Flame: fp.g.Name, Msg: fmt.Sprintf(format, args...)})
}

// warnOnce warns about key the first time it comes up in this flame.
func (fp *flameParser) warnOnce(key string, line int, format string, args ...any) {
	if !fp.warned[key] {
		fp.warned[key] = true
		fp.warnf(line, format, args...)
	}
}

func (fp *flameParser) badValue(line int, a xml.Attr) error {
	return fp.errorf(line, "bad %s value %q", a.Name.Local, a.Value)
}

func (fp *flameParser) flameAttr(a xml.Attr) error {
	if err := fp.setFlameAttr(a); err != nil {
		return err
	}
	return fp.checkFlameAttr(a.Name.Local)
}

// setFlameAttr reads one attribute of <flame> into the genome.
func (fp *flameParser) setFlameAttr(a xml.Attr) error {
	g, line := fp.g, fp.line
	var err error
	switch a.Name.Local {
	case "size":
		var v []int
		if v, err = parseInts(a.Value, 2); err == nil {
			g.Width, g.Height = v[0], v[1]
		}
	case "center":
		var v []float64
		if v, err = parseFloats(a.Value, 2); err == nil {
			g.Center = [2]float64{v[0], v[1]}
		}
	case "background":
		var v []float64
		if v, err = parseFloats(a.Value, 3); err == nil {
			g.Background = [3]float64{v[0], v[1], v[2]}
		}
	case "scale":
		g.Scale, err = parseFloat(a.Value)
	case "zoom":
		g.Zoom, err = parseFloat(a.Value)
	case "rotate":
		g.Rotate, err = parseFloat(a.Value)
	case "supersample", "oversample":
		g.Supersample, err = parseInt(a.Value)
	case "quality":
		g.Quality, err = parseFloat(a.Value)
	case "passes":
		g.Passes, err = parseInt(a.Value)
	case "temporal_samples":
		g.TemporalSamples, err = parseInt(a.Value)
	case "brightness":
		g.Brightness, err = parseFloat(a.Value)
	case "contrast": // flam3 3.1.1 no longer reads it; kept for round trips
		g.Contrast, err = parseFloat(a.Value)
	case "gamma":
		g.Gamma, err = parseFloat(a.Value)
	case "gamma_threshold":
		g.GammaThreshold, err = parseFloat(a.Value)
	case "vibrancy":
		g.Vibrancy, err = parseFloat(a.Value)
	case "highlight_power":
		g.HighlightPower, err = parseFloat(a.Value)
	case "filter":
		g.FilterRadius, err = parseFloat(a.Value)
	case "filter_shape":
		s, ok := FilterShapeNames[a.Value]
		if !ok {
			return fp.errorf(line, "unknown filter_shape %q", a.Value)
		}
		g.FilterShape = s
	case "estimator_radius":
		g.EstimatorRadius, err = parseFloat(a.Value)
	case "estimator_minimum":
		g.EstimatorMinimum, err = parseFloat(a.Value)
	case "estimator_curve":
		g.EstimatorCurve, err = parseFloat(a.Value)
	case "hue":
		var h float64
		if h, err = parseFloat(a.Value); err == nil {
			g.HueRotation = math.Mod(h, 1)
		}
	case "palette":
		fp.paletteIndex, err = parseInt(a.Value)
	case "palette_mode":
		switch a.Value {
		case "step":
			g.PaletteMode = PaletteStep
		case "linear":
			g.PaletteMode = PaletteLinear
		default:
			fp.warnf(line, "unknown palette_mode %q, using step", a.Value)
		}
	case "interpolation":
		g.Interpolation = a.Value
		if a.Value != "linear" && a.Value != "smooth" {
			fp.warnf(line, "unknown interpolation %q", a.Value)
		}
	case "soloxform":
		var v float64
		if v, err = parseFloat(a.Value); err == nil {
			fp.solo = int(v)
		}
	case "symmetry":
		// Not read by flam3, which writes <symmetry kind="N"/>; accepted here
		// as the same thing.
		if fp.symAttr, err = parseInt(a.Value); err == nil && absInt(fp.symAttr) > maxSymmetry {
			return fp.errorf(line, "symmetry %d out of range", fp.symAttr)
		}
	default:
		// Everything else (time, version, Apophysis/Fractorium extensions
		// ...) is ignored, as flam3 does, unless --strict finds it matters.
		if ok, err := fp.cameraAttr(a); ok || err != nil {
			return err
		}
		if ok, err := fp.filterAttr(a); ok || err != nil {
			return err
		}
		if ok, err := fp.extFlameAttr(a); ok || err != nil {
			return err
		}
		return fp.otherFlameAttr(a)
	}
	if err != nil {
		return fp.badValue(line, a)
	}
	return nil
}

// finish applies what needs the whole flame: expansions, chaos rows, the
// solo xform, the palette; then validates.
func (fp *flameParser) finish() (*Genome, error) {
	g := fp.g
	if err := fp.composeFinals(); err != nil {
		return nil, err
	}
	if fp.symAttr != 0 {
		if err := fp.addSymmetry(fp.symAttr, fp.line); err != nil {
			return nil, err
		}
	}
	n := len(g.Xforms)
	for i, raw := range fp.chaos {
		if raw == nil {
			continue
		}
		row := make([]float64, n)
		for j := range row {
			row[j] = 1
		}
		ones := true
		for j, v := range raw {
			if j >= n {
				if v != 1 {
					fp.warnf(fp.chaosLine[i], "xform %d: chaos entries beyond the %d xforms ignored", i, n)
				}
				break
			}
			row[j] = v
			ones = ones && v == 1
		}
		if !ones {
			g.Xforms[i].Chaos = row
		}
	}
	if fp.solo >= 0 {
		for i := range g.Xforms {
			if i != fp.solo {
				g.Xforms[i].Opacity = 0
			}
		}
	}
	if fp.paletteIndex != -1 {
		p, err := fp.libraryPalette(fp.paletteIndex, g.HueRotation)
		if err != nil {
			return nil, err
		}
		fp.pal.setAll(p)
	}
	if !fp.pal.fillGaps() {
		if fp.p.opts.Strict {
			return nil, fp.errorf(fp.line, "no palette given (strict: it would render black)")
		}
		fp.warnf(fp.line, "no palette given: all colours are black")
	}
	g.Palette = fp.pal.pal
	if err := fp.finishFilter(); err != nil {
		return nil, err
	}
	if err := g.Validate(); err != nil {
		var ge *GenomeError
		if errors.As(err, &ge) {
			ge.File, ge.Line = fp.p.file, fp.line
		}
		return nil, err
	}
	return g, nil
}

var errBadCount = errors.New("wrong number of values")

// parseFloat reads a number as flam3's strtod does, but forgives spaces
// around it.
func parseFloat(s string) (float64, error) {
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

// parseInt reads an integer; JWildfire writes some as "1.0", which is
// accepted when the value is whole (flam3's atoi would read 1 too).
func parseInt(s string) (int, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil {
		if f, ferr := parseFloat(s); ferr == nil && f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32 {
			return int(f), nil
		}
	}
	return int(v), err
}

// parseFloats reads n space-separated numbers, or any number when n < 0.
func parseFloats(s string, n int) ([]float64, error) {
	f := strings.Fields(s)
	if n >= 0 && len(f) != n {
		return nil, errBadCount
	}
	v := make([]float64, len(f))
	for i, t := range f {
		var err error
		if v[i], err = strconv.ParseFloat(t, 64); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func parseInts(s string, n int) ([]int, error) {
	f := strings.Fields(s)
	if len(f) != n {
		return nil, errBadCount
	}
	v := make([]int, n)
	for i, t := range f {
		var err error
		if v[i], err = parseInt(t); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
