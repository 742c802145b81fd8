package forest

import (
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxSpeciesFile bounds a species file handed to ParseSpecies as any
// reader: input.Species, the bound of the command's read, is the same.
const maxSpeciesFile = 4 << 20

// SpeciesEntry is one species of a parameter file.
type SpeciesEntry struct {
	Species
	// Names are other spellings stem maps use for it (codes, Latin names).
	Names []string
	// Line is the entry's line in the file.
	Line int
	// HasSTR says whether the file sets str: it has no default, and a run
	// that uses the species without it fails.
	HasSTR bool
	// given records which kernel parameters the file sets (for the species
	// or under defaults), so that a missing one is reported as not set
	// while a 0 written in the file is reported as out of range.
	given givenParams
}

// givenParams is a set of kernel parameters a species file sets.
type givenParams uint16

const (
	givenD givenParams = 1 << iota
	givenTheta
	givenX0
	givenXb
	givenP
	givenU
	givenA
	givenB
	givenW
	givenFirst
	givenSecond
	givenKernel
)

// unset says which parameters its kernel needs that the file leaves out,
// or "" when none is missing.
func (e SpeciesEntry) unset() string {
	switch e.Kernel {
	case Weibull, "":
		if e.given&givenD == 0 {
			return "d not set: give the Weibull dispersal parameter d (D, called U in the paper), e.g. d: 1e-4"
		}
		if e.given&givenTheta == 0 {
			return "theta not set: give the Weibull shape theta (3 in SORTIE-ND's parameter files), " +
				"for the species or under defaults"
		}
	case Lognormal:
		if e.given&(givenX0|givenXb) != givenX0|givenXb {
			return "x0 and xb not set: the lognormal kernel needs its median distance x0 (m) and spread xb"
		}
	case TwoDt:
		if e.given&(givenP|givenU) != givenP|givenU {
			return "p and u not set: the 2Dt kernel (Clark et al. 1999) needs its shape p and scale u (m^2)"
		}
	case ExpPower:
		if e.given&(givenA|givenB) != givenA|givenB {
			return "a and b not set: the exponential power kernel needs its scale a (m) and shape b"
		}
	case Exponential, Gaussian:
		if e.given&givenA == 0 {
			return "a not set: the " + string(e.Kernel) + " kernel needs its scale a (m)"
		}
	case Mixture:
		if e.given&(givenW|givenFirst|givenSecond) != givenW|givenFirst|givenSecond {
			return "w, first and second not set: a mixture needs the weight w of its first component and " +
				"both components (mappings with a kernel and its parameters)"
		}
	}
	return ""
}

// SpeciesTable is a parsed species parameter file.
type SpeciesTable struct {
	File    string
	Entries []SpeciesEntry
	// Other is the "*" entry, for species the file does not name; nil if none.
	Other *SpeciesEntry
}

// The YAML keys of a species entry (and of "defaults").
const (
	keyNames  = "names"
	keyKernel = "kernel"
	keySTR    = "str"
	keyBeta   = "beta"
	keyD      = "d"
	keyTheta  = "theta"
	keyX0     = "x0"
	keyXb     = "xb"
	keyMinDBH = "min_dbh"
	// 2Dt (Clark et al. 1999), exponential power, mixtures, realisations.
	keyP        = "p"
	keyU        = "u"
	keyA        = "a"
	keyB        = "b"
	keyW        = "w"
	keyFirst    = "first"
	keySecond   = "second"
	keyClumping = "clumping"
)

var speciesKeys = []string{keyNames, keyKernel, keySTR, keyBeta, keyD, keyTheta, keyX0, keyXb, keyP, keyU, keyA,
	keyB, keyW, keyFirst, keySecond, keyMinDBH, keyClumping}

// ParseSpecies reads a species parameter file:
//
//	defaults:            # optional: what every entry gets unless it says otherwise
//	  theta: 3
//	  min_dbh: 15
//	species:
//	  subalpine-fir:
//	    names: [Bl, Abies lasiocarpa]   # optional other spellings
//	    str: 120                        # recruits/year from a 30 cm parent
//	    d: 1.32e-4
//	  "*": {...}                        # optional: any species not named
//
// Keys: kernel (weibull, the default, lognormal, 2dt, exppow, exponential,
// gaussian or mixture), str, beta (default 2), d and theta (Weibull), x0 and
// xb (lognormal), p and u (2Dt), a and b (exponential power; a alone for
// exponential and gaussian), w, first and second (mixture: first and second
// are mappings with a kernel and its parameters), min_dbh (cm, default 0),
// clumping (the negative binomial k of realised counts, 0: Poisson), names.
// Errors name file:line:col.
func ParseSpecies(r io.Reader, file string) (*SpeciesTable, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxSpeciesFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > maxSpeciesFile {
		return nil, fmt.Errorf("%s: larger than %d MiB; is it a species file?", file, maxSpeciesFile>>20)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(file, err)
	}
	p := speciesParser{file: file}
	t, err := p.table(&doc)
	if err != nil {
		return nil, err
	}
	return t, nil
}

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlError turns "yaml: line 3: ..." into "file:3: invalid YAML: ...".
func yamlError(file string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s: invalid YAML: %s", file, strings.Join(te.Errors, "; "))
	}
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1]) // none: the first line
		msg := m[2]
		if strings.HasPrefix(msg, "did not find expected") {
			// The parser's errors give the 0-based line where the enclosing
			// mapping or list starts; the scanner's, the 1-based line of
			// the problem.
			line++
			msg += " (in the mapping or list that starts on this line)"
		}
		return fmt.Errorf("%s:%d: invalid YAML: %s", file, max(line, 1), msg)
	}
	return fmt.Errorf("%s: invalid YAML: %v", file, err)
}

