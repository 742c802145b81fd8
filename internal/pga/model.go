// Package pga reads PGA-shape grammars (the language of the OperatorGraph
// examples, successor of "Parallel Generation of Architecture") and expands
// axiom shapes into terminal shapes.
package pga

// ShapeKind is the geometry a shape stands for.
type ShapeKind int

const (
	Box ShapeKind = iota
	Quad
	Prism  // a box whose cross-section was declared a convex prism; bounds only
	Sphere // OperatorGraph's Sphere: drawn as a sphere of radius size X (sphere.go)
)

func (k ShapeKind) String() string {
	switch k {
	case Box:
		return "Box"
	case Quad:
		return "Quad"
	case Sphere:
		return "Sphere"
	}
	return "Prism"
}

// Axis selects a coordinate of the shape's local frame.
type Axis int

const (
	AxisX Axis = iota
	AxisY
	AxisZ
)

func (a Axis) String() string { return [...]string{"X", "Y", "Z"}[a] }

// RepeatMode says where Repeat puts the space that whole tiles do not fill.
type RepeatMode int

const (
	AdjustToFill  RepeatMode = iota // stretch the tiles to fill the extent (the default)
	AnchorToStart                   // the rest as a short first tile, whole tiles flush with the end
	AnchorToEnd                     // whole tiles from the start, the rest as a short last tile
)

// OpKind is an operator of the language.
type OpKind int

const (
	OpTranslate OpKind = iota
	OpRotate
	OpScale
	OpExtrude
	OpSubDiv
	OpRepeat
	OpCompSplit
	OpReplicate
	OpRandomRule
	OpIf
	OpIfSizeLess
	OpIfCollides
	OpCollider
	OpSwapSize
	OpSetAsPrism
	OpDiscard
	OpGenerate
	OpRoof
	OpOffset
	OpSetback
	OpSnapLines
	OpSetupProjection // texture.go
	OpProjectUV
	OpMaterial // Texture("file.png") or Color("#rrggbb")
	OpInsert   // I("file.obj"): the terminal drawn as an asset (asset.go)
)

type argKind int

const (
	argExpr argKind = iota
	argAxis
	argMode
	argPoint
	argName // an identifier: a collider or snap-line group
	argRoof // GABLE, HIP, SHED or PYRAMID

	argPlane  // XY, XZ, YX, YZ, ZX or ZY: the scope axes a projection maps to u and v
	argString // a "quoted" string
)

// opSpec is what an operator takes: its arguments, and whether it ends the
// chain with a block of branches (weighted when entries carry "w:").
type opSpec struct {
	name     string
	args     []argKind
	optional int  // how many trailing args may be left out
	variadic bool // args[len-1] repeats, at least len(args) given
	block    bool
	weighted bool // entries are "expr: chain"
	branches int  // exact branch count, 0 = any (at least 1)
	ends     bool // ends the chain without a successor
}

var opSpecs = [...]opSpec{
	OpTranslate:  {name: "Translate", args: []argKind{argExpr, argExpr, argExpr}},
	OpRotate:     {name: "Rotate", args: []argKind{argExpr, argExpr, argExpr}},
	OpScale:      {name: "Scale", args: []argKind{argExpr, argExpr, argExpr}},
	OpExtrude:    {name: "Extrude", args: []argKind{argExpr}},
	OpSubDiv:     {name: "SubDiv", args: []argKind{argAxis, argName}, optional: 1, block: true, weighted: true},
	OpRepeat:     {name: "Repeat", args: []argKind{argAxis, argExpr, argMode, argName}, optional: 2},
	OpCompSplit:  {name: "CompSplit", block: true, branches: 3},
	OpReplicate:  {name: "Replicate", block: true},
	OpRandomRule: {name: "RandomRule", args: []argKind{argExpr}, block: true, weighted: true},
	OpIf:         {name: "If", args: []argKind{argExpr}, block: true, branches: 2},
	OpIfSizeLess: {name: "IfSizeLess", args: []argKind{argAxis, argExpr}, block: true, branches: 2},
	OpIfCollides: {name: "IfCollides", args: []argKind{argName}, block: true, branches: 2},
	OpCollider:   {name: "Collider", args: []argKind{argName}},
	OpSwapSize:   {name: "SwapSize", args: []argKind{argAxis, argAxis, argAxis}},
	OpSetAsPrism: {name: "SetAsDynamicConvexRightPrism", args: []argKind{argPoint, argPoint, argPoint}, variadic: true},
	OpDiscard:    {name: "Discard", ends: true},
	OpGenerate:   {name: "Generate", ends: true},
	OpRoof:       {name: "Roof", args: []argKind{argRoof, argExpr}},
	OpOffset:     {name: "Offset", args: []argKind{argExpr}, block: true, branches: 2},
	OpSetback:    {name: "Setback", args: []argKind{argExpr}, block: true, branches: 2},
	OpSnapLines:  {name: "SnapLines", args: []argKind{argAxis, argName}},

	// Textures and UVs (texture.go).
	OpSetupProjection: {name: "SetupProjection", args: []argKind{argPlane, argExpr, argExpr}},
	OpProjectUV:       {name: "ProjectUV"},
	OpMaterial:        {name: "Texture", args: []argKind{argString}},

	// Assets (asset.go).
	OpInsert: {name: "I", args: []argKind{argString}, ends: true},
}

func (k OpKind) String() string { return opSpecs[k].name }

// opAliases are OperatorGraph's other SetAs operators: each gives the shape
// a profile as SetAsDynamicConvexRightPrism does (Op.Concave set for the
// concave ones).
var opAliases = map[string]OpKind{
	"SetAsDynamicConvexPolygon":     OpSetAsPrism,
	"SetAsDynamicConcavePolygon":    OpSetAsPrism,
	"SetAsDynamicConcaveRightPrism": OpSetAsPrism,
	"Color":                         OpMaterial,
	"Insert":                        OpInsert,
}

