package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

const envPrefix = "PROCGEN"

// configKey is one setting: its dotted key, its default (whose Go type is the
// key's type) and the help shown for the flag bound to it.
type configKey struct {
	Key     string
	Default any
	Help    string
}

// configKeys is the one table of settings. A new command adds its keys here
// (dotted under the command family: "flame.quality") and binds flags to them
// with app.bindFlag; an unknown key in a config file is an error, so a key
// missing here cannot be set from a file. It is built once: every flag's
// binding looks its key up, and rebuilding the table of 98 boxed defaults
// for each was a visible share of a small run's start-up. Callers must not
// modify it.
var configKeys = sync.OnceValue(func() []configKey {
	return []configKey{
		{"device", "auto", "`MODE` to compute on: auto, cpu or cuda"},
		{"devices", "0", "`GPUS` a CUDA run uses: all, or device numbers like 0,1; flame render and animate deal genomes and frames over them and split a single still's samples; rules run cuts its states over them"},
		{"quiet", false, "no progress bars or informational messages on stderr"},
		{"seed", uint64(1), "random seed; the same seed and settings give the same output"},
		{"jit", "cached", "`WHEN` to use kernels the driver compiles for this GPU (faster; ~20 s to compile once): cached (when 'procgen devices --prepare' has compiled them), always (compile on first use) or never; rules run compiles each rule set's own kernel on first use under cached and always, and runs the bytecode interpreter under never"},
		{"sync", false, "debug: synchronize after every kernel launch, so a failing kernel is reported where it was launched"},
		{"fsync", "auto", "`WHEN` results are flushed to the disk before they are renamed into place, so a power cut leaves the old file or the new one, never an empty one: auto (the results --resume trusts: flame render and animate), always, or never (every policy keeps the atomic rename)"},
		{"verbose", 0, "more detail on stderr (-v, -vv)"},
		{"calibration", "", "host calibration `FILE` --device auto reads and 'procgen devices --calibrate' writes (default: procgen/calibration.json in the user cache directory; none: use the built-in cost models)"},
		{"max-memory", "auto", "refuse work estimated to need more than `SIZE` of memory (e.g. 8G, 512M; auto: 3/4 of physical memory)"},
		{"flame.width", 0, "output width in `PIXELS` (0: the genome's; the scale follows so the framing stays)"},
		{"flame.height", 0, "output height in `PIXELS` (0: the genome's, or kept in proportion to --width)"},
		{"flame.quality", 0.0, "samples per output pixel (0: the genome's quality)"},
		{"flame.supersample", 0, "supersampling `FACTOR` per axis (0: the genome's)"},
		{"flame.png16", false, "write 16-bit PNG instead of 8-bit"},
		{"flame.jpeg-quality", 95, "JPEG `QUALITY` (1..100) for -o FILE.jpg"},
		{"flame.compression", "fast", "PNG compression `LEVEL`: fast, default or best (flames are noisy: fast is ~7x quicker for a few percent of size)"},
		{"flame.palettes", "", "flam3 palette `FILE` for genomes that name a palette by number (palette=\"N\")"},
		{"flame.strict", false, "fail on a variation or attribute procgen does not know, instead of warning and ignoring it"},
		{"flame.earlyclip", false, "tone-map before the spatial filter (flam3's earlyclip)"},
		{"lsys.steps", -1, "derivation `STEPS` (-1: the system's derivation length)"},
		{"lsys.max-modules", uint64(250_000_000), "stop before a step would write more than `N` modules (protects memory; raise it for big runs)"},
		{"lsys.cylinders", 0, "draw segments as tubes of `N` sides (3..64) with widths from '!'; 0: lines in OBJ, 8 sides where --stems gives tubes"},
		{"lsys.stems", "auto", "OBJ/GLB/PLY: segments as `KIND`: line, ribbon (flat quads of the width), tube, smooth (a generalised cylinder through each chain of segments, with texture coordinates), or auto (tubes with --cylinders; else OBJ lines; GLB/PLY: tubes in 3D, a planar system ribbons where it sets widths, lines where not)"},
		{"lsys.color-map", "", "colour map `FILE` colouring the colour indices (' ; ,): a cpfg .map (256 colours of 3 bytes R G B), or text lines \"R G B\" (0..255) or \"#rrggbb\", index 0 first; OBJ then gets an .mtl"},
		{"lsys.surface", []string{}, "surface for ~X: `X=leaf`, petal, sepal or flower (built in), X=FILE.obj, X=FILE.glb, or X=FILE.s (a cpfg surface of Bézier patches) (repeatable; built in without it: L leaf, P petal, S sepal, K flower)"},
		{"lsys.surface-precision", 0, "cpfg .s surfaces: tessellate each patch into `N`xN steps (1..64; 0: the file's PRECISION line, else 5)"},
		{"lsys.view", "front", "PNG: `VIEW` to look along: front, back, side, left, right, top, bottom or x,y,z"},
		{"lsys.image-width", 1024, "PNG width in `PIXELS`"},
		{"lsys.image-height", 1024, "PNG height in `PIXELS`"},
		{"lsys.line-scale", 1.0, "PNG: multiply the turtle's line widths by `FACTOR`"},
		{"lsys.line-width", "auto", "PNG: what turtle widths measure (`UNITS`): auto, pixels, world or relative (hundredths of the longest segment); auto: pixels without '!', world when widths are at most half the longest segment, else relative"},
		{"lsys.stats", false, "print per-step string lengths and totals (to stderr when -o is given)"},
		{"flame.transparent", false, "transparent background (PNG alpha) instead of the genome's background colour"},
		{"forest.species", "", "species parameter `FILE` (YAML: kernel, str, beta, d, theta, min_dbh per species; configs/forest/ has presets)"},
		{"forest.method", "fft", "summation `METHOD`: fft (FFT convolution, summed exactly where its error estimate exceeds --tolerance), exact (direct sum) or multires (the paper's quadtree)"},
		{"forest.cell", 1.0, "cell size in `METRES`"},
		{"forest.bounds", "", "plot `x0,y0,x1,y1` in metres (default: the stems' bounding box widened to whole cells)"},
		{"forest.boundary", "open", "plot edge `MODE`: open (seeds landing off the plot are lost), torus (the plot wraps around) or buffer (with --margin)"},
		{"forest.margin", 0.0, "buffer zone width in `METRES` for --boundary buffer: stems there are parents, only the inner plot is reported"},
		{"forest.cutoff", 0.0, "exact method: ignore parents farther than `METRES` (0: none) and report the error bound that implies"},
		{"forest.tolerance", 1e-4, "fft method: largest relative error per cell, a `FRACTION`; cells whose error estimate exceeds it are summed exactly"},
		{"forest.cluster-distance", 0.0, "multires method: first clustering distance in `METRES` (0: per species, where D d^theta = 8.3, as in the paper)"},
		{"forest.x-col", "", "stem map `COLUMN` holding x in metres (default: found among x, gx, PX ...)"},
		{"forest.y-col", "", "stem map `COLUMN` holding y in metres (default: found among y, gy, PY ...)"},
		{"forest.species-col", "", "stem map `COLUMN` holding the species (default: found among species, sp, Mnemonic ...)"},
		{"forest.dbh-col", "", "stem map `COLUMN` holding the DBH, or the girth with --girth (default: found among dbh, Diam ...)"},
		{"forest.dbh-unit", "cm", "`UNIT` of the DBH column: cm or mm"},
		{"forest.girth", false, "the DBH column holds the girth (circumference) at breast height: DBH = girth/pi"},
		{"forest.where", []string{}, "keep only the stem map rows where `COL=V` (also COL=V1|V2, !=, <, <=, >, >=); repeatable, all must hold"},
		{"forest.delimiter", "auto", "stem map field `SEPARATOR`: auto (from the header), comma, tab, semicolon or space"},
		{"forest.skip-unknown", false, "drop the stems of species the species file does not name, instead of failing"},
		{"forest.realize", false, "also draw the number of seeds landing in each cell (Poisson, or negative binomial with a clumping; keyed by --seed, species and cell)"},
		{"forest.clumping", 0.0, "with --realize: draw counts from the negative binomial with clumping `K` (variance mean + mean^2/K) for every species (0: each species' clumping key, Poisson where it has none)"},
		{"forest.formats", []string{"csv", "asc", "png"}, "outputs per species and total, a `LIST` of csv, asc, png, tif (GeoTIFF) (summary.json always)"},
		{"forest.stems", false, "draw the parents over the heat maps as dots sized by DBH"},
		{"forest.crs", "", "`EPSG:CODE` of the stems' projected CRS: GeoKeys of the .tif outputs and a .prj beside each .asc (UTM zones)"},
		{"forest.fit.kernel", []string{"weibull", "lognormal"}, "kernel `FAMILIES` to fit and rank by AIC: weibull, lognormal, 2dt, exppow, exponential, gaussian (not mixture)"},
		{"forest.fit.counts", []string{"poisson", "nb"}, "count `MODELS`: poisson, nb (negative binomial) or both"},
		{"forest.fit.species", "", "the stem map `SPECIES` the counts are of (when the trap file has no species column)"},
		{"forest.fit.fit-beta", false, "estimate beta, the fecundity exponent, too (needs parents of many sizes)"},
		{"forest.fit.beta", 2.0, "the fecundity exponent when it is not fitted"},
		{"forest.fit.min-dbh", 0.0, "minimum reproductive DBH in `CM`: smaller trees are not parents"},
		{"forest.fit.candidates", 4096, "`N` random parameter sets of the global search, evaluated in batches"},
		{"forest.fit.max-evals", 0, "likelihood evaluations each Nelder-Mead search may take (0: 1000 per parameter)"},
		{"forest.fit.bootstrap", 0, "`B` parametric bootstrap samples that calibrate each interval's cut-off (0: chi-squared's 3.84; 99 for 95 % intervals that hold at a seed or two per trap; costs about B/5 fits)"},
		{"pga.lots", "", "lots from a GeoJSON `FILE`: a FeatureCollection of Polygon footprints, concave or with holes (longitude/latitude, or see --lots-crs)"},
		{"pga.lots-crs", "auto", "`CRS` of the --lots coordinates: auto (the file's crs member, else WGS 84 longitude/latitude), local (metres as given, no CRS) or a name such as EPSG:4326, EPSG:32633, EPSG:3857"},
		{"pga.crs", "auto", "`CRS` geographic lots are built in: auto (a UTM input's own, else the WGS 84 UTM zone of the lots' centre) or a UTM zone such as EPSG:32633"},
		{"pga.glb-images", "embed", "how a .glb holds the images of the grammar's Texture operations: `embed` (in its binary chunk: one file that stands alone) or reference (by a uri relative to the .glb: the images stay beside it)"},
		{"pga.grid", "", "lots on a street grid of `COLSxROWS` lots (size, setback and height vary with --seed)"},
		{"pga.axiom", "", "start `RULE` (default: the grammar's first axiom)"},
		{"pga.max-shapes", 1 << 24, "stop when the shapes made over all lots exceed `N`, naming the rule"},
		{"pga.max-depth", 1000, "stop when one derivation applies more than `N` rules in a row, naming the rule"},
		{"pga.height", 20.0, "height in `METRES` of Box lots whose GeoJSON gives no height or floors"},
		{"pga.lot-width", 20.0, "grid: lot width along the street in `METRES`"},
		{"pga.lot-depth", 30.0, "grid: lot depth from the street in `METRES`"},
		{"pga.street", 12.0, "grid: street width in `METRES`"},
		{"pga.stats-only", false, "evaluate and report statistics, write no geometry (.json outputs are still written)"},
		{"pga.scheduler", "persistent", "CUDA scheduler: `persistent` (the paper's: persistent threads, rule grouping) or levels (one launch per derivation level, the baseline)"},
		{"pga.local-grouping", true, "CUDA persistent scheduler: keep new shapes in a block's shared-memory pool, grouped by rule"},
		{"pga.operator-parallel", true, "CUDA persistent scheduler: spread the outputs of Repeat, SubDiv, CompSplit and Replicate over a block's threads"},
		{"rules.states", "", "read the initial states from `FILE`: JSON (a list of objects of fields) or CSV (columns cell[0], cell[1] ...)"},
		{"rules.rule", "", "run Golly's rule `NOTATION` instead of a rule file: B3/S23, 23/3, /2/3 or B2/S/C3 (Generations), B2-a/S12 (Hensel), R2,C0,M1,S2..3,B3..3,NM (Larger than Life), :T64,64 torus or :P64,64 plane"},
		{"rules.generate", 0, "generate `N` states from the fields' ~ uniform(LO, HI) initialisers, keyed by --seed"},
		{"rules.steps", -1, "apply `N` steps (-1: 1 step, or a cap of 10000 with --until-fixpoint)"},
		{"rules.until-fixpoint", false, "run until no precondition holds anywhere, with --steps as the cap; not reaching it exits 1"},
		{"rules.define", []string{}, "override a constant of the rule file: `NAME=VALUE` (repeatable); NAME=LO:HI:STEP or NAME=A,B,C sweeps it (one run of every combination, CSV)"},
		{"rules.replicates", 1, "a sweep's `K` replicates per combination: replicate r is the run with --seed S+r"},
		{"rules.schedule", "compact", "GPU `SCHEDULE`: compact (a warp per state, thread compaction: the paper's Algorithms 3-4) or simple (a block per state: Algorithms 1-2)"},
		{"rules.layout", "C", "GPU memory `LAYOUT`: C (32-word blocks interleaved, the paper's Figure 6), A (each state contiguous) or B (transposed)"},
		{"rules.trace", []string{}, "record these `STATES` (0-based, comma-separated) after every step, into --trace-out"},
		{"rules.trace-out", "trace.jsonl", "JSON-lines `FILE` for --trace"},
		{"rules.stats", "", "write the rules fired per step to `FILE` (CSV: step,rule,fired)"},
		{"rules.record", []string{}, "record an observable over every state after each step: `EXPR` is sum, count, mean, min or max of a field, e.g. 'sum(c)', 'count(c == 1)' (repeatable); into the JSON output and --record-out"},
		{"rules.kernel", "auto", "GPU `KERNEL`: auto (the kernel generated and compiled for the rule set, else the bytecode interpreter), generated (fail if it does not compile; needs --jit cached or always) or interpreter (the bytecode interpreter of cuda/rules.cu)"},
		{"rules.frames", "", "write a PNG of the first 16 boards (the picture of -o boards.png) before the first step and after every --frames-every steps into `DIR` (frame_000000.png ...)"},
		{"rules.frames-every", 1, "a --frames picture every `K` steps"},
		{"rules.record-out", "", "write the --record values to `FILE` (CSV: step, then one column per --record; row 0 is the initial states)"},
	}
})