type speciesParser struct{ file string }

func (p *speciesParser) errorf(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: "+format, append([]any{p.file, n.Line, n.Column}, args...)...)
}

// deref follows aliases (a bounded number of times: anchors cannot refer to
// themselves, but the bound costs nothing).
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; i < 16 && n != nil && n.Kind == yaml.AliasNode; i++ {
		n = n.Alias
	}
	return n
}

func (p *speciesParser) table(doc *yaml.Node) (*SpeciesTable, error) {
	t := &SpeciesTable{File: p.file}
	if doc.Kind == 0 || (doc.Kind == yaml.DocumentNode && len(doc.Content) == 0) {
		return nil, fmt.Errorf("%s: empty species file: want a 'species:' mapping", p.file)
	}
	root := deref(doc)
	if root.Kind == yaml.DocumentNode {
		root = deref(root.Content[0])
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, p.errorf(orDoc(root, doc), "want a mapping with 'species:' (and optionally 'defaults:')")
	}
	var defaults, species *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], deref(root.Content[i+1])
		switch k.Value {
		case "defaults":
			defaults = v
		case "species":
			species = v
		default:
			return nil, p.errorf(k, "unknown key %q: want species or defaults", k.Value)
		}
		if v == nil || v.Kind != yaml.MappingNode {
			return nil, p.errorf(k, "%s: want a mapping", k.Value)
		}
	}
	if species == nil {
		return nil, p.errorf(root, "no 'species:' mapping")
	}
	base := SpeciesEntry{Species: Species{Kernel: Weibull, Beta: 2}}
	if defaults != nil {
		if err := p.fields(defaults, &base, false); err != nil {
			return nil, err
		}
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(species.Content); i += 2 {
		k, v := species.Content[i], deref(species.Content[i+1])
		name := strings.TrimSpace(k.Value)
		if name == "" || k.Kind != yaml.ScalarNode {
			return nil, p.errorf(k, "want a species name")
		}
		if v == nil || v.Kind != yaml.MappingNode {
			return nil, p.errorf(k, "species %q: want a mapping of parameters", name)
		}
		e := base
		e.Names = nil
		e.Name = name
		e.Line = k.Line
		if err := p.fields(v, &e, true); err != nil {
			return nil, err
		}
		for _, alias := range append([]string{name}, e.Names...) {
			key := foldName(alias)
			if line, dup := seen[key]; dup {
				return nil, p.errorf(k, "species %q: the name %q is already used at line %d", name, alias, line)
			}
			seen[key] = k.Line
		}
		if name == "*" {
			e := e
			t.Other = &e
			continue
		}
		t.Entries = append(t.Entries, e)
	}
	if len(t.Entries) == 0 && t.Other == nil {
		return nil, p.errorf(species, "no species")
	}
	return t, nil
}

func orDoc(n, doc *yaml.Node) *yaml.Node {
	if n == nil {
		return doc
	}
	return n
}

// fields sets e's parameters from the mapping m.
func (p *speciesParser) fields(m *yaml.Node, e *SpeciesEntry, entry bool) error {
	done := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], deref(m.Content[i+1])
		if v == nil {
			return p.errorf(k, "%s: bad alias", k.Value)
		}
		key := k.Value
		if done[key] {
			return p.errorf(k, "%s given twice", key)
		}
		done[key] = true
		var err error
		switch key {
		case keyNames:
			if !entry {
				return p.errorf(k, "names belong to a species, not to defaults")
			}
			e.Names, err = p.strings(v)
		case keyKernel:
			e.Kernel, err = p.kernel(v)
			e.given |= givenKernel
		case keySTR:
			if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
				e.HasSTR = false // explicitly left for the user
				continue
			}
			e.STR, err = p.number(v, key)
			e.HasSTR = err == nil
		case keyBeta:
			e.Beta, err = p.number(v, key)
		case keyD:
			e.D, err = p.number(v, key)
			e.given |= givenD
		case keyTheta:
			e.Theta, err = p.number(v, key)
			e.given |= givenTheta
		case keyX0:
			e.X0, err = p.number(v, key)
			e.given |= givenX0
		case keyXb:
			e.Xb, err = p.number(v, key)
			e.given |= givenXb
		case keyMinDBH:
			e.MinDBH, err = p.number(v, key)
		case keyClumping:
			e.Clumping, err = p.number(v, key)
		case keyP, keyU, keyA, keyB, keyW, keyFirst, keySecond:
			err = p.familyField(k, v, e)
		default:
			return p.errorf(k, "unknown key %q: want one of %s", key, strings.Join(speciesKeys, ", "))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// kernel reads a kernel name.
