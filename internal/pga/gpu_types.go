package pga

import "unsafe"

// Go mirrors of the structures in cuda/pga_types.cuh. Field order, types and
// sizes must match; TestPGAGPUTypesMatchHeader compiles the header with the
// host C++ compiler and compares every size, offset and constant.

// Expression instructions (PGA_X_*).
const (
	xEnd = iota
	xNum
	xNeg
	xAdd
	xSub
	xMul
	xDiv
	xEq
	xNe
	xLt
	xGt
	xLe
	xGe
	xSize
	xPos
	xNormal
	xSeed
	xAttr
	xIndex
	xSiblings
	xLotAttr
	xQuery
	xAnd
	xOr
	xFrame
	xBilateral
)

// gpuMaxSnapBranches is PGA_MAX_SNAP_BRANCHES.
const gpuMaxSnapBranches = 32

// gpuMaxProfile is PGA_MAX_PROFILE.
const gpuMaxProfile = 16

// gpuMaxStack is PGA_MAX_STACK: the deepest expression stack the device keeps.
const gpuMaxStack = 16

// Chain successors (PGA_SUCC_*).
const (
	succNone = iota
	succRule
	succTerminal
	succUndefined
)

// Device errors (PGA_ERR_*).
const (
	gpuErrDepth = 1 + iota
	gpuErrShapes
	gpuErrRepeat
	gpuErrCompSplitQuad
	gpuErrUndefined
	gpuErrOverflow
	gpuErrRoofSplit
	gpuErrRoofFootprint
	gpuErrRoofAngle
	gpuErrFront
	gpuErrRelatedDeep
	gpuErrSphere
	gpuErrFootRoof
	gpuErrFootCut
)

// Bilateral query tables (PGA_MAX_LINKS, PGA_TARGET_*, PGA_RULE_MARKED).
const (
	gpuMaxLinks     = 32
	gpuTargetRule   = 0
	gpuTargetTerm   = 1
	gpuRuleMarked   = 1
	gpuAskValid     = 0x80000000
	gpuMaxOpQueries = 16
)

// gpuLink is PgaLink.
type gpuLink struct{ Anc, TargetKind, Target, Pad int32 }

// gpuHeader is PgaHeader: table sizes and word offsets of a compiled grammar.
type gpuHeader struct {
	NRules, NChains, NOps, NBranches                int32
	NCode, NConsts, NTerms, MaxStack                int32
	OffCode, OffConsts, OffOps, OffBranches         int32
	OffChains, OffRuleChain, NWords, NProfiles      int32
	OffProfiles, OffPoints, NLotAttrs, OffRulePhase int32
	NGroups, NLinks, OffLinks, OffReach             int32
	OffPoly, NPoly, OffFRoof, OffRPts               int32
	OffFCut, OffCutPiece, Pad, RectFaces            int32
}

// gpuObb is PgaObb.
type gpuObb struct {
	C          [3]float64
	Axes       [9]float64
	Half       [3]float64
	Lot, Group int32
}

// gpuSnap is PgaSnap.
type gpuSnap struct {
	V        float64
	Lot, Key int32
}

// gpuRange is PgaRange.
type gpuRange struct{ Start, N int32 }

// gpuProfile is PgaProfile.
type gpuProfile struct{ Start, N, NRings, NTris, Rings, Tris, Roofs, Cuts int32 }

// gpuFootRoof is PgaFootRoof.
type gpuFootRoof struct {
	Top, SX, SY             float64
	NAt, At, NFace, Face    int32
	NPart, Part, Under, Pad int32
}

// gpuFootCut is PgaFootCut.
type gpuFootCut struct {
	SX, SY, D                float64
	Start, N, Siblings, Slot int32
}

// gpuCutPiece is PgaCutPiece.
type gpuCutPiece struct {
	CU, CV, W, H                 float64
	Profile, Child, Branch, Part int32
}

// gpuGlbKey is PgaGlbKey.
type gpuGlbKey struct {
	Seed                 uint64
	Axiom, Term, Mat, UV int32
}

// gpuGlbPart is PgaGlbPart.
type gpuGlbPart struct {
	Q0, V0, I0, UV     uint32
	Pos, Nrm, Tex, Idx uint64
}

// gpuInstr is PgaInstr.
type gpuInstr struct{ Op, Arg int32 }

// gpuOp is PgaOp.
type gpuOp struct {
	Kind               int32
	Axis               [3]int32
	Mode               int32
	Expr               [3]int32
	Branch0, NBranches int32
}

// gpuBranch is PgaBranch.
type gpuBranch struct{ Weight, Chain int32 }

// gpuChain is PgaChain.
type gpuChain struct{ Op0, NOps, SuccKind, Succ int32 }

// gpuItem is PgaItem: a shape in a work queue.
type gpuItem struct {
	M                             [12]float64
	Size                          [3]float64
	Attr                          float64
	Seed                          uint64
	Kind, Mat                     int16
	Chain, PC, Rule, Depth, Axiom int32
	Profile                       int32
	Roof, UV                      int16
	Index, Siblings               int32
	Anc                           int32
	Ask                           uint32
	Proj                          [8]float32
}

// gpuTerm is PgaTerm: a terminal the device wrote.
type gpuTerm struct {
	M                              [12]float64
	Size                           [3]float64
	Attr                           float64
	Seed                           uint64
	Term, Kind, Axiom, Rule        int32
	Profile, Roof, Index, Siblings int32
	Mat, UV                        int32
	Proj                           [8]float32
}

// gpuStatus is PgaStatus.
type gpuStatus struct {
	Ticks, ScanTotal            uint64
	QTail, QHead, NTerm, Work   uint32
	Err, ErrRule, ErrArg, Abort int32
	NColl, NSnap, NPend, NAnc   uint32
}

// structWords is v's memory as words, not copied: the tables' encoding
// where T has no padding (the layout test checks the device's structs)
// on a little-endian host, which every CUDA host is.
func structWords[T any](v []T) []uint32 {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(v[0]))/4)
}
