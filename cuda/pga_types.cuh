// Structures shared by cuda/pga.cu and internal/pga (gpu_types.go mirrors
// them; TestPGAGPUTypesMatchHeader compares sizes and offsets).
//
// A compiled grammar is one array of 32-bit words: a PgaHeader, then the
// tables it points to (offsets in words). Doubles start at even offsets.
#pragma once
#include <stdint.h>

// Operator kinds: the order of OpKind in internal/pga/model.go.
#define PGA_OP_TRANSLATE 0
#define PGA_OP_ROTATE 1
#define PGA_OP_SCALE 2
#define PGA_OP_EXTRUDE 3
#define PGA_OP_SUBDIV 4
#define PGA_OP_REPEAT 5
#define PGA_OP_COMPSPLIT 6
#define PGA_OP_REPLICATE 7
#define PGA_OP_RANDOMRULE 8
#define PGA_OP_IF 9
#define PGA_OP_IFSIZELESS 10
#define PGA_OP_IFCOLLIDES 11
#define PGA_OP_COLLIDER 12
#define PGA_OP_SWAPSIZE 13
#define PGA_OP_SETASPRISM 14
#define PGA_OP_DISCARD 15
#define PGA_OP_GENERATE 16
#define PGA_OP_ROOF 17
#define PGA_OP_OFFSET 18
#define PGA_OP_SETBACK 19
#define PGA_OP_SNAPLINES 20
#define PGA_OP_SETUPPROJECTION 21 // axis[0], axis[1]: the scope axes of u and v; expr[0], expr[1]: the repeats
#define PGA_OP_PROJECTUV 22
#define PGA_OP_MATERIAL 23 // mode: 1 + the material

// Roof kinds: RoofKind.
#define PGA_NO_ROOF 0
#define PGA_GABLE 1
#define PGA_HIP 2
#define PGA_SHED 3
#define PGA_PYRAMID 4

// The most points a prism profile may have on the device.
#define PGA_MAX_PROFILE 16

// Shape kinds: ShapeKind.
#define PGA_BOX 0
#define PGA_QUAD 1
#define PGA_PRISM 2
#define PGA_SPHERE 3
// OperatorGraph's NumSphereSlices: a Sphere terminal's grid (sphere.go).
#define PGA_SPHERE_SLICES 30

// Expression instructions (a postfix program ending in PGA_X_END).
#define PGA_X_END 0
#define PGA_X_NUM 1 // push consts[arg]
#define PGA_X_NEG 2
#define PGA_X_ADD 3
#define PGA_X_SUB 4
#define PGA_X_MUL 5
#define PGA_X_DIV 6
#define PGA_X_EQ 7
#define PGA_X_NE 8
#define PGA_X_LT 9
#define PGA_X_GT 10
#define PGA_X_LE 11
#define PGA_X_GE 12
#define PGA_X_SIZE 13 // arg: axis
#define PGA_X_POS 14
#define PGA_X_NORMAL 15
#define PGA_X_SEED 16
#define PGA_X_ATTR 17
#define PGA_X_INDEX 18
#define PGA_X_SIBLINGS 19
#define PGA_X_LOTATTR 20 // arg: attribute; replaces the default on top of the stack
#define PGA_X_QUERY 21   // arg: group * 4 + QueryKind; 1 or 0 against earlier phases' colliders
#define PGA_X_AND 22 // 1 when both are true (not 0, not NaN), else 0
#define PGA_X_OR 23
#define PGA_X_FRAME 24 // arg: component * 4 + axis; an element of the frame (ShapeRotation(A, B))
#define PGA_X_BILATERAL 25 // arg: slot * 128 + link * 4 + QueryKind; the answer in PgaItem.ask bit slot

// Context queries (QueryKind).
#define PGA_Q_OVERLAPS 0
#define PGA_Q_TOUCHES 1
#define PGA_Q_INSIDE 2
// The most branches a SubDiv that snaps may have on the device.
#define PGA_MAX_SNAP_BRANCHES 32
#define PGA_MAX_STACK 16

// Chain successors.
#define PGA_SUCC_NONE 0 // the chain ends in a block operator, Discard or Generate
#define PGA_SUCC_RULE 1
#define PGA_SUCC_TERMINAL 2
#define PGA_SUCC_UNDEFINED 3 // succ indexes the grammar's list of undefined names

