package input

// Kind is a kind of input file. Its limit bounds what procgen reads of one:
// every input is read through this package, so no input (/dev/zero, a
// runaway generator on a pipe, a wrong file) can make a run allocate
// without bound before its content is even looked at.
type Kind uint8

// The kinds of input. Each limit is far above any real file of its kind
// (the largest of the shared corpus is named) and low enough that reading
// and parsing one stays within a workstation's memory.
const (
	// Genome: flam3 genome and animation XML (flame render, animate,
	// sequence, the genome chunk of a PNG). The corpus's largest is
	// 190 KB; a sequence of 50 000 keyframes of 5 KB still fits. Parsed
	// genomes take several times their text, so 256 MiB, not more.
	Genome Kind = iota + 1
	// CuburnJSON: cuburn edges, nodes and profiles; the JSON parser's own
	// bound (flame.maxJSONBytes) is the same 64 MiB.
	CuburnJSON
	// Palette: flam3-palettes.xml is 1.5 MB for its 701 palettes.
	Palette
	// Config: --config and procgen.yaml hold a few dozen keys; 1 MiB
	// leaves room for comments and refuses a wrong file at once.
	Config
	// Source: hand-written rule files, L-systems and PGA grammars (the
	// corpus's are under 10 KB; a rules program is at most 8192 code
	// words), 16 MiB also holds generated ones.
	Source
	// Lots: pga --lots GeoJSON. A large city's parcels are a few hundred
	// MB of GeoJSON; decoded lots take about as much again.
	Lots
	// States: rules --states (JSON, CSV, RLE). One state is at most 2^24
	// words, about 32 MiB as text; 256 MiB holds several of the largest or
	// a million 16x16 boards (--generate makes more without a file), and
	// a refused file is read in well under a second.
	States
	// Species: forest species YAML; a few hundred species fit in a
	// fraction of 4 MiB, and the YAML parser's cost stays bounded.
	Species
	// StemMap: forest census tables, read a row at a time (the corpus's
	// largest is 3.4 MB; a full multi-census BCI table is a few hundred).
	StemMap
	// Image: PNGs read for their genome chunk or compared (a 16-bit 8K
	// render is about 400 MB).
	Image
	// Accum: flame merge parts. Their size is the render's (buckets times
	// 36 bytes); their header is checked against --max-memory before
	// anything is allocated, so the file itself is not bounded here.
	Accum
)

// Limit is the most bytes read of an input of kind k.
func (k Kind) Limit() int64 {
	switch k {
	case Genome, Lots, States:
		return 256 << 20
	case CuburnJSON, Palette:
		return 64 << 20
	case Config:
		return 1 << 20
	case Source:
		return 16 << 20
	case Image:
		return 1 << 30
	case Species:
		return 4 << 20
	case StemMap:
		return 4 << 30
	}
	return 1<<63 - 1 // Accum, and a zero Kind: no bound of this package's own
}

// String names the kind in messages ("the 1 MiB limit for config files").
func (k Kind) String() string {
	switch k {
	case Genome:
		return "flam3 genome files"
	case CuburnJSON:
		return "cuburn JSON files"
	case Palette:
		return "palette files"
	case Config:
		return "config files"
	case Source:
		return "source files"
	case Lots:
		return "GeoJSON lot files"
	case States:
		return "state files"
	case Species:
		return "species files"
	case StemMap:
		return "stem maps"
	case Image:
		return "images"
	case Accum:
		return "accumulation files"
	}
	return "input files"
}

// text says whether inputs of kind k are text, whose UTF-8 byte order mark
// (written by Windows editors) is dropped before any parser sees it.
func (k Kind) text() bool { return k != Image && k != Accum }
