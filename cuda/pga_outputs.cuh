// Part of pga.cu (included there, after its defines): operators with several outputs (split.go, ops.go).
#pragma once

// ---- Operators with several outputs ----

// child is output i of n of an operator applied to s.
__device__ __forceinline__ void pga_childof(const PgaItem &s, int i, int n, PgaItem &c) {
	c = s;
	c.ask = 0; // answers belong to the parent's operator
	c.seed = pg_hash64(s.seed, (uint64_t)i);
	c.index = i;
	c.siblings = n;
}

// piece is s cut to length size along axis, centred at offset; output i of n.
__device__ void pga_piece(const PgaItem &s, int axis, double offset, double size, int i, int n, PgaItem &c) {
	pga_childof(s, i, n, c);
	double t[12];
	mat_translation(axis == 0 ? offset : 0, axis == 1 ? offset : 0, axis == 2 ? offset : 0, t);
	mat_mul(s.m, t, c.m);
	c.size[axis] = size;
}

// pga_repeat walks Repeat's tiles: the extent, cut at the planes of its
// snap group when it has one, each span tiled on its own (repeat() in
// split.go). With want < 0 it returns how many tiles there are (0xffffffff
// when too many to count); else it sets tile want's centre and size.
template <bool DRY>
__device__ __noinline__ uint32_t pga_repeat(const Prog &P, const PgaOp &op, const PgaItem &s, long long want, double *centre,
			       double *size) {
	const int axis = op.axis[0];
	const double ext = s.size[axis];
	double w = pga_eval<DRY>(P, op.expr[0], s);
	if (w < 0) w *= -ext;
	if (!(w > 0) || !(ext >= 0) || isinf(ext) || isinf(w)) return 0;
	// Cuts strictly inside the extent (snapCuts), ascending in local terms.
	int ncuts = 0, i0 = 0, k = 0;
	double comp = 0, wc = 0;
	const double *pl = nullptr;
	const int group = op.axis[2] - 1;
	if (group >= 0) {
		world_axis(s, axis, k, comp);
		const PgaRange r = snap_planes(P, s, group, k);
		if (r.n > 0 && comp != 0) {
			pl = P.snaps + r.start;
			wc = s.m[k * 4 + 3];
			const double half = s.size[axis] / 2;
			const double lo = wc - fabs(comp) * half, hi = wc + fabs(comp) * half;
			i0 = lower_bound(pl, r.n, lo + PGA_EPS);
			int i1 = i0;
			while (i1 < r.n && pl[i1] < hi - PGA_EPS) i1++;
			ncuts = i1 - i0;
		}
	}
	unsigned long long total = 0;
	double lo = -ext / 2;
	for (int b = 0; b <= ncuts; b++) {
		double hi = ext / 2;
		if (b < ncuts) {
			const int c = comp > 0 ? i0 + b : i0 + ncuts - 1 - b;
			hi = (pl[c] - wc) / comp;
		}
		const double span = hi - lo;
		// OperatorGraph's tiling (spanTiles, spanTile in split.go): at
		// least one tile; ADJUST_TO_FILL (mode 0) makes floor(span/w)
		// stretched tiles, or one of no extent at the low end; the
		// anchored modes add a short tile, last for ANCHOR_TO_END (2),
		// first for ANCHOR_TO_START (1), and a lone tile is whole unless
		// it is ANCHOR_TO_START's short one.
		const double whole = floor(span / w + 1e-9);
		if (whole > 4294967294.0) return 0xffffffffu;
		const double rest = span - whole * w;
		const int shortn = (op.mode != 0 && rest > 1e-9 * w) ? 1 : 0;
		const unsigned long long n = max((unsigned long long)whole + shortn, 1ull);
		if (want >= 0 && (unsigned long long)want < total + n) {
			const long long j = want - (long long)total;
			if (op.mode == 0) {
				if (whole < 1) {
					*centre = lo;
					*size = 0;
				} else {
					const double tw = span / whole;
					*centre = lo + ((double)j + 0.5) * tw;
					*size = tw;
				}
				return 0;
			}
			const double first = (op.mode == 1 && shortn) ? rest : w;
			if (j == 0) {
				*centre = lo + first / 2;
				*size = first;
			} else if (op.mode == 2 && shortn && (unsigned long long)j == n - 1) {
				*centre = lo + first + (double)(j - 1) * w + rest / 2;
				*size = rest;
			} else {
				*centre = lo + first + ((double)j - 0.5) * w;
				*size = w;
			}
			return 0;
		}
		total += n;
		if (total > 0xfffffffeull) return 0xffffffffu;
		lo = hi;
	}
	return (uint32_t)total;
}

