// Part of pga.cu (included there, after its defines): the chain interpreter (cpu.go: chain).
#pragma once

// ---- The chain interpreter ----

// pga_projection is SetupProjection (texture.go: projection, the same
// numbers in the same order): u and v as affine forms of world points, from
// the scope's low corner, a texture every w (h) metres; negative: a factor
// of the scope's size; 0 or not finite: that coordinate is 0.
__device__ __noinline__ void pga_projection(PgaItem &s, int au, int av, double w, double h) {
	double o[3];
	for (int r = 0; r < 3; r++) {
		o[r] = s.m[r * 4 + 3];
		for (int c = 0; c < 3; c++) o[r] = __dsub_rn(o[r], __dmul_rn(s.m[r * 4 + c], s.size[c]) / 2);
	}
	const int axes[2] = {au, av};
	const double reps[2] = {w, h};
	for (int k = 0; k < 2; k++) {
		const int a = axes[k];
		double rep = reps[k];
		if (rep < 0) rep = __dmul_rn(-rep, s.size[a]);
		for (int c = 0; c < 4; c++) s.proj[4 * k + c] = 0;
		if (rep == 0 || isnan(rep) || isinf(rep)) continue;
		const double ax[3] = {s.m[a], s.m[4 + a], s.m[8 + a]};
		const double d = __dadd_rn(__dadd_rn(__dmul_rn(ax[0], o[0]), __dmul_rn(ax[1], o[1])), __dmul_rn(ax[2], o[2]));
		for (int c = 0; c < 3; c++) s.proj[4 * k + c] = (float)(ax[c] / rep);
		s.proj[4 * k + 3] = (float)(-d / rep);
	}
}

// pga_split_refusal is why block operator op cannot split s here (a
// PGA_ERR_ code, its argument the op), or 0: CompSplit of a Quad or of a
// roof the host did not lay out; Offset/Setback of a roof, or of a lot's polygon the host did not
// cut for this op at s's size and distance; SubDiv/Repeat across a lot's
// polygon (pga_slab_across) the host did not cut at s's size.
template <bool DRY> __device__ int pga_split_refusal(const Prog &P, const PgaOp &op, const PgaItem &s) {
	switch (op.kind) {
	case PGA_OP_COMPSPLIT:
		if (s.kind == PGA_QUAD) return PGA_ERR_COMPSPLIT_QUAD;
		if (s.roof != PGA_NO_ROOF) {
			// A roof the host built on a lot's polygon, with its faces
			// laid out, at a height; or a GABLE, SHED or PYRAMID roof over
			// a rectangle (compile_footsplit.go) of a size, none negative
			// (faceProfiles, rectFaceProfiles: where the CPU cuts the faces
			// at the roof's own size instead).
			const PgaFootRoof *fr = pga_item_roof(P, s);
			if (fr != nullptr && (fr->npart < 0 || !(s.size[2] > 0))) return PGA_ERR_ROOF_SPLIT;
			if (fr == nullptr && (P.rect_faces < 0 || (s.profile > 0 && P.profiles[s.profile].rings >= 0) ||
					      s.roof == PGA_HIP || !(s.size[0] >= 0 && s.size[1] >= 0 && s.size[2] >= 0) ||
					      isinf(s.size[0] + s.size[1] + s.size[2]))) return PGA_ERR_ROOF_SPLIT;
		}
		return 0;
	case PGA_OP_SETBACK:
	case PGA_OP_OFFSET:
		if (s.roof != PGA_NO_ROOF || (s.profile != 0 && !pga_has_cut(P, op, s))) return PGA_ERR_FRONT;
		if (s.profile != 0 && !pga_cut_fits<DRY>(P, op, s)) return PGA_ERR_FOOT_CUT;
		return 0;
	case PGA_OP_SUBDIV:
	case PGA_OP_REPEAT:
		return pga_slab_across(P, op, s) && !pga_slab_ready<DRY>(P, op, s) ? PGA_ERR_FOOT_CUT : 0;
	}
	return 0;
}