// configKeyIndex finds a key's place in configKeys.
var configKeyIndex = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(configKeys()))
	for i, k := range configKeys() {
		m[k.Key] = i
	}
	return m
})

func lookupConfigKey(key string) configKey {
	if i, ok := configKeyIndex()[key]; ok {
		return configKeys()[i]
	}
	panic("procgen: configuration key " + strconv.Quote(key) + " is not in configKeys")
}

func configKeyHelp(key string) string { return lookupConfigKey(key).Help }

// envName is the environment variable that sets key: flame.quality -> PROCGEN_FLAME_QUALITY.
func envName(key string) string {
	return envPrefix + "_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(key))
}

// flagKeyAnnotation records on a flag the configuration key it sets.
const flagKeyAnnotation = "procgen/config-key"

// bindFlag defines flag --name (with an optional one-letter shorthand) for a
// configuration key, typed, defaulted and documented from configKeys.
func (a *app) bindFlag(fs *pflag.FlagSet, key, name, shorthand string) {
	k := lookupConfigKey(key)
	help := k.Help + " [" + envName(key) + "]"
	switch d := k.Default.(type) {
	case string:
		fs.StringP(name, shorthand, d, help)
	case bool:
		fs.BoolP(name, shorthand, d, help)
	case int:
		fs.IntP(name, shorthand, d, help)
	case uint64:
		fs.Uint64P(name, shorthand, d, help)
	case float64:
		fs.Float64P(name, shorthand, d, help)
	case time.Duration:
		fs.DurationP(name, shorthand, d, help)
	case []string:
		fs.StringSliceP(name, shorthand, d, help)
	default:
		panic(fmt.Sprintf("procgen: configuration key %q has unsupported type %T", key, d))
	}
	a.bind(fs, key, name)
}