// Errors the device reports (PgaStatus.err).
#define PGA_ERR_DEPTH 1
#define PGA_ERR_SHAPES 2
#define PGA_ERR_REPEAT 3
#define PGA_ERR_COMPSPLIT_QUAD 4
#define PGA_ERR_UNDEFINED 5
#define PGA_ERR_OVERFLOW 6 // a device buffer was too small: grow and run again
#define PGA_ERR_ROOF_SPLIT 7 // CompSplit of a roof; err_arg: the op
#define PGA_ERR_ROOF_FOOTPRINT 8 // Roof of something else than a rectangular Quad
#define PGA_ERR_ROOF_ANGLE 9
#define PGA_ERR_FRONT 10 // Setback/Offset of something else than a rectangular Quad or Box
#define PGA_ERR_RELATED_DEEP 11 // a bilateral query's target lies deeper; err_rule: the rule, err_arg: link * 4 + query
#define PGA_ERR_SPHERE 12 // CompSplit, Extrude, Roof, Setback or Offset of a Sphere; err_arg: the op
#define PGA_ERR_FOOT_ROOF 13 // Roof on a lot's polygon at a size its roof was not built for; err_arg: the op
#define PGA_ERR_FOOT_CUT 14 // Offset/Setback/SubDiv of a lot's polygon at a size or distance it was not cut for; err_arg: the op

// Bilateral queries: the most links (one bit each in the reach table) and
// the most multi-output operators between an ancestor and a target.
#define PGA_MAX_LINKS 32
#define PGA_MAX_RELATED_SPLITS 8
// Link target kinds.
#define PGA_TARGET_RULE 0
#define PGA_TARGET_TERMINAL 1
// Rule flags (the word after the reach masks): record shapes entering the rule.
#define PGA_RULE_MARKED 1
// PgaItem.ask: answers to the bilateral queries of the operator the shape
// is at (bit k: the query in slot k), valid when PGA_ASK_VALID is set.
#define PGA_ASK_VALID 0x80000000u
#define PGA_MAX_OP_QUERIES 16

typedef struct {
	int32_t nrules, nchains, nops, nbranches;
	int32_t ncode, nconsts, nterms, max_stack;
	int32_t off_code, off_consts, off_ops, off_branches;
	int32_t off_chains, off_rule_chain, nwords, nprofiles;
	int32_t off_profiles, off_points, nlotattrs, off_rule_phase;
	// reach: per chain a link mask, per rule its flags, per op (first << 8 | count)
	// of its bilateral queries in the list that follows (link * 4 + QueryKind each).
	int32_t ngroups, nlinks, off_links, off_reach;
	// poly: the footprints' ring lengths and cap triangles (PgaProfile);
	// froof: their roofs (PgaFootRoof), whose corners are at rpts.
	int32_t off_poly, npoly, off_froof, off_rpts;
	// fcut: the lots' polygons cut by Offset, Setback, SubDiv and Repeat
	// (PgaFootCut, each profile's from PgaProfile.cuts); cpiece: their
	// pieces.
	// rect_faces: where in poly the device profiles of the faces of roofs
	// over rectangles start (four per kind from GABLE on, -1 for none;
	// compile_footsplit.go), -1 when no CompSplit takes such a roof.
	int32_t off_fcut, off_cut_piece, pad, rect_faces;
} PgaHeader;

// A bilateral query's (ancestor rule, target): a rule or a terminal id.
typedef struct {
	int32_t anc, target_kind, target, pad;
} PgaLink;

// A collider of an earlier phase (shapeOBB): centre, unit axes (axes[3k..3k+2]
// is axis k), half sizes; its lot and group.
typedef struct {
	double c[3], axes[9], half[3];
	int32_t lot, group;
} PgaObb;

// A snap plane: world coordinate v along world axis key % 3 of group key / 3.
typedef struct {
	double v;
	int32_t lot, key;
} PgaSnap;

// A run of a sorted table: colliders of (lot, group), planes of (lot, key).
typedef struct {
	int32_t start, n;
} PgaRange;

// A prism cross-section: n points (x, y pairs of doubles) from points[2*start].
// A convex prism profile is one ring (rings = -1) whose caps are fans of
// ntris = n - 2 triangles (tris = -1). A lot's own polygon (a footprint,
// footprint.go) has nrings rings, the outer one first, their lengths at
// poly[rings], and its caps are ntris triangles of corner ids at poly[tris];
// roofs, when not -1, is its first PgaFootRoof (one a RoofKind, GABLE first);
// cuts, when not 0, is 1 + the index of its first PgaFootCut (the
// profile's cuts by slot, up to one of slot 0).
typedef struct {
	int32_t start, n, nrings, ntris, rings, tris, roofs, cuts;
} PgaProfile;