func (p *speciesParser) kernel(v *yaml.Node) (KernelKind, error) {
	s := KernelKind(strings.ToLower(strings.TrimSpace(v.Value)))
	switch s {
	case Weibull, Lognormal, TwoDt, ExpPower, Exponential, Gaussian, Mixture:
		if v.Kind == yaml.ScalarNode {
			return s, nil
		}
	}
	return "", p.errorf(v, "kernel %q: want %s", v.Value, kernelNames)
}

func (p *speciesParser) number(v *yaml.Node, key string) (float64, error) {
	if v.Kind != yaml.ScalarNode {
		return 0, p.errorf(v, "%s: want a number", key)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, p.errorf(v, "%s: %q is not a number", key, v.Value)
	}
	return f, nil
}

func (p *speciesParser) strings(v *yaml.Node) ([]string, error) {
	if v.Kind == yaml.ScalarNode {
		return []string{strings.TrimSpace(v.Value)}, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, p.errorf(v, "names: want a list of names")
	}
	var out []string
	for _, c := range v.Content {
		c = deref(c)
		if c == nil || c.Kind != yaml.ScalarNode || strings.TrimSpace(c.Value) == "" {
			return nil, p.errorf(v, "names: want a list of names")
		}
		out = append(out, strings.TrimSpace(c.Value))
	}
	return out, nil
}

// foldName is how species names are compared: case and surrounding space
// do not matter ("Sx", "SX ").
func foldName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Lookup finds the entry for a stem map's species name: by name or one of
// its names (case-insensitive), else the "*" entry under that name.
func (t *SpeciesTable) Lookup(name string) (SpeciesEntry, bool) {
	key := foldName(name)
	for _, e := range t.Entries {
		if foldName(e.Name) == key {
			return e, true
		}
		for _, n := range e.Names {
			if foldName(n) == key {
				return e, true
			}
		}
	}
	if t.Other != nil {
		e := *t.Other
		e.Name = name
		return e, true
	}
	return SpeciesEntry{}, false
}

// Resolution maps a stem map's species names to the layers of a run.
type Resolution struct {
	// Species are the layers' parameters, sorted by name.
	Species []Species
	// Index maps a stem map name to its index in Species; names mapped to
	// the same entry share a layer.
	Index map[string]int
	// Skipped are the names the file does not have (with skipUnknown).
	Skipped []string
}

// Resolve finds parameters for every name a stem map uses. A name the file
// does not have is an error listing what it does name, unless skipUnknown;
// an entry without str, or with bad values, is an error naming its line.
func (t *SpeciesTable) Resolve(names []string, skipUnknown bool) (*Resolution, error) {
	res := &Resolution{Index: map[string]int{}}
	byLayer := map[string]SpeciesEntry{}
	layerOf := map[string]string{}
	var unknown []string
	for _, n := range names {
		e, ok := t.Lookup(n)
		if !ok {
			unknown = append(unknown, n)
			continue
		}
		byLayer[e.Name] = e
		layerOf[n] = e.Name
	}
	sort.Strings(unknown)
	if len(unknown) > 0 && !skipUnknown {
		return nil, fmt.Errorf("%s does not name %d species of the stem map: %s (it names %s; add them, "+
			"add a \"*\" entry for all others, or pass --skip-unknown)", t.File, len(unknown),
			quoteList(unknown, 12), quoteList(t.names(), 24))
	}
	res.Skipped = unknown
	layers := make([]string, 0, len(byLayer))
	for name := range byLayer {
		layers = append(layers, name)
	}
	sort.Strings(layers)
	idx := map[string]int{}
	for i, name := range layers {
		e := byLayer[name]
		where := fmt.Sprintf("%s:%d", t.File, e.Line)
		if !e.HasSTR {
			return nil, fmt.Errorf("%s: species %q: str is not set: it is the number of recruits (or seeds) a "+
				"30 cm parent produces per year and has no default; calibrate it (every density is proportional "+
				"to it; configs/forest/bc-sbs.yaml says how) and set it in the file", where, name)
		}
		if msg := e.unset(); msg != "" {
			return nil, fmt.Errorf("%s: species %q: %s", where, name, msg)
		}
		if err := e.Species.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		idx[name] = i
		res.Species = append(res.Species, e.Species)
	}
	for n, layer := range layerOf {
		res.Index[n] = idx[layer]
	}
	return res, nil
}

func (t *SpeciesTable) names() []string {
	var out []string
	for _, e := range t.Entries {
		out = append(out, e.Name)
	}
	return out
}

// quoteList quotes up to max names and says how many more there are.
func quoteList(names []string, max int) string {
	if len(names) == 0 {
		return "nothing"
	}
	var q []string
	for i, n := range names {
		if i == max {
			q = append(q, fmt.Sprintf("and %d more", len(names)-max))
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}