// bind marks an already defined flag as setting key. The binding to viper is
// made in setup, for the flags of the command that runs only: two commands
// may have flags for the same key.
func (a *app) bind(fs *pflag.FlagSet, key, name string) {
	lookupConfigKey(key)
	f := fs.Lookup(name)
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[flagKeyAnnotation] = []string{key}
}

// bindFlags binds the running command's flags (its own and inherited) to
// their configuration keys.
func (a *app) bindFlags(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if keys := f.Annotations[flagKeyAnnotation]; len(keys) == 1 && err == nil {
			err = a.v.BindPFlag(keys[0], f)
			a.flags[keys[0]] = f
		}
	})
	return err
}

// decode unmarshals the settings under prefix ("" for all) into out, a
// pointer to a struct whose fields have `mapstructure` tags naming the keys
// below prefix. Values are converted strictly first (typedValue), so the
// struct sees exactly what 'procgen config show' prints.
func (a *app) decode(prefix string, out any) error {
	tmp := viper.New()
	for _, k := range configKeys() {
		key := k.Key
		if prefix != "" {
			if !strings.HasPrefix(key, prefix+".") {
				continue
			}
			key = strings.TrimPrefix(key, prefix+".")
		}
		v, err := a.typedValue(k)
		if err != nil {
			return usageError{Err: err}
		}
		tmp.Set(key, v)
	}
	if err := tmp.Unmarshal(out); err != nil {
		return fmt.Errorf("decode configuration: %w", err)
	}
	return nil
}