// pga_run applies s's chain from s.pc on, through rule successors and
// single-output operators, until a terminal (RUN_TERM, term set), a dropped
// shape (RUN_NONE) or a block operator with n outputs (RUN_SPLIT: s is left
// at that operator). ticks counts shapes made as the CPU's tick does.
// DRY (a bilateral query's re-derivation, link P.dry_link): nothing is
// registered or left for later phases, successors that do not lead to the
// link's target are dropped, and a shape handed to the target rule ends the
// run with RUN_TARGET (cpu.go: apply, sub and emit with ev.dry set).
// Not DRY, an operator with bilateral queries first returns RUN_ASK, s left
// at it: the caller answers them (pga_ask) into s.ask and runs s again, so
// the re-derivation is never nested in this function's frame.
template <bool DRY>
__device__ __noinline__ int pga_run(const Prog &P, const Limits &L, PgaStatus *st, PgaItem &s, uint32_t &n, int &term,
		       uint32_t &ticks) {
	for (int guard = 0;; guard++) {
		const PgaChain ch = P.chains[s.chain];
		if constexpr (!DRY) {
			// A shape entering a rule that bilateral queries name leaves
			// an ancestor record on its lineage (apply in cpu.go).
			// (Not again when s comes back with answers: it entered already.)
			if (s.pc == 0 && P.nlinks > 0 && !(s.ask & PGA_ASK_VALID) && s.chain == P.rule_chain[s.rule] &&
			    (P.rule_flags[s.rule] & PGA_RULE_MARKED)) {
				const uint32_t slot = pga_reserve(&st->nanc);
				if (slot < P.anc_cap && P.anc) {
					P.anc[slot] = s;
					s.anc = (int32_t)slot + 1;
				} else {
					pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 2);
					return RUN_ERR;
				}
			}
		}
		if (s.pc >= ch.nops) {
			s.ask = 0;
			if (ch.succ_kind == PGA_SUCC_TERMINAL) {
				ticks++;
				term = ch.succ;
				return RUN_TERM;
			}
			if (ch.succ_kind == PGA_SUCC_RULE) {
				if constexpr (DRY) {
					const PgaLink lk = P.links[P.dry_link];
					if (lk.target_kind == PGA_TARGET_RULE && ch.succ == lk.target) return RUN_TARGET;
					if (P.rule_phase[ch.succ] != P.phase || !(P.reach[P.rule_chain[ch.succ]] & (1u << P.dry_link))) return RUN_NONE;
				}
				if (s.depth + 1 > L.max_depth) {
					pga_fail(st, PGA_ERR_DEPTH, ch.succ, 0);
					return RUN_ERR;
				}
				if (P.rule_phase[ch.succ] > P.phase) {
					// The rule belongs to a later phase: the shape waits for it.
					PgaItem w = s;
					w.depth++;
					w.rule = ch.succ;
					w.chain = P.rule_chain[ch.succ];
					w.pc = 0;
					const uint32_t slot = pga_reserve(&st->npend);
					if (slot < P.out_cap && P.pend_out) P.pend_out[slot] = w;
					else pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 2);
					return RUN_NONE;
				}
				ticks++;
				s.depth++;
				s.rule = ch.succ;
				s.chain = P.rule_chain[ch.succ];
				s.pc = 0;
				continue;
			}
			if (ch.succ_kind == PGA_SUCC_UNDEFINED) pga_fail(st, PGA_ERR_UNDEFINED, s.rule, ch.succ);
			return RUN_NONE;
		}
		if constexpr (!DRY) {
			if (P.nlinks > 0 && (P.op_bil[ch.op0 + s.pc] & 0xff) && !(s.ask & PGA_ASK_VALID)) return RUN_ASK;
		}
		const PgaOp op = P.ops[ch.op0 + s.pc];
		if (s.kind == PGA_SPHERE && (op.kind == PGA_OP_COMPSPLIT || op.kind == PGA_OP_EXTRUDE || op.kind == PGA_OP_ROOF ||
					     op.kind == PGA_OP_SETBACK || op.kind == PGA_OP_OFFSET)) { // sphereTakes in sphere.go
			pga_fail(st, PGA_ERR_SPHERE, s.rule, ch.op0 + s.pc);
			return RUN_ERR;
		}
		int pick = -1; // single-output operators: the branch taken
		switch (op.kind) {
		case PGA_OP_TRANSLATE: {
			const double x = pga_eval<DRY>(P, op.expr[0], s), y = pga_eval<DRY>(P, op.expr[1], s), z = pga_eval<DRY>(P, op.expr[2], s);
			double t[12];
			mat_translation(x, y, z, t);
			mat_mul(s.m, t, s.m);
			break;
		}
		case PGA_OP_ROTATE: {
			const double x = pga_eval<DRY>(P, op.expr[0], s), y = pga_eval<DRY>(P, op.expr[1], s), z = pga_eval<DRY>(P, op.expr[2], s);
			double t[12];
			mat_rotation(x, y, z, t);
			mat_mul(s.m, t, s.m);
			break;
		}
		case PGA_OP_SCALE: {
			double v[3];
			for (int k = 0; k < 3; k++) v[k] = pga_eval<DRY>(P, op.expr[k], s);
			for (int k = 0; k < 3; k++) {
				if (v[k] < 0) s.size[k] *= -v[k];
				else s.size[k] = v[k];
			}
			break;
		}
		case PGA_OP_EXTRUDE: {
			const double h = pga_eval<DRY>(P, op.expr[0], s);
			if (s.kind == PGA_QUAD) { // extrude in ops.go
				double r[12];
				mat_rot(0, 90, r);
				mat_mul(s.m, r, s.m);
				s.kind = PGA_BOX;
				s.size[2] = s.size[1];
			}
			s.size[1] = h;
			break;
		}
		case PGA_OP_SWAPSIZE: {
			const double a = s.size[op.axis[0]], b = s.size[op.axis[1]], c = s.size[op.axis[2]];
			s.size[0] = a;
			s.size[1] = b;
			s.size[2] = c;
			break;
		}
		case PGA_OP_SETASPRISM:
			s.profile = op.mode;
			s.roof = PGA_NO_ROOF;
			if (s.kind == PGA_SPHERE) s.kind = op.axis[0];
			break;
		case PGA_OP_ROOF: {
			const double angle = pga_eval<DRY>(P, op.expr[0], s);
			// A Quad on a lot's own polygon takes the roof the host built
			// for the lot (compile_footroof.go: roofOn's polyRoof).
			const bool foot = s.kind == PGA_QUAD && s.profile != 0 && P.profiles[s.profile].roofs >= 0;
			if (!foot && (s.kind != PGA_QUAD || s.profile != 0)) {
				pga_fail(st, PGA_ERR_ROOF_FOOTPRINT, s.rule, ch.op0 + s.pc);
				return RUN_ERR;
			}
			if (!(angle > 0 && angle < 90)) {
				pga_fail(st, PGA_ERR_ROOF_ANGLE, s.rule, ch.op0 + s.pc);
				return RUN_ERR;
			}
			double run;
			if (foot) {
				const PgaFootRoof fr = P.froof[P.profiles[s.profile].roofs + op.mode - 1];
				if (fr.nat < 0 || s.size[0] != fr.sx || s.size[1] != fr.sy) {
					pga_fail(st, PGA_ERR_FOOT_ROOF, s.rule, ch.op0 + s.pc);
					return RUN_ERR;
				}
				run = fr.top;
			} else {
				const double shrt = fmin_go(s.size[0], s.size[1]);
				run = op.mode == PGA_SHED ? shrt : shrt / 2;
			}
			const double h = tan(angle * 3.141592653589793 / 180) * run;
			double t[12];
			mat_translation(0, 0, h / 2, t);
			mat_mul(s.m, t, s.m);
			s.kind = PGA_BOX;
			s.roof = op.mode;
			s.size[2] = h;
			break;
		}
		case PGA_OP_COLLIDER: {
			if constexpr (DRY) break;
			const uint32_t slot = pga_reserve(&st->ncoll);
			if (slot < P.out_cap && P.coll_out) {
				Obb b;
				shape_obb(s, b);
				PgaObb o;
				for (int i = 0; i < 3; i++) {
					o.c[i] = b.c[i];
					o.half[i] = b.half[i];
					for (int k = 0; k < 3; k++) o.axes[3 * i + k] = b.ax[i][k];
				}
				o.lot = s.axiom;
				o.group = op.axis[0];
				P.coll_out[slot] = o;
			} else {
				pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 2);
			}
			break;
		}
		case PGA_OP_SNAPLINES: {
			if constexpr (DRY) break;
			int k;
			double comp;
			const int a = op.axis[0];
			world_axis(s, a, k, comp);
			const double centre = s.m[k * 4 + 3];
			const double d = comp * s.size[a] / 2;
			for (int e = 0; e < 2; e++) {
				const uint32_t slot = pga_reserve(&st->nsnap);
				if (slot < P.out_cap && P.snap_out) {
					PgaSnap sn;
					sn.v = e == 0 ? centre - d : centre + d;
					sn.lot = s.axiom;
					sn.key = op.axis[1] * 3 + k;
					P.snap_out[slot] = sn;
				} else {
					pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 2);
				}
			}
			break;
		}
		case PGA_OP_SETUPPROJECTION:
			pga_projection(s, op.axis[0], op.axis[1], pga_eval<DRY>(P, op.expr[0], s), pga_eval<DRY>(P, op.expr[1], s));
			break;
		case PGA_OP_PROJECTUV: s.uv = 1; break;
		case PGA_OP_MATERIAL: s.mat = (int16_t)op.mode; break;
		case PGA_OP_DISCARD: return RUN_NONE;
		case PGA_OP_GENERATE:
			ticks++;
			term = ch.succ;
			return RUN_TERM;
		case PGA_OP_IF: {
			const double v = pga_eval<DRY>(P, op.expr[0], s);
			pick = (v != 0 && !isnan(v)) ? 0 : 1;
			break;
		}
		case PGA_OP_IFSIZELESS: pick = (s.size[op.axis[0]] < pga_eval<DRY>(P, op.expr[0], s)) ? 0 : 1; break;
		case PGA_OP_IFCOLLIDES: pick = pga_query(P, PGA_Q_OVERLAPS, op.axis[0], s) ? 0 : 1; break;
		case PGA_OP_RANDOMRULE: {
			const double v = pga_eval<DRY>(P, op.expr[0], s);
			double u = pga_unit(pg_hash64((uint64_t)__double_as_longlong(v), 0));
			double sum = 0;
			for (int k = 0; k < op.nbranches; k++) {
				const double w = pga_eval<DRY>(P, P.br[op.branch0 + k].weight, s);
				if (w > 0 && !isinf(w)) sum += w;
			}
			if (!(sum > 0)) return RUN_NONE;
			u *= sum;
			for (int k = 0; k < op.nbranches; k++) {
				const double w = pga_eval<DRY>(P, P.br[op.branch0 + k].weight, s);
				if (!(w > 0 && !isinf(w))) continue;
				pick = k;
				if (u < w) break;
				u -= w;
			}
			break;
		}
		case PGA_OP_COMPSPLIT:
		case PGA_OP_SETBACK:
		case PGA_OP_OFFSET:
		case PGA_OP_SUBDIV:
		case PGA_OP_REPLICATE: {
			const int err = pga_split_refusal<DRY>(P, op, s);
			if (err) {
				pga_fail(st, err, s.rule, ch.op0 + s.pc);
				return RUN_ERR;
			}
			n = pga_outputs<DRY>(P, s, -1, nullptr);
			ticks += n;
			return n ? RUN_SPLIT : RUN_NONE;
		}
		case PGA_OP_REPEAT: {
			if (pga_slab_across(P, op, s)) {
				// Across a lot's polygon: the tiles the host cut for it.
				if (const int err = pga_split_refusal<DRY>(P, op, s)) {
					pga_fail(st, err, s.rule, ch.op0 + s.pc);
					return RUN_ERR;
				}
				const PgaFootCut e = pga_cut_entry(P, op, s);
				if ((unsigned long long)e.siblings > L.max_shapes) {
					pga_fail(st, PGA_ERR_REPEAT, s.rule, e.siblings);
					return RUN_ERR;
				}
				n = (uint32_t)e.n;
				ticks += n;
				return n ? RUN_SPLIT : RUN_NONE;
			}
			const uint32_t c = pga_repeat<DRY>(P, op, s, -1, nullptr, nullptr);
			if ((unsigned long long)c > L.max_shapes || c == 0xffffffffu) {
				pga_fail(st, PGA_ERR_REPEAT, s.rule, (int)min(c, 0x7fffffffu));
				return RUN_ERR;
			}
			n = c;
			ticks += n;
			return n ? RUN_SPLIT : RUN_NONE;
		}
		}
		s.ask = 0; // the next operator asks its own
		if (pick >= 0) {
			ticks++;
			s.seed = pg_hash64(s.seed, (uint64_t)pick);
			s.chain = P.br[op.branch0 + pick].chain;
			s.pc = 0;
		} else {
			s.pc++;
		}
	}
}

