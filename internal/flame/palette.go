package flame

import (
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

// PaletteFile is a library of numbered palettes, as in flam3's
// flam3-palettes.xml; a genome's palette="N" picks one by number.
type PaletteFile struct {
	Palettes []IndexedPalette
}

// IndexedPalette is one palette of a PaletteFile, in 8-bit RGB.
type IndexedPalette struct {
	Number int
	Name   string
	Colors [256][3]uint8
}

// Lookup returns the first palette numbered n (flam3 takes the first too).
func (f *PaletteFile) Lookup(n int) (*IndexedPalette, bool) {
	if f == nil {
		return nil, false
	}
	for i := range f.Palettes {
		if f.Palettes[i].Number == n {
			return &f.Palettes[i], true
		}
	}
	return nil, false
}

// Palette returns the colours of p with their hue rotated by hue turns
// (flam3_get_palette: RGB to HSV, h += 6·hue, back to RGB), alpha 1.
func (p *IndexedPalette) Palette(hue float64) Palette {
	var out Palette
	for i, c := range p.Colors {
		r, g, b := float64(c[0])/255, float64(c[1])/255, float64(c[2])/255
		if hue != 0 {
			h, s, v := rgbToHSV(r, g, b)
			r, g, b = hsvToRGB(wrapHue(h+6*hue), s, v)
		}
		out[i] = [4]float64{r, g, b, 1}
	}
	return out
}

// wrapHue brings a hue into [0,6) without the unbounded loops of a naive
// reduction, so hostile input cannot stall hsvToRGB.
func wrapHue(h float64) float64 {
	if math.IsNaN(h) || math.IsInf(h, 0) {
		return 0
	}
	h = math.Mod(h, 6)
	if h < 0 {
		h += 6
	}
	if h >= 6 {
		h = 0
	}
	return h
}

// LoadPaletteFile reads a flam3 palette library (flam3-palettes.xml):
// <palette number="N" name="..." data="00RRGGBB..."/> elements anywhere in
// the document, 256 colours each.
func LoadPaletteFile(path string) (*PaletteFile, error) {
	f, err := input.Open(context.Background(), path, input.Palette)
	if err != nil {
		return nil, fmt.Errorf("flame: palette file: %w", err)
	}
	defer f.Close()
	return ReadPaletteFile(f, path)
}

// ReadPaletteFile is LoadPaletteFile on an open reader; name labels errors.
func ReadPaletteFile(r io.Reader, name string) (*PaletteFile, error) {
	d := newDecoder(r)
	pf := &PaletteFile{}
	for {
		line, col := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			l, c := d.InputPos()
			if l == 0 {
				l, c = line, col
			}
			return nil, &SyntaxError{File: name, Line: l, Col: c, Msg: xmlErrorText(err)}
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "palette" {
			continue
		}
		p := IndexedPalette{Number: -1}
		var data string
		haveData := false
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "number":
				n, err := strconv.Atoi(strings.TrimSpace(a.Value))
				if err != nil {
					return nil, fmt.Errorf("%s:%d: palette: bad number %q", name, line, a.Value)
				}
				p.Number = n
			case "name":
				p.Name = a.Value
			case "data":
				data, haveData = a.Value, true
			}
		}
		if !haveData {
			return nil, fmt.Errorf("%s:%d: palette %d has no data attribute", name, line, p.Number)
		}
		cols, extra, err := parseHexColors(data, 256, 4, true)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: palette %d: %w", name, line, p.Number, err)
		}
		if extra {
			return nil, fmt.Errorf("%s:%d: palette %d: data after 256 colours", name, line, p.Number)
		}
		for i, c := range cols {
			p.Colors[i] = [3]uint8{uint8(c[0]), uint8(c[1]), uint8(c[2])}
		}
		pf.Palettes = append(pf.Palettes, p)
	}
	if len(pf.Palettes) == 0 {
		return nil, fmt.Errorf("%s: no <palette> elements", name)
	}
	return pf, nil
}

// parseHexColors decodes n colours of size bytes each from hexadecimal
// text, ignoring all whitespace (writers wrap lines anywhere). With
// skipFirst the first byte of each colour is ignored (Apophysis's 00RRGGBB
// and flam3's palette library); size 4 without it is RGBA. Components are
// returned as 0..255 values, alpha 255 unless given. extra reports
// non-whitespace text after the n colours.
func parseHexColors(s string, n, size int, skipFirst bool) (cols [][4]float64, extra bool, err error) {
	hex := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' {
			return -1
		}
		return r
	}, s)
	need := n * size * 2
	if len(hex) < need {
		return nil, false, fmt.Errorf("hex colour data holds %d of %d colours", len(hex)/(size*2), n)
	}
	cols = make([][4]float64, n)
	for i := range cols {
		var b [4]float64
		for j := range size {
			k := (i*size + j) * 2
			v, err := strconv.ParseUint(hex[k:k+2], 16, 8)
			if err != nil {
				return nil, false, fmt.Errorf("bad hex colour data %q at colour %d", hex[k:k+2], i)
			}
			b[j] = float64(v)
		}
		switch {
		case skipFirst:
			cols[i] = [4]float64{b[1], b[2], b[3], 255}
		case size == 4:
			cols[i] = b
		default:
			cols[i] = [4]float64{b[0], b[1], b[2], 255}
		}
	}
	return cols, len(hex) > need, nil
}