// origin says where key's effective value comes from.
func (a *app) origin(key string) string {
	if f := a.flags[key]; f != nil && f.Changed {
		return "flag --" + f.Name
	}
	if s, ok := os.LookupEnv(envName(key)); ok && s != "" {
		return "env " + envName(key)
	}
	if a.configFile != "" && a.v.InConfig(key) {
		return "file " + a.configFile
	}
	return "default"
}

// settingName names key the way the user set it, for error messages.
func (a *app) settingName(key string) string {
	switch o := a.origin(key); {
	case strings.HasPrefix(o, "flag "):
		return strings.TrimPrefix(o, "flag ")
	case strings.HasPrefix(o, "env "):
		return strings.TrimPrefix(o, "env ")
	case strings.HasPrefix(o, "file "):
		return key + " (" + a.configFile + ")"
	default:
		return key
	}
}

// typedValue is key's effective value converted, strictly, to the type of
// its default: "3.5" or -1 is not a seed, where a lenient decoder would make
// them 3 and 2^64-1.
func (a *app) typedValue(k configKey) (any, error) {
	raw := a.v.Get(k.Key)
	v, ok := convertSetting(raw, k.Default)
	if !ok {
		return nil, fmt.Errorf("invalid %s %s: want %s", a.settingName(k.Key), quoteSetting(raw), typeName(k.Default))
	}
	return v, nil
}