__device__ __forceinline__ void pga_make_term(const PgaItem &s, int term, PgaTerm &t) {
	for (int k = 0; k < 12; k++) t.m[k] = s.m[k];
	for (int k = 0; k < 3; k++) t.size[k] = s.size[k];
	t.attr = s.attr;
	t.seed = s.seed;
	t.term = term;
	t.kind = s.kind;
	t.axiom = s.axiom;
	t.rule = s.rule;
	t.profile = s.profile;
	t.roof = s.roof;
	t.index = s.index;
	t.siblings = s.siblings;
	t.mat = s.mat;
	t.uv = s.uv;
	for (int k = 0; k < 8; k++) t.proj[k] = s.proj[k];
}

// Adds this warp's ticks to the total; past max_shapes it reports the rule
// of a thread that made shapes.
__device__ void pga_add_ticks(PgaStatus *st, const Limits &L, uint32_t ticks, int rule) {
	const unsigned lane = threadIdx.x & 31;
	const uint32_t sum = __reduce_add_sync(PG_FULL_MASK, ticks);
	unsigned long long old = 0;
	if (lane == 0 && sum) old = atomicAdd(&st->ticks, (unsigned long long)sum);
	old = __shfl_sync(PG_FULL_MASK, old, 0);
	if (sum && old + sum > L.max_shapes && ticks) pga_fail(st, PGA_ERR_SHAPES, rule, 0);
}