func lookupOp(name string) (OpKind, bool) {
	if k, ok := opAliases[name]; ok {
		return k, true
	}
	for k := range opSpecs {
		if opSpecs[k].name == name {
			return OpKind(k), true
		}
	}
	return 0, false
}

// Grammar is a parsed PGA-shape file.
type Grammar struct {
	File      string
	Axioms    []Axiom
	Terminals map[string]Terminal
	Rules     map[string]*Rule
	RuleOrder []string // rule names in source order
	// Phases lists the evaluation phases that have rules, ascending.
	Phases []int
	// Profiles holds the cross-sections of SetAsDynamicConvexRightPrism, in
	// pairs: 2k+1 counter-clockwise in the unit square, 2k+2 mirrored in y
	// (the bottom cap's view). Index 0 is the plain rectangle.
	Profiles [][][2]float64
	// Groups names collider and snap-line groups; Shape queries refer to
	// them by index.
	Groups []string
	// LotAttrs names the lot attributes rules read with LotAttr(name, default).
	LotAttrs []string
	// TermNames names terminal kinds by TerminalShape.Term: the declared
	// terminals in order, then the rules that end in Generate().
	TermNames []string
	// projects: some rule uses SetupProjection (each lot then keeps a
	// projTable).
	projects bool
	// Materials are the distinct Texture and Color operations' materials;
	// Shape.Mat and Op.Material are 1 + an index into it (texture.go).
	Materials []MaterialDef
	// Assets are the distinct meshes I operations insert; termAssets maps
	// a terminal kind (Grammar.TermNames index) drawn as one to 1 + its
	// index (asset.go).
	Assets     []AssetDef
	termAssets map[int32]int
	// Links are the (ancestor, target) pairs of the bilateral queries
	// (bilateral.go); Bilateral expressions refer to them by index.
	Links []*Link
	// footprints are the profiles of concave and holed lots (footprint.go),
	// by profile index; LotAxioms adds them.
	footprints map[int32]*footprint
	// rectLots: LotAxioms gave some lot its bounding rectangle rather
	// than a footprint (whose HIP roofs the device does not split:
	// roofSplitAt).
	rectLots bool
	// dyn holds the footprints made while the grammar runs, under negative
	// profile numbers: Offset's pieces of a lot's polygon
	// (offset_polygon.go) and the faces CompSplit cuts a roof into
	// (roof_split.go). Parse makes it.
	dyn *dynFootprints
}

// TermName is the name of a terminal's kind.
func (g *Grammar) TermName(t *TerminalShape) string { return g.TermNames[t.Term] }

// termID interns a terminal kind's name.
func (g *Grammar) termID(name string) int32 {
	for i, n := range g.TermNames {
		if n == name {
			return int32(i)
		}
	}
	g.TermNames = append(g.TermNames, name)
	return int32(len(g.TermNames) - 1)
}

// RoofKind is the solid a Roof operator makes on a footprint.
type RoofKind int8

const (
	NoRoof RoofKind = iota
	Gable
	Hip
	Shed
	Pyramid
)

var roofNames = [...]string{"", "GABLE", "HIP", "SHED", "PYRAMID"}

func (k RoofKind) String() string { return roofNames[k] }

// Axiom names the start shape kind and the rule that expands it.
type Axiom struct {
	Kind    ShapeKind
	Profile int // the polygon or prism profile of OperatorGraph's other kinds; 0: a rectangle
	Rule    string
	Pos     Pos
}

// Terminal is a declared terminal symbol with its geometry/material pair.
type Terminal struct {
	Name     string
	ID       int32 // index into Grammar.TermNames
	Geometry int
	Material int
	Pos      Pos
}

// Rule is Name = Chain;
type Rule struct {
	Name  string
	Body  *Chain
	Pos   Pos
	Phase int // evaluation phase: "phase N;" above the rule, 1 by default
	// origin is the rule an inferred phase split this one off (its
	// Generate() terminals keep that rule's name); "" for written rules.
	origin string
	// marked: shapes entering the rule are recorded as ancestors, for the
	// bilateral queries that name it (bilateral.go).
	marked bool
}

// Chain is a run of operators ending in a successor, a block operator or
// a chain-ending operator (Discard, Generate).
type Chain struct {
	Ops  []*Op
	Succ string // "" when the last op is a block or ends the chain
	Pos  Pos    // of Succ
	// Resolved once the grammar is read: the successor rule, or the
	// terminal (Term >= 0); Generate() chains get their rule's terminal.
	next *Rule
	term *Terminal
}

// Op is one operator application.
type Op struct {
	Kind     OpKind
	Args     []Arg
	Branches []Branch // block operators only
	Pos      Pos
	Profile  int    // SetAsDynamicConvexRightPrism: index into Grammar.Profiles
	Concave  bool   // SetAsDynamicConcave*: the profile may be concave
	Material int    // Texture, Color: 1 + index into Grammar.Materials
	Asset    int    // I: 1 + index into Grammar.Assets
	Name     string // as written (an alias of Kind's name)
}

// Arg is one operator argument; which field is set depends on the operator.
type Arg struct {
	Expr  Expr
	Axis  Axis
	Mode  RepeatMode
	Point [2]Expr
	Group int // argName: index into Grammar.Groups
	Roof  RoofKind
	Plane [2]Axis // argPlane: the scope axes of u and v
	Str   string  // argString
	Pos   Pos
}

// Branch is one entry of a block: "[Weight:] chain".
type Branch struct {
	Weight Expr // SubDiv sizes and RandomRule probabilities; nil otherwise
	Body   *Chain
}