func quoteSetting(raw any) string {
	switch raw := raw.(type) {
	case string:
		return strconv.Quote(raw)
	case map[string]any:
		return "(a mapping)"
	default:
		return fmt.Sprint(raw)
	}
}

// convertSetting converts a value from a flag or the environment (a string),
// a YAML file (string, int, float64, bool, list, mapping) or the defaults
// (already typed) to want's type.
func convertSetting(raw, want any) (any, bool) {
	s, isString := raw.(string)
	s = strings.TrimSpace(s)
	switch want.(type) {
	case string:
		switch raw.(type) {
		case string, bool, int, int64, uint64, float64:
			return fmt.Sprint(raw), true
		}
	case bool:
		if b, ok := raw.(bool); ok {
			return b, true
		}
		if isString {
			b, err := strconv.ParseBool(s)
			return b, err == nil
		}
	case int:
		if isString {
			n, err := strconv.Atoi(s)
			return n, err == nil
		}
		if x, ok := raw.(int); ok {
			return x, true // a flag's own value: each command checks its range and names it
		}
		if f, ok := asFloat(raw); ok && f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32 {
			return int(f), true
		}
	case uint64:
		switch x := raw.(type) {
		case string:
			n, err := strconv.ParseUint(s, 10, 64)
			return n, err == nil
		case uint64:
			return x, true
		case int:
			return uint64(x), x >= 0
		case int64:
			return uint64(x), x >= 0
		}
		if f, ok := asFloat(raw); ok && f >= 0 && f == math.Trunc(f) && f < 1<<53 {
			return uint64(f), true
		}
	case float64:
		if isString {
			f, err := strconv.ParseFloat(s, 64)
			return f, err == nil
		}
		return asFloat(raw)
	case time.Duration:
		if d, ok := raw.(time.Duration); ok {
			return d, true
		}
		if isString {
			d, err := time.ParseDuration(s)
			return d, err == nil
		}
	case []string:
		switch x := raw.(type) {
		case []string:
			return x, true
		case string:
			if s == "" {
				return []string{}, true
			}
			parts := strings.Split(s, ",")
			for i := range parts {
				parts[i] = strings.TrimSpace(parts[i])
			}
			return parts, true
		case []any:
			out := make([]string, len(x))
			for i, e := range x {
				v, ok := convertSetting(e, "")
				if !ok {
					return nil, false
				}
				out[i] = v.(string)
			}
			return out, true
		}
	}
	return nil, false
}

