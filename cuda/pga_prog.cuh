// Part of pga.cu (included there, after its defines): the evaluation program (Prog), limits, failure reports and slot reservation.
#pragma once

struct Prog {
	const PgaInstr *code;
	const double *consts;
	const PgaOp *ops;
	const PgaBranch *br;
	const PgaChain *chains;
	const int32_t *rule_chain;
	const PgaProfile *profiles;
	const double *points;
	const int32_t *poly;
	const PgaFootRoof *froof;
	const double *rpts;
	const PgaFootCut *fcut;     // each profile's cuts from PgaProfile.cuts
	const PgaCutPiece *cpiece;
	int rect_faces; // where in poly the faces of roofs over rectangles have their profiles, -1: none
	const double *lot_attrs; // per axiom nlot values, NaN where the lot has none
	int nlot;
	const int32_t *rule_phase;
	int ngroups;
	// Context of earlier phases, and what this phase leaves for later ones.
	const PgaObb *coll;
	const PgaRange *coll_rng; // per lot and group
	const double *snaps;
	const PgaRange *snap_rng; // per lot, group and world axis
	PgaObb *coll_out;
	PgaSnap *snap_out;
	PgaItem *pend_out;
	uint32_t out_cap;
	int phase;
	// Bilateral queries (pga_bilateral.cuh): the links, the reach masks per
	// chain, the flags per rule, and the ancestor records of every phase.
	const PgaLink *links;
	const uint32_t *reach;
	const uint32_t *rule_flags;
	const uint32_t *op_bil;   // per op: first << 8 | count of its queries in bil_list
	const uint32_t *bil_list; // link * 4 + QueryKind
	int nlinks;
	PgaItem *anc;
	uint32_t anc_cap;
	int dry_link; // the link a dry run re-derives for; -1 in a real derivation
	// Where a bilateral query counts the shapes it re-derives against the
	// limits and reports failures (pga_ask).
	PgaStatus *st;
	unsigned long long max_shapes;
	int max_depth;
};

// Kernel parameters of the evaluation context (see Prog).
#define PGA_CTX_PARAMS                                                                                             \
	const double *lot_attrs, const PgaObb *coll, const PgaRange *coll_rng, const double *snaps,                   \
		const PgaRange *snap_rng, PgaObb *coll_out, PgaSnap *snap_out, PgaItem *pend_out, uint32_t out_cap, \
		int32_t phase, PgaItem *anc, uint32_t anc_cap
#define PGA_CTX_ARGS lot_attrs, coll, coll_rng, snaps, snap_rng, coll_out, snap_out, pend_out, out_cap, phase, anc, anc_cap

__device__ __forceinline__ Prog pga_prog(const uint32_t *w, const double *lot_attrs = nullptr,
					 const PgaObb *coll = nullptr, const PgaRange *coll_rng = nullptr,
					 const double *snaps = nullptr, const PgaRange *snap_rng = nullptr,
					 PgaObb *coll_out = nullptr, PgaSnap *snap_out = nullptr, PgaItem *pend_out = nullptr,
					 uint32_t out_cap = 0, int32_t phase = 0, PgaItem *anc = nullptr,
					 uint32_t anc_cap = 0) {
	const PgaHeader *h = (const PgaHeader *)w;
	Prog p;
	p.code = (const PgaInstr *)(w + h->off_code);
	p.consts = (const double *)(w + h->off_consts);
	p.ops = (const PgaOp *)(w + h->off_ops);
	p.br = (const PgaBranch *)(w + h->off_branches);
	p.chains = (const PgaChain *)(w + h->off_chains);
	p.rule_chain = (const int32_t *)(w + h->off_rule_chain);
	p.profiles = (const PgaProfile *)(w + h->off_profiles);
	p.points = (const double *)(w + h->off_points);
	p.poly = (const int32_t *)(w + h->off_poly);
	p.froof = (const PgaFootRoof *)(w + h->off_froof);
	p.rpts = (const double *)(w + h->off_rpts);
	p.fcut = (const PgaFootCut *)(w + h->off_fcut);
	p.cpiece = (const PgaCutPiece *)(w + h->off_cut_piece);
	p.rect_faces = h->rect_faces;
	p.lot_attrs = lot_attrs;
	p.nlot = h->nlotattrs;
	p.rule_phase = (const int32_t *)(w + h->off_rule_phase);
	p.ngroups = h->ngroups;
	p.coll = coll;
	p.coll_rng = coll_rng;
	p.snaps = snaps;
	p.snap_rng = snap_rng;
	p.coll_out = coll_out;
	p.snap_out = snap_out;
	p.pend_out = pend_out;
	p.out_cap = out_cap;
	p.phase = phase;
	p.links = (const PgaLink *)(w + h->off_links);
	p.reach = (const uint32_t *)(w + h->off_reach);
	p.rule_flags = p.reach + h->nchains;
	p.op_bil = p.rule_flags + h->nrules;
	p.bil_list = p.op_bil + h->nops;
	p.nlinks = h->nlinks;
	p.anc = anc;
	p.anc_cap = anc_cap;
	p.dry_link = -1;
	p.st = nullptr;
	p.max_shapes = 0;
	p.max_depth = 0;
	return p;
}

struct Limits {
	unsigned long long max_shapes;
	int max_depth;
};

// pga_limited is p where bilateral queries count the shapes they re-derive
// against the limits and fail into st.
__device__ __forceinline__ Prog pga_limited(Prog p, PgaStatus *st, const Limits &L) {
	p.st = st;
	p.max_shapes = L.max_shapes;
	p.max_depth = L.max_depth;
	return p;
}

__device__ void pga_fail(PgaStatus *st, int err, int rule, int arg) {
	if (atomicCAS(&st->err, 0, err) == 0) {
		st->err_rule = rule;
		st->err_arg = arg;
	}
	atomicExch(&st->abort, 1);
}

// Reserves one slot of *ctr per calling thread, one atomic per group of
// threads that arrive together.
__device__ __forceinline__ uint32_t pga_reserve(uint32_t *ctr) {
	cg::coalesced_group g = cg::coalesced_threads();
	uint32_t base = 0;
	if (g.thread_rank() == 0) base = atomicAdd(ctr, g.size());
	return g.shfl(base, 0) + g.thread_rank();
}