// The branch an output goes to, set by pga_outputs.
#define PGA_SET(c_, chain_) \
	do {                    \
		(c_)->chain = (chain_); \
		(c_)->pc = 0;       \
	} while (0)

// A lot's polygon cut on the host (compile_footcut.go, compile_footslab.go):
// pga_cut_slot is op's slot (1 + its index among the cuts, 0 for none;
// a Repeat's mode is its RepeatMode, so its slot is in axis[1]),
// pga_has_cut says whether op cut s's profile, pga_cut_fits whether at s's
// size and the distance op gives it; pga_cut is output want of the cut
// (the number of outputs for want < 0), framed as the CPU's polygonPiece
// frames it.
__device__ __forceinline__ int pga_cut_slot(const PgaOp &op) { return op.kind == PGA_OP_REPEAT ? op.axis[1] : op.mode; }

// pga_cut_find is op's cut of s's profile, nullptr for none.
__device__ __forceinline__ const PgaFootCut *pga_cut_find(const Prog &P, const PgaOp &op, const PgaItem &s) {
	const int slot = pga_cut_slot(op);
	if (slot <= 0 || s.profile <= 0 || P.profiles[s.profile].cuts == 0) return nullptr;
	for (const PgaFootCut *e = P.fcut + P.profiles[s.profile].cuts - 1; e->slot != 0; e++) {
		if (e->slot == slot) return e;
	}
	return nullptr;
}

// pga_cut_entry is op's cut of s's profile, where pga_has_cut says there is one.
__device__ __forceinline__ PgaFootCut pga_cut_entry(const Prog &P, const PgaOp &op, const PgaItem &s) {
	return *pga_cut_find(P, op, s);
}

__device__ __forceinline__ bool pga_has_cut(const Prog &P, const PgaOp &op, const PgaItem &s) {
	const PgaFootCut *e = pga_cut_find(P, op, s);
	return e != nullptr && e->n >= 0;
}

__device__ __forceinline__ int pga_cut_vaxis(const PgaItem &s) { return s.kind == PGA_QUAD ? 1 : 2; }

template <bool DRY> __device__ bool pga_cut_fits(const Prog &P, const PgaOp &op, const PgaItem &s) {
	const PgaFootCut e = pga_cut_entry(P, op, s);
	if (!((s.kind == PGA_QUAD || s.kind == PGA_BOX) && s.size[0] == e.sx && s.size[pga_cut_vaxis(s)] == e.sy)) return false;
	// A slab's sizes are the lot's, as the footprint flow ensures.
	if (op.kind == PGA_OP_SUBDIV || op.kind == PGA_OP_REPEAT) return true;
	const double d = pga_eval<DRY>(P, op.expr[0], s);
	return d == e.d || (isnan(d) && isnan(e.d));
}

// pga_slab_ready says whether a SubDiv or Repeat across s's polygon
// (pga_slab_across) may take the slabs or tiles the host cut: there is a
// cut of s's profile, made at s's size. Where not, the shape reached a cut
// the host did not foresee, and the run fails (PGA_ERR_FOOT_CUT) rather
// than cut the bounding rectangle.
template <bool DRY> __device__ __forceinline__ bool pga_slab_ready(const Prog &P, const PgaOp &op, const PgaItem &s) {
	return pga_has_cut(P, op, s) && pga_cut_fits<DRY>(P, op, s);
}

// pga_slab_across says whether SubDiv or Repeat op cuts across the polygon
// s stands on (slabFootprint in split_polygon.go): s is a Quad or a prism,
// not a roof, on a lot's polygon or a piece of one (a profile with rings),
// and the cut runs along X, or along Y of a Quad or Z of a prism.
__device__ __forceinline__ bool pga_slab_across(const Prog &P, const PgaOp &op, const PgaItem &s) {
	if (s.profile <= 0 || s.roof != PGA_NO_ROOF || P.profiles[s.profile].rings < 0) return false;
	const int a = op.axis[0];
	return (s.kind == PGA_QUAD && a != 2) || (s.kind == PGA_BOX && a != 1);
}