// A roof on a lot's own polygon (roof_polygon.go: polyRoof), built on the
// host for the lot's size (sx, sy): top is its height at unit slope, its
// nat corners are (x, y, height at unit slope) triples at rpts[3 * at], its
// nface faces run from poly[face + f] to poly[face + f + 1] in poly (corner
// ids from there). nat is -1 for a kind no Roof asks for. With a
// CompSplit of such a roof (compile_footsplit.go), its npart faces' records
// start at poly[poly[part + i]] (the next entry ends them): the face's
// device profile (-1: none), 1 for a side, its outer ring's corner ids;
// under is the underside's device profile. npart is -1 without.
typedef struct {
	double top, sx, sy;
	int32_t nat, at, nface, face;
	int32_t npart, part, under, pad;
} PgaFootRoof;

// A lot's polygon cut by an Offset, a Setback or a SubDiv across it, on
// the host, at the lot's size (sx, sy) and the op's distance d on that lot
// (a constant or made of the lot's attributes; a SubDiv's sizes are too)
// (compile_footcut.go, compile_footslab.go): n pieces from cpiece[start],
// among siblings children, by the op of slot (1 + its index among the
// cuts). A profile's cuts lie together (PgaProfile.cuts), ended by one of
// slot 0.
typedef struct {
	double sx, sy, d;
	int32_t start, n, siblings, slot;
} PgaFootCut;

// A piece of a cut: framed by its bounding rectangle, centred at (cu, cv)
// in the footprint's plane, w by h, standing on device profile profile (-1:
// the shape itself, whole); its child number and branch; part: a SubDiv
// slab's part j, whose seed for j > 0 is keyed by PGA_PART_STREAM and j.
typedef struct {
	double cu, cv, w, h;
	int32_t profile, child, branch, part;
} PgaCutPiece;

// Keys the seeds of a slab's second and later parts (split_polygon.go).
#define PGA_PART_STREAM 0x5AB9A27ull

typedef struct {
	int32_t op, arg;
} PgaInstr;

// The GLB built on the device (pga_glb.cuh): a terminal's ordering key,
// read back for the host's sort (lot, seed, terminal kind).
typedef struct {
	uint64_t seed;
	int32_t axiom, term, mat, uv;
} PgaGlbKey;

// The GLB: one part (one terminal kind and material) of the binary chunk,
// from position q0 of the file's terminal order: its first vertex and
// index in the scan of the terminals' counts, whether it has texture
// coordinates, and the byte offsets of its positions, normals, texture
// coordinates and indices.
typedef struct {
	uint32_t q0, v0, i0, uv;
	uint64_t pos, nrm, tex, idx;
} PgaGlbPart;

typedef struct {
	int32_t kind;
	int32_t axis[3]; // Repeat/SubDiv/IfSizeLess: axis[0]; SwapSize: all three; SetAs: axis[0] the kind it makes of a Sphere
	int32_t mode;    // Repeat: RepeatMode; Roof: RoofKind; SetAsDynamicConvexRightPrism: profile
	int32_t expr[3]; // argument programs (offsets into code), -1 when absent
	int32_t branch0, nbranches;
} PgaOp;

typedef struct {
	int32_t weight; // program offset, -1 when the branch has none
	int32_t chain;
} PgaBranch;

typedef struct {
	int32_t op0, nops, succ_kind, succ;
} PgaChain;

// A shape with where its derivation goes on: run chain's ops from pc on.
// m holds the top three rows of the rigid 4x4 transform (row-major).
typedef struct {
	double m[12];
	double size[3];
	double attr;
	uint64_t seed;
	int16_t kind, mat; // mat: Texture/Color, 1 + the material, 0 none (texture.go)
	int32_t chain, pc, rule, depth, axiom;
	int32_t profile;
	int16_t roof, uv; // uv: ProjectUV was applied
	int32_t index, siblings;
	int32_t anc;      // 1 + the newest ancestor record on the shape's lineage, 0 for none
	uint32_t ask;     // answers to the bilateral queries of the operator at pc (PGA_ASK_VALID)
	// SetupProjection's u and v as affine forms of world points (texture.go:
	// projection). Float, and kind/mat and roof/uv 16 bits each, so the item
	// grows by 32 bytes only: two persistent blocks still share an SM.
	float proj[8];
} PgaItem;

// A terminal shape: term indexes Grammar.TermNames.
typedef struct {
	double m[12];
	double size[3];
	double attr;
	uint64_t seed;
	int32_t term, kind, axiom, rule;
	int32_t profile, roof, index, siblings;
	int32_t mat, uv;
	float proj[8];
} PgaTerm;

typedef struct {
	unsigned long long ticks;      // shapes made, as the CPU counts them against MaxShapes
	unsigned long long scan_total; // the last scan's total (levels) or terminals (persistent)
	uint32_t qtail, qhead, nterm, work;
	int32_t err, err_rule, err_arg, abort;
	uint32_t ncoll, nsnap, npend, nanc; // context records, shapes for later phases, ancestor records written
} PgaStatus;