// paletteBuilder collects a genome's colours as the XML gives them,
// remembering which entries were set so that flam3's gap filling can run.
type paletteBuilder struct {
	pal Palette
	set [256]bool
}

// setRGBA stores entry i from 0..255 components; rgb is premultiplied by
// alpha as flam3 does for <color rgba=...>.
func (b *paletteBuilder) setRGBA(i int, r, g, bl, a float64, premultiply bool) {
	a /= 255
	if premultiply {
		b.pal[i] = [4]float64{a * r / 255, a * g / 255, a * bl / 255, a}
	} else {
		b.pal[i] = [4]float64{r / 255, g / 255, bl / 255, a}
	}
	b.set[i] = true
}

func (b *paletteBuilder) setAll(p Palette) {
	b.pal = p
	for i := range b.set {
		b.set[i] = true
	}
}

// fillGaps interpolates entries no element set between their set
// neighbours, wrapping around the ends (flam3_interp_missing_colors). It
// reports false when no entry was set at all; the palette then stays black.
func (b *paletteBuilder) fillGaps() bool {
	lo, hi := -1, -1
	for i, ok := range b.set {
		if ok {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo < 0 {
		return false
	}
	for i := 0; i < 256; {
		if b.set[i] {
			i++
			continue
		}
		start := i
		for i < 256 && !b.set[i] {
			i++
		}
		// Gap [start, i): left neighbour start-1, right neighbour i, each
		// wrapping to the far end with positions shifted by 256.
		left, leftPos := start-1, float64(start-1)
		if left < 0 {
			left, leftPos = hi, float64(hi-256)
		}
		right, rightPos := i, float64(i)
		if right > 255 {
			right, rightPos = lo, float64(lo+256)
		}
		cl, cr := b.pal[left], b.pal[right]
		for j := start; j < i; j++ {
			t := (float64(j) - leftPos) / (rightPos - leftPos)
			for k := range 4 {
				b.pal[j][k] = cl[k]*(1-t) + cr[k]*t
			}
		}
	}
	for i := range b.set {
		b.set[i] = true
	}
	return true
}

// blendPalettes is flam3's old two-palette form (<palette index0 hue0
// index1 hue1 blend>): both library palettes in HSV, the hue taking the
// shorter way round, mixed by blend (interpolate_cmap).
func blendPalettes(p0, p1 Palette, blend float64) Palette {
	var out Palette
	for i := range out {
		h0, s0, v0 := rgbToHSV(p0[i][0], p0[i][1], p0[i][2])
		h1, s1, v1 := rgbToHSV(p1[i][0], p1[i][1], p1[i][2])
		if h0-h1 > 3 {
			h0 -= 6
		}
		if h0-h1 < -3 {
			h0 += 6
		}
		mix := func(a, b float64) float64 { return (1-blend)*a + blend*b }
		r, g, bl := hsvToRGB(wrapHue(mix(h0, h1)), mix(s0, s1), mix(v0, v1))
		out[i] = [4]float64{r, g, bl, mix(p0[i][3], p1[i][3])}
	}
	return out
}

// errNoPaletteFile explains a palette index that cannot be resolved.
var errNoPaletteFile = errors.New("no palette file was given (flam3-palettes.xml)")

// color reads <color index="i" rgb="r g b"/> (or rgba="r g b a", or a
// separate a="..."), components 0..255.
func (fp *flameParser) color(se xml.StartElement, line int) error {
	index := -1
	var c [3]float64
	alpha := 255.0
	for _, a := range se.Attr {
		var err error
		switch a.Name.Local {
		case "index":
			index, err = parseInt(a.Value)
		case "rgb":
			var v []float64
			if v, err = parseFloats(a.Value, 3); err == nil {
				copy(c[:], v)
			}
		case "rgba":
			var v []float64
			if v, err = parseFloats(a.Value, 4); err == nil {
				copy(c[:], v)
				alpha = v[3]
			}
		case "a":
			alpha, err = parseFloat(a.Value)
		default:
			fp.warnOnce("color attr "+a.Name.Local, line, "color: unknown attribute %q ignored", a.Name.Local)
		}
		if err != nil {
			return fp.errorf(line, "color: bad %s value %q", a.Name.Local, a.Value)
		}
	}
	if index < 0 || index > 255 {
		return fp.errorf(line, "color: missing or bad index (%d)", index)
	}
	fp.pal.setRGBA(index, c[0], c[1], c[2], alpha, true)
	return fp.p.skip()
}

// colors reads Apophysis's <colors count="256" data="00RRGGBB..."/>.
func (fp *flameParser) colors(se xml.StartElement, line int) error {
	count, data, haveData := 256, "", false
	for _, a := range se.Attr {
		switch a.Name.Local {
		case "count":
			var err error
			if count, err = parseInt(a.Value); err != nil {
				return fp.errorf(line, "colors: bad count %q", a.Value)
			}
		case "data":
			data, haveData = a.Value, true
		default:
			fp.warnOnce("colors attr "+a.Name.Local, line, "colors: unknown attribute %q ignored", a.Name.Local)
		}
	}
	if count < 1 || count > maxPaletteCount {
		return fp.errorf(line, "colors: count %d out of range 1..%d", count, maxPaletteCount)
	}
	if haveData {
		if err := fp.hexColors(data, count, 4, true, line, "colors"); err != nil {
			return err
		}
	}
	return fp.p.skip()
}

// palette reads <palette count="256" format="RGB|RGBA">hex</palette>, or
// flam3's old <palette index0="i" hue0="h" index1="j" hue1="k" blend="b"/>
// that blends two library palettes.
func (fp *flameParser) palette(se xml.StartElement, line int) error {
	count, size := 256, 3
	var newForm, oldForm bool
	index0, index1 := -1, -1
	var hue0, hue1 float64
	blend := 0.5
	for _, a := range se.Attr {
		var err error
		switch a.Name.Local {
		case "count":
			newForm = true
			count, err = parseInt(a.Value)
		case "format":
			newForm = true
			switch a.Value {
			case "RGB":
				size = 3
			case "RGBA":
				size = 4
			default:
				return fp.errorf(line, "palette: unknown format %q", a.Value)
			}
		case "index0":
			oldForm = true
			index0, err = parseInt(a.Value)
		case "index1":
			oldForm = true
			index1, err = parseInt(a.Value)
		case "hue0":
			oldForm = true
			hue0, err = parseFloat(a.Value)
		case "hue1":
			oldForm = true
			hue1, err = parseFloat(a.Value)
		case "blend":
			oldForm = true
			blend, err = parseFloat(a.Value)
		default:
			fp.warnOnce("palette attr "+a.Name.Local, line, "palette: unknown attribute %q ignored", a.Name.Local)
		}
		if err != nil {
			return fp.errorf(line, "palette: bad %s value %q", a.Name.Local, a.Value)
		}
	}
	if newForm && oldForm {
		return fp.errorf(line, "palette: old (index0/index1) and new (count/format) forms mixed")
	}
	if oldForm {
		if index0 < 0 || index1 < 0 {
			return fp.errorf(line, "palette: index0 and index1 are both needed (flam3 would pick at random)")
		}
		p0, err := fp.libraryPalette(index0, math.Mod(hue0, 1))
		if err != nil {
			return err
		}
		p1, err := fp.libraryPalette(index1, math.Mod(hue1, 1))
		if err != nil {
			return err
		}
		fp.pal.setAll(blendPalettes(p0, p1, blend))
		return fp.p.skip()
	}
	if count < 1 || count > maxPaletteCount {
		return fp.errorf(line, "palette: count %d out of range 1..%d", count, maxPaletteCount)
	}
	// The colours are the element's text.
	var text strings.Builder
	for depth := 0; ; {
		tok, _, err := fp.p.inner()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.CharData:
			text.Write(t)
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth == 0 {
				return fp.hexColors(text.String(), count, size, false, line, "palette")
			}
			depth--
		}
	}
}

func (fp *flameParser) hexColors(data string, count, size int, skipFirst bool, line int, elem string) error {
	cols, extra, err := parseHexColors(data, count, size, skipFirst)
	if err != nil {
		return fp.errorf(line, "%s: %v", elem, err)
	}
	if extra {
		fp.warnf(line, "%s: data after %d colours ignored", elem, count)
	}
	if len(cols) > 256 {
		cols = resamplePalette(cols)
	}
	for i, c := range cols {
		fp.pal.setRGBA(i, c[0], c[1], c[2], c[3], false)
	}
	return nil
}

// libraryPalette resolves a palette number; a number missing from the
// library gives white with a warning, as in flam3.
func (fp *flameParser) libraryPalette(n int, hue float64) (Palette, error) {
	if fp.p.opts.Palettes == nil {
		return Palette{}, fp.errorf(fp.line, "palette %d: %v", n, errNoPaletteFile)
	}
	ip, ok := fp.p.opts.Palettes.Lookup(n)
	if !ok {
		if fp.p.opts.Strict {
			return Palette{}, fp.errorf(fp.line, "palette %d is not in the palette file", n)
		}
		fp.warnf(fp.line, "palette %d not in the palette file: using white", n)
		var white Palette
		for i := range white {
			white[i] = [4]float64{1, 1, 1, 1}
		}
		return white, nil
	}
	return ip.Palette(hue), nil
}
