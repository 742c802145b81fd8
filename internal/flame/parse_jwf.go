package flame

// JWildfire's multi-layer files: <jwf-flame> holds the flame's settings
// and one <layer> per layer (its xforms, finals and palette), which
// JWildfire renders separately and mixes by each layer's weight. procgen
// renders the first layer and says so; under --strict the other layers are
// an error, since they are not drawn.

import "encoding/xml"

func (p *parser) jwfFlame(se xml.StartElement, line int) (*Genome, error) {
	fp, err := p.newFlame(se, line)
	if err != nil {
		return nil, err
	}
	layers := 0
	for {
		tok, line, err := p.inner()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			if layers > 1 {
				fp.warnf(fp.line, "jwf-flame: only the first of %d layers is rendered (procgen does not mix layers)", layers)
			}
			return fp.finish()
		case xml.StartElement:
			if t.Name.Local != "layer" {
				if err := fp.element(t, line); err != nil {
					return nil, err
				}
				continue
			}
			layers++
			if layers > 1 {
				if p.opts.Strict {
					return nil, fp.notHonoured("element", "layer", "flame", p.off, line)
				}
				if err := p.skip(); err != nil {
					return nil, err
				}
				continue
			}
			if err := fp.layer(); err != nil {
				return nil, err
			}
		}
	}
}

// layer reads the children of the first <layer> as a flame's.
func (fp *flameParser) layer() error {
	for {
		tok, line, err := fp.p.inner()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if err := fp.element(t, line); err != nil {
				return err
			}
		}
	}
}
