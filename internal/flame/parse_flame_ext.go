package flame

import "encoding/xml"

// extFlameAttr reads the <flame> attributes of other programs that procgen
// honours and flam3 does not read: fuse (Fractorium: the iterations each
// start point discards, flam3's fixed FUSE_27 that Genome.Fuse holds; only
// the start's transient depends on it). ok is false for any other
// attribute. JWildfire's and Apophysis's enable_de="0" (no density
// estimation) is not honoured but reported: flam3 renders such files with
// their estimator, and the flam3 corpus has one (49_apo-cj-julian-technique3).
func (fp *flameParser) extFlameAttr(a xml.Attr) (ok bool, err error) {
	switch a.Name.Local {
	case "fuse": // its range is checked with the others' (ranges.go)
		v, err := parseInt(a.Value)
		if err != nil {
			return true, fp.badValue(fp.line, a)
		}
		fp.g.Fuse = v
		return true, nil
	}
	return false, nil
}
