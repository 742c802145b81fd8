package flame

// JWildfire's spatial filter attributes of <flame> (filters_jwf.go):
// filter_kernel, filter_type, filter_sharpness, filter_low_density and
// filter_indicator. JWildfire writes all five; a genome with any of them
// is filtered as JWildfire filters, with JWildfire's defaults for what it
// does not write. flam3's genomes have none and keep flam3's filter.

import (
	"encoding/xml"
	"fmt"
	"strings"
)

// jwfFilterAttrs collects one flame's attributes until it is read whole:
// filter_type's default depends on the kernel, wherever each is written.
type jwfFilterAttrs struct {
	seen                     bool // any of the five
	kernel                   FilterKernelType
	ftype                    FilteringType
	sharpness, lowDensity    float64
	sharpnessSet, lowDensSet bool
	indicator                bool
}

// filterAttr reads a JWildfire filter attribute; ok is false for any
// other name.
func (fp *flameParser) filterAttr(a xml.Attr) (ok bool, err error) {
	f := &fp.filter
	v := strings.TrimSpace(a.Value)
	switch a.Name.Local {
	case "filter_kernel":
		k, known := FilterKernelNames[v]
		if !known {
			// JWildfire's reader skips a name it does not know and keeps
			// its default kernel.
			if err := fp.unknownFilterValue(a.Name.Local, v, "JWildfire's default "+jwfDefaultKernel.String()); err != nil {
				return true, err
			}
		}
		f.kernel = k
	case "filter_type":
		t, known := FilteringTypeNames[v]
		if !known {
			if err := fp.unknownFilterValue(a.Name.Local, v, "filed by its kernel"); err != nil {
				return true, err
			}
		}
		f.ftype = t
	case "filter_sharpness":
		f.sharpness, err = parseFloat(v)
		f.sharpnessSet = true
	case "filter_low_density":
		f.lowDensity, err = parseFloat(v)
		f.lowDensSet = true
	case "filter_indicator":
		var i int
		i, err = parseInt(v)
		f.indicator = i == 1 // JWildfire's test
	default:
		return false, nil
	}
	if err != nil {
		return true, fp.badValue(fp.line, a)
	}
	f.seen = true
	return true, nil
}

// unknownFilterValue is a filter_kernel or filter_type value JWildfire
// does not define: an error under --strict, else a warning saying what
// procgen uses instead (what JWildfire's reader does).
func (fp *flameParser) unknownFilterValue(attr, value, instead string) error {
	if fp.p.opts.Strict {
		l, c := fp.p.attrPos(fp.off, attr)
		return &AttrError{File: fp.p.file, Line: l, Col: c, Index: fp.index, Flame: fp.g.Name, Attr: attr,
			Msg: fmt.Sprintf("unknown %s %q (--strict)", attr, value)}
	}
	fp.warnf(fp.line, "unknown %s %q ignored: %s", attr, value, instead)
	return nil
}

// finishFilter puts the flame's JWildfire filter into the genome and says
// what procgen draws otherwise than JWildfire.
func (fp *flameParser) finishFilter() error {
	f, g := &fp.filter, fp.g
	if !f.seen {
		return nil
	}
	g.SpatialFilterKernel = f.kernel
	if g.SpatialFilterKernel == KernelNone {
		g.SpatialFilterKernel = jwfDefaultKernel
	}
	g.SpatialFilteringType = f.ftype
	if g.SpatialFilteringType == FilteringNone {
		g.SpatialFilteringType = g.SpatialFilterKernel.filteringType()
	}
	g.SpatialFilterSharpness, g.SpatialFilterLowDensity = jwfDefaultSharpness, jwfDefaultLowDensity
	if f.sharpnessSet {
		g.SpatialFilterSharpness = f.sharpness
	}
	if f.lowDensSet {
		g.SpatialFilterLowDensity = f.lowDensity
	}
	g.SpatialFilterIndicator = f.indicator
	k := g.SpatialFilterKernel
	switch {
	case k.adaptive():
		if err := fp.approximated("filter_kernel", k.String(), "JWildfire picks SINEPOW10 or MITCHELL_SMOOTH "+
			"per pixel by density (filter_low_density) and edges (filter_sharpness); procgen filters every pixel "+
			"with MITCHELL_SMOOTH at the filter radius, density included"); err != nil {
			return err
		}
	case k.sharpening():
		if err := fp.approximated("filter_kernel", k.String(), "JWildfire filters the density of a sharpening "+
			"kernel with a Gaussian of radius 0.75; procgen filters colour and density with the kernel"); err != nil {
			return err
		}
	}
	if g.SpatialFilterIndicator && g.SpatialFilteringType == FilteringAdaptive {
		// JWildfire then draws a false-colour map of its filter choice.
		return fp.notHonoured("flame attribute", "filter_indicator", "flame", fp.off, fp.line)
	}
	return nil
}