__device__ uint32_t pga_cut(const Prog &P, const PgaOp &op, const PgaItem &s, int want, PgaItem *c) {
	const PgaFootCut e = pga_cut_entry(P, op, s);
	if (want < 0) return (uint32_t)e.n;
	const PgaCutPiece pc = P.cpiece[e.start + want];
	pga_childof(s, pc.child, e.siblings, *c);
	if (pc.part > 0) c->seed = pg_hash64(pg_hash64(c->seed, PGA_PART_STREAM), (uint64_t)pc.part);
	if (pc.profile >= 0) {
		// A Quad's footprint lies in its X and Y, a prism's in X and -Z.
		const int v = pga_cut_vaxis(s);
		double t[12];
		mat_translation(pc.cu, v == 1 ? pc.cv : 0, v == 2 ? -pc.cv : 0, t);
		mat_mul(s.m, t, c->m);
		c->size[0] = pc.w;
		c->size[v] = pc.h;
		c->profile = pc.profile;
	}
	if (pc.branch < 0) {
		c->pc = s.pc + 1; // a Repeat's tile goes on down the chain
	} else {
		PGA_SET(c, P.br[op.branch0 + pc.branch].chain);
	}
	return 0;
}

#include "pga_roofsplit.cuh"

// pga_outputs walks the outputs of the block operator at s.pc: with want < 0
// it returns how many there are; else it makes output number want into *c
// (SubDiv skips branches of size 0, as the CPU does).
template <bool DRY> __device__ __noinline__ uint32_t pga_outputs(const Prog &P, const PgaItem &s, int want, PgaItem *c) {
	const PgaOp op = P.ops[P.chains[s.chain].op0 + s.pc];
	switch (op.kind) {
	case PGA_OP_REPLICATE:
		if (want < 0) return op.nbranches;
		pga_childof(s, want, op.nbranches, *c);
		PGA_SET(c, P.br[op.branch0 + want].chain);
		return 0;
	case PGA_OP_REPEAT: {
		if (pga_slab_across(P, op, s)) return pga_cut(P, op, s, want, c);
		if (want < 0) return pga_repeat<DRY>(P, op, s, -1, nullptr, nullptr);
		const uint32_t n = pga_repeat<DRY>(P, op, s, -1, nullptr, nullptr);
		double centre = 0, size = 0;
		pga_repeat<DRY>(P, op, s, want, &centre, &size);
		pga_piece(s, op.axis[0], centre, size, want, (int)n, *c);
		c->pc = s.pc + 1;
		return 0;
	}
	case PGA_OP_SUBDIV: {
		if (pga_slab_across(P, op, s)) return pga_cut(P, op, s, want, c);
		const int axis = op.axis[0];
		if (op.axis[2] > 0) {
			// Snapping: sizes first, then the inner cuts move to the
			// nearest planes (subdiv and snapSizes in split.go).
			const int group = op.axis[2] - 1, nb = op.nbranches;
			bool emit[PGA_MAX_SNAP_BRANCHES];
			double sz[PGA_MAX_SNAP_BRANCHES], cuts[PGA_MAX_SNAP_BRANCHES + 1], moved[PGA_MAX_SNAP_BRANCHES + 1];
			double abs = 0, rel = 0;
			for (int k = 0; k < nb; k++) {
				const int wo = P.br[op.branch0 + k].weight;
				double w = wo >= 0 ? pga_eval<DRY>(P, wo, s) : 0;
				if (isnan(w)) w = 0;
				sz[k] = w;
				emit[k] = w != 0;
				if (w < 0) rel -= w;
				else abs += w;
			}
			const double left = fmax_go(0, s.size[axis] - abs);
			for (int k = 0; k < nb; k++) {
				if (sz[k] < 0) sz[k] = left * -sz[k] / rel;
			}
			cuts[0] = -s.size[axis] / 2;
			for (int k = 0; k < nb; k++) cuts[k + 1] = cuts[k] + sz[k];
			for (int k = 0; k <= nb; k++) moved[k] = cuts[k];
			for (int k = 1; k < nb; k++) {
				const double reach = fmin_go(cuts[k] - cuts[k - 1], cuts[k + 1] - cuts[k]) / 2;
				double t;
				if (nearest_snap(P, s, group, axis, cuts[k], t) && fabs(t - cuts[k]) <= reach) {
					moved[k] = fmin_go(fmax_go(t, moved[k - 1]), cuts[nb]);
				} else {
					moved[k] = fmax_go(cuts[k], moved[k - 1]);
				}
			}
			double pos = -s.size[axis] / 2;
			uint32_t n = 0;
			for (int k = 0; k < nb; k++) {
				const double w = moved[k + 1] - moved[k];
				if (emit[k]) {
					if ((int)n == want) {
						pga_piece(s, axis, pos + w / 2, w, k, nb, *c);
						PGA_SET(c, P.br[op.branch0 + k].chain);
						return 0;
					}
					n++;
				}
				pos += w;
			}
			return n;
		}
		double abs = 0, rel = 0;
		for (int k = 0; k < op.nbranches; k++) {
			const int wo = P.br[op.branch0 + k].weight;
			double w = wo >= 0 ? pga_eval<DRY>(P, wo, s) : 0;
			if (isnan(w)) w = 0;
			if (w < 0) rel -= w;
			else abs += w;
		}
		const double x = s.size[axis] - abs;
		const double left = (x > 0 || isnan(x)) ? x : 0.0;
		double pos = -s.size[axis] / 2;
		uint32_t n = 0;
		for (int k = 0; k < op.nbranches; k++) {
			const PgaBranch b = P.br[op.branch0 + k];
			double w = b.weight >= 0 ? pga_eval<DRY>(P, b.weight, s) : 0;
			if (isnan(w)) w = 0;
			const bool emit = w != 0; // OperatorGraph: every branch not of size 0
			if (w < 0) w = left * -w / rel;
			if (emit) {
				if ((int)n == want) {
					pga_piece(s, axis, pos + w / 2, w, k, op.nbranches, *c);
					PGA_SET(c, b.chain);
					return 0;
				}
				n++;
			}
			pos += w;
		}
		return n;
	}
	case PGA_OP_COMPSPLIT: {
		if (s.roof != PGA_NO_ROOF) return pga_item_roof(P, s) ? pga_roof_split(P, op, s, want, c) : pga_rect_roof_split(P, op, s, want, c);
		const double x = s.size[0], y = s.size[1], z = s.size[2];
		if (s.profile != 0) {
			// A prism (prismSplit in ops.go): the caps at +-Y, then one
			// rectangle per edge of its profile.
			const PgaProfile pr = P.profiles[s.profile];
			const double *pts = P.points + 2 * pr.start;
			const int n = 2 + pr.n;
			if (want == 0 || want == 1) {
				double t[12], r[12];
				pga_childof(s, want, n, *c);
				c->kind = PGA_QUAD;
				if (want == 0) {
					mat_translation(0, y / 2, 0, t);
					mat_mul(s.m, t, c->m);
					mat_rot(0, -90, r);
				} else {
					c->profile = s.profile + 1;
					mat_translation(0, -y / 2, 0, t);
					mat_mul(s.m, t, c->m);
					mat_rot(0, 90, r);
				}
				mat_mul(c->m, r, c->m);
				c->size[0] = x;
				c->size[1] = z;
				c->size[2] = 0;
				PGA_SET(c, P.br[op.branch0 + want].chain);
				return 0;
			}
			// Side i is the edge into point i from the one before it on
			// its ring (a lot's polygon: the outer ring, then its holes).
			uint32_t cnt = 2;
			for (int r = 0, base = 0; r < pr.nrings; r++) {
				const int len = pr.rings < 0 ? pr.n : P.poly[pr.rings + r];
				for (int k = 0; k < len; k++) {
					const int i = base + k, j = base + (k + len - 1) % len;
					const double px = pts[2 * j], py = pts[2 * j + 1];
					const double qx = pts[2 * i], qy = pts[2 * i + 1];
					const double ax = px * x, az = -py * z;
					double dx = qx * x - ax, dz = -qy * z - az;
					const double l = hypot(dx, dz);
					if (l == 0) continue;
					if ((int)cnt == want) {
						dx = dx / l;
						dz = dz / l;
						const double f[12] = {dx, 0, -dz, ax + dx * l / 2, 0, 1, 0, 0, dz, 0, dx, az + dz * l / 2};
						pga_childof(s, 2 + i, n, *c);
						c->kind = PGA_QUAD;
						c->profile = 0;
						mat_mul(s.m, f, c->m);
						c->size[0] = l;
						c->size[1] = y;
						c->size[2] = 0;
						PGA_SET(c, P.br[op.branch0 + 2].chain);
						return 0;
					}
					cnt++;
				}
				base += len;
			}
			return cnt;
		}
		if (want < 0) return 6;
		double t[12], r[12], f[12];
		double w, h;
		int branch = 2;
		switch (want) {
		case 0: mat_translation(0, y / 2, 0, t); mat_rot(0, -90, r); w = x; h = z; branch = 0; break;
		case 1: mat_translation(0, -y / 2, 0, t); mat_rot(0, 90, r); w = x; h = z; branch = 1; break;
		case 2: mat_translation(0, 0, -z / 2, t); mat_rot(1, 180, r); w = x; h = y; break; // back
		case 3: mat_translation(0, 0, z / 2, t); mat_ident(r); w = x; h = y; break; // front
		case 4: mat_translation(-x / 2, 0, 0, t); mat_rot(1, -90, r); w = z; h = y; break; // left
		default: mat_translation(x / 2, 0, 0, t); mat_rot(1, 90, r); w = z; h = y; break; // right
		}
		if (want == 3) {
			for (int k = 0; k < 12; k++) f[k] = t[k];
		} else {
			mat_mul(t, r, f);
		}
		pga_childof(s, want, 6, *c);
		c->kind = PGA_QUAD;
		mat_mul(s.m, f, c->m);
		c->size[0] = w;
		c->size[1] = h;
		c->size[2] = 0;
		PGA_SET(c, P.br[op.branch0 + branch].chain);
		return 0;
	}
	case PGA_OP_SETBACK: {
		if (s.profile != 0) return pga_cut(P, op, s, want, c);
		// The street side: -Y of a Quad, +Z of a Box.
		const int axis = s.kind == PGA_QUAD ? 1 : 2;
		const double sign = s.kind == PGA_QUAD ? -1.0 : 1.0;
		double d = pga_eval<DRY>(P, op.expr[0], s);
		const double ext = s.size[axis];
		d = fmin_go(fmax_go(d, 0), ext);
		uint32_t n = 0;
		if (d > 0) {
			if (want == 0) {
				pga_piece(s, axis, sign * (ext - d) / 2, d, 0, 2, *c);
				PGA_SET(c, P.br[op.branch0].chain);
				return 0;
			}
			n++;
		}
		const double rest = ext - d;
		if (rest > 0) {
			if ((int)n == want) {
				pga_piece(s, axis, -sign * d / 2, rest, 1, 2, *c);
				PGA_SET(c, P.br[op.branch0 + 1].chain);
				return 0;
			}
			n++;
		}
		return n;
	}
	case PGA_OP_OFFSET: {
		if (s.profile != 0) return pga_cut(P, op, s, want, c);
		const int axis = s.kind == PGA_QUAD ? 1 : 2;
		const double sign = s.kind == PGA_QUAD ? -1.0 : 1.0;
		const double d = pga_eval<DRY>(P, op.expr[0], s);
		if (!(d > 0) && !(d < 0 && !isinf(d))) {
			if (want < 0) return 1;
			pga_childof(s, 0, 5, *c);
			PGA_SET(c, P.br[op.branch0].chain);
			return 0;
		}
		// The bands of offsetBands (ops.go): an inset for d > 0, an
		// outset by -d for d < 0 (front and back across the corners).
		const double w = s.size[0], h = s.size[axis];
		double iw, ih, fc, th, fw, xc, tw, sl;
		if (d < 0) {
			const double e = -d;
			iw = w + 2 * e, ih = h + 2 * e, fc = (h + e) / 2, th = e, fw = w + 2 * e, xc = (w + e) / 2, tw = e, sl = h;
		} else {
			const double dw = fmin_go(d, w / 2), dh = fmin_go(d, h / 2);
			iw = w - 2 * dw, ih = h - 2 * dh, fc = (h - dh) / 2, th = dh, fw = w, xc = (w - dw) / 2, tw = dw, sl = h - 2 * dh;
		}
		uint32_t n = 0;
		PgaItem a;
		if (iw > 0 && ih > 0) {
			if (want == 0) {
				pga_piece(s, 0, 0, iw, 0, 5, a);
				pga_piece(a, axis, 0, ih, 0, 5, *c);
				PGA_SET(c, P.br[op.branch0].chain);
				return 0;
			}
			n++;
		}
		for (int k = 1; k <= 4; k++) {
			PgaItem st;
			switch (k) {
			case 1: pga_piece(s, axis, sign * fc, th, 1, 5, st); st.size[0] = fw; break;
			case 2: pga_piece(s, 0, xc, tw, 2, 5, a); pga_piece(a, axis, 0, sl, 2, 5, st); break;
			case 3: pga_piece(s, axis, -sign * fc, th, 3, 5, st); st.size[0] = fw; break;
			default: pga_piece(s, 0, -xc, tw, 4, 5, a); pga_piece(a, axis, 0, sl, 4, 5, st); break;
			}
			if (st.size[0] > 0 && st.size[axis] > 0) {
				if ((int)n == want) {
					*c = st;
					PGA_SET(c, P.br[op.branch0 + 1].chain);
					return 0;
				}
				n++;
			}
		}
		return n;
	}
	}
	return 0;
}

template <bool DRY> __device__ __forceinline__ void pga_child(const Prog &P, const PgaItem &s, uint32_t j, PgaItem &c) {
	pga_outputs<DRY>(P, s, (int)j, &c);
}