func asFloat(raw any) (float64, bool) {
	switch x := raw.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// typeName describes the values a key of v's type accepts.
func typeName(v any) string {
	switch v.(type) {
	case bool:
		return "true or false"
	case int:
		return "an integer"
	case uint64:
		return "a whole number (0 or more)"
	case float64:
		return "a number"
	case time.Duration:
		return "a duration such as 1.5s or 2m"
	case []string:
		return "a list of strings"
	default:
		return fmt.Sprintf("a %T", v)
	}
}

func (a *app) newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Inspect the configuration",
		Args:  noSubcommand,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.newConfigShowCmd())
	return cmd
}

type shownSetting struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Origin string `json:"origin"`
}

func (a *app) newConfigShowCmd() *cobra.Command {
	var asJSON, withOrigin bool
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration",
		Long: `Print the effective configuration: every key, sorted, with the value that
flags, PROCGEN_* environment variables, the config file and the defaults give
it. The YAML output is itself a valid config file.

--origin adds where each value came from: flag, env, file or default.`,
		Args: noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			var settings []shownSetting
			for _, k := range configKeys() {
				val, err := a.typedValue(k)
				if err != nil {
					return usageError{Err: err}
				}
				settings = append(settings, shownSetting{k.Key, val, a.origin(k.Key)})
			}
			sort.Slice(settings, func(i, j int) bool { return settings[i].Key < settings[j].Key })
			if asJSON {
				return writeSettingsJSON(a.stdout, settings, withOrigin, a.configFile)
			}
			return writeSettingsYAML(a.stdout, settings, withOrigin, a.configFile)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of YAML")
	cmd.Flags().BoolVar(&withOrigin, "origin", false, "say where each value came from")
	return cmd
}

func writeSettingsJSON(w io.Writer, settings []shownSetting, withOrigin bool, file string) error {
	var doc any
	if withOrigin {
		doc = struct {
			ConfigFile string         `json:"config_file"`
			Settings   []shownSetting `json:"settings"`
		}{file, settings}
	} else {
		tree := map[string]any{}
		for _, s := range settings {
			parts := strings.Split(s.Key, ".")
			m := tree
			for _, p := range parts[:len(parts)-1] {
				sub, ok := m[p].(map[string]any)
				if !ok {
					sub = map[string]any{}
					m[p] = sub
				}
				m = sub
			}
			m[parts[len(parts)-1]] = s.Value
		}
		doc = tree
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// writeSettingsYAML writes sorted dotted keys as nested YAML. Keys sharing a
// prefix are contiguous once sorted, so one pass suffices.
func writeSettingsYAML(w io.Writer, settings []shownSetting, withOrigin bool, file string) error {
	var b strings.Builder
	if withOrigin {
		if file == "" {
			file = "none"
		}
		fmt.Fprintf(&b, "# config file: %s\n", file)
	}
	var open []string // the parent path already written
	for _, s := range settings {
		parts := strings.Split(s.Key, ".")
		parents := parts[:len(parts)-1]
		common := 0
		for common < len(open) && common < len(parents) && open[common] == parents[common] {
			common++
		}
		for i := common; i < len(parents); i++ {
			fmt.Fprintf(&b, "%s%s:\n", strings.Repeat("  ", i), parents[i])
		}
		open = parents
		fmt.Fprintf(&b, "%s%s: %s", strings.Repeat("  ", len(parents)), parts[len(parts)-1], yamlScalar(s.Value))
		if withOrigin {
			fmt.Fprintf(&b, "  # %s", s.Origin)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yamlScalar(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case time.Duration:
		return strconv.Quote(x.String())
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	default:
		return fmt.Sprint(x)
	}
}
