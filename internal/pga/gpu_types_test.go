package pga

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/layouttest"
)

// TestPGAGPUTypesMatchHeader checks the Go mirrors against
// cuda/pga_types.cuh as the host C++ compiler lays it out.
func TestPGAGPUTypesMatchHeader(t *testing.T) {
	consts := map[string]int64{
		"PGA_X_END": xEnd, "PGA_X_NUM": xNum, "PGA_X_NEG": xNeg, "PGA_X_ADD": xAdd, "PGA_X_SUB": xSub,
		"PGA_X_MUL": xMul, "PGA_X_DIV": xDiv, "PGA_X_EQ": xEq, "PGA_X_NE": xNe, "PGA_X_LT": xLt, "PGA_X_GT": xGt,
		"PGA_X_LE": xLe, "PGA_X_GE": xGe, "PGA_X_SIZE": xSize, "PGA_X_POS": xPos,
		"PGA_X_NORMAL": xNormal, "PGA_X_SEED": xSeed, "PGA_X_ATTR": xAttr, "PGA_MAX_STACK": gpuMaxStack,
		"PGA_X_QUERY": xQuery, "PGA_Q_OVERLAPS": int64(QueryOverlaps), "PGA_Q_TOUCHES": int64(QueryTouches),
		"PGA_Q_INSIDE": int64(QueryInside), "PGA_MAX_SNAP_BRANCHES": gpuMaxSnapBranches, "PGA_X_INDEX": xIndex, "PGA_X_SIBLINGS": xSiblings, "PGA_X_LOTATTR": xLotAttr, "PGA_X_AND": xAnd, "PGA_X_OR": xOr, "PGA_X_FRAME": xFrame, "PGA_MAX_PROFILE": gpuMaxProfile,
		"PGA_ERR_ROOF_SPLIT": gpuErrRoofSplit, "PGA_ERR_ROOF_FOOTPRINT": gpuErrRoofFootprint,
		"PGA_ERR_ROOF_ANGLE": gpuErrRoofAngle, "PGA_ERR_FRONT": gpuErrFront,
		"PGA_OP_ROOF": int64(OpRoof), "PGA_OP_OFFSET": int64(OpOffset), "PGA_OP_SETBACK": int64(OpSetback),
		"PGA_OP_SNAPLINES": int64(OpSnapLines), "PGA_NO_ROOF": int64(NoRoof), "PGA_GABLE": int64(Gable),
		"PGA_HIP": int64(Hip), "PGA_SHED": int64(Shed), "PGA_PYRAMID": int64(Pyramid),
		"PGA_SUCC_NONE": succNone, "PGA_SUCC_RULE": succRule, "PGA_SUCC_TERMINAL": succTerminal,
		"PGA_SUCC_UNDEFINED": succUndefined,
		"PGA_ERR_DEPTH":      gpuErrDepth, "PGA_ERR_SHAPES": gpuErrShapes, "PGA_ERR_REPEAT": gpuErrRepeat,
		"PGA_ERR_COMPSPLIT_QUAD": gpuErrCompSplitQuad, "PGA_ERR_UNDEFINED": gpuErrUndefined,
		"PGA_ERR_OVERFLOW": gpuErrOverflow,
		"PGA_BOX":          int64(Box), "PGA_QUAD": int64(Quad), "PGA_PRISM": int64(Prism), "PGA_SPHERE": int64(Sphere),
		"PGA_ERR_SPHERE": gpuErrSphere, "PGA_ERR_FOOT_ROOF": gpuErrFootRoof, "PGA_ERR_FOOT_CUT": gpuErrFootCut, "PGA_SPHERE_SLICES": sphereSlices,
		"PGA_OP_TRANSLATE": int64(OpTranslate), "PGA_OP_ROTATE": int64(OpRotate), "PGA_OP_SCALE": int64(OpScale),
		"PGA_OP_EXTRUDE": int64(OpExtrude), "PGA_OP_SUBDIV": int64(OpSubDiv), "PGA_OP_REPEAT": int64(OpRepeat),
		"PGA_OP_COMPSPLIT": int64(OpCompSplit), "PGA_OP_REPLICATE": int64(OpReplicate),
		"PGA_OP_RANDOMRULE": int64(OpRandomRule), "PGA_OP_IF": int64(OpIf), "PGA_OP_IFSIZELESS": int64(OpIfSizeLess),
		"PGA_OP_IFCOLLIDES": int64(OpIfCollides), "PGA_OP_COLLIDER": int64(OpCollider),
		"PGA_OP_SWAPSIZE": int64(OpSwapSize), "PGA_OP_SETASPRISM": int64(OpSetAsPrism),
		"PGA_OP_DISCARD": int64(OpDiscard), "PGA_OP_GENERATE": int64(OpGenerate),
		"PGA_X_BILATERAL": xBilateral, "PGA_ERR_RELATED_DEEP": gpuErrRelatedDeep, "PGA_MAX_LINKS": gpuMaxLinks,
		"PGA_MAX_RELATED_SPLITS": maxRelatedSplits, "PGA_TARGET_RULE": gpuTargetRule,
		"PGA_TARGET_TERMINAL": gpuTargetTerm, "PGA_RULE_MARKED": gpuRuleMarked,
		"PGA_ASK_VALID": gpuAskValid, "PGA_MAX_OP_QUERIES": gpuMaxOpQueries, "PGA_PART_STREAM": partStream,
	}
	layouttest.Check(t, layouttest.Header{Dir: "../../cuda", File: "pga_types.cuh", Consts: consts, Structs: []layouttest.Struct{
		{C: "PgaHeader", Go: gpuHeader{}},
		{C: "PgaInstr", Go: gpuInstr{}},
		{C: "PgaProfile", Go: gpuProfile{}},
		{C: "PgaGlbKey", Go: gpuGlbKey{}},
		{C: "PgaFootRoof", Go: gpuFootRoof{}},
		{C: "PgaFootCut", Go: gpuFootCut{}},
		{C: "PgaCutPiece", Go: gpuCutPiece{}},
		{C: "PgaGlbPart", Go: gpuGlbPart{}},
		{C: "PgaObb", Go: gpuObb{}},
		{C: "PgaSnap", Go: gpuSnap{}},
		{C: "PgaRange", Go: gpuRange{}},
		{C: "PgaOp", Go: gpuOp{}},
		{C: "PgaBranch", Go: gpuBranch{}},
		{C: "PgaChain", Go: gpuChain{}},
		{C: "PgaItem", Go: gpuItem{}},
		{C: "PgaTerm", Go: gpuTerm{}},
		{C: "PgaStatus", Go: gpuStatus{}},
		{C: "PgaLink", Go: gpuLink{}},
	}})
}
