package forest

import (
	"go.yaml.in/yaml/v3"
)

// The species-file keys of the 2Dt, exponential power and mixture kernels
// (kernels.go), apart from species.go's parser loop.

// familyField sets the parameter key k of e from v.
func (p *speciesParser) familyField(k, v *yaml.Node, e *SpeciesEntry) error {
	var err error
	switch k.Value {
	case keyP:
		e.P, err = p.number(v, k.Value)
		e.given |= givenP
	case keyU:
		e.U, err = p.number(v, k.Value)
		e.given |= givenU
	case keyA:
		e.A, err = p.number(v, k.Value)
		e.given |= givenA
	case keyB:
		e.B, err = p.number(v, k.Value)
		e.given |= givenB
	case keyW:
		var w float64
		if w, err = p.number(v, k.Value); err == nil {
			m := e.mixture()
			m.W = w
		}
		e.given |= givenW
	case keyFirst, keySecond:
		var c Species
		if c, err = p.component(k, v); err == nil {
			m := e.mixture()
			if k.Value == keyFirst {
				m.First = c
				e.given |= givenFirst
			} else {
				m.Second = c
				e.given |= givenSecond
			}
		}
	}
	return err
}

// mixture returns e's mixture parameters as a copy of its own: an entry
// starts as a copy of the defaults, whose pointer it must not write
// through.
func (e *SpeciesEntry) mixture() *MixtureParams {
	var m MixtureParams
	if e.Mix != nil {
		m = *e.Mix
	}
	e.Mix = &m
	return &m
}

// component reads a mixture component: a mapping with a kernel (not a
// mixture) and that kernel's parameters, nothing that belongs to the
// species.
func (p *speciesParser) component(k, v *yaml.Node) (Species, error) {
	if v.Kind != yaml.MappingNode {
		return Species{}, p.errorf(v, "%s: want a mapping with a kernel and its parameters, e.g. "+
			"{kernel: 2dt, p: 1, u: 400}", k.Value)
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		switch c := v.Content[i]; c.Value {
		case keyNames, keySTR, keyBeta, keyMinDBH, keyClumping, keyW, keyFirst, keySecond:
			return Species{}, p.errorf(c, "%s: %s belongs to the species, not to a mixture component", k.Value, c.Value)
		}
	}
	c := SpeciesEntry{}
	if err := p.fields(v, &c, false); err != nil {
		return Species{}, err
	}
	switch {
	case c.given&givenKernel == 0:
		return Species{}, p.errorf(v, "%s: kernel not set: give the component's kernel (weibull, lognormal, 2dt, "+
			"exppow, exponential or gaussian)", k.Value)
	case c.Kernel == Mixture:
		return Species{}, p.errorf(v, "%s: a mixture's components cannot be mixtures", k.Value)
	}
	if msg := c.unset(); msg != "" {
		return Species{}, p.errorf(v, "%s: %s", k.Value, msg)
	}
	return c.Species, nil
}
