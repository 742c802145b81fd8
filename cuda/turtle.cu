// The turtle interpreter on the GPU (internal/lsys/turtle/cuda.go drives it),
// after Lipp, Wonka and Wimmer's parallel interpretation (section 5), with the
// push/pop structure handled per chunk as the CPU backend does (cpu.go):
//
//  1. turtle_survey, turtle_scan_blocks, turtle_prep: per chunk of
//     prog->chunk modules (one thread each), count segments, polygon events
//     and parameters and find the bracket structure (the ']' that close a
//     '[' from before the chunk, the '[' it leaves open); scan them into
//     offsets and start depths, and build a min tree over the chunks' least
//     depths (turtle_tree_top finishes it), which finds for any ']' the chunk
//     holding its '[' in O(log chunks) (pse in turtle_math.cuh).
//  2. Start states. Linear commands (no tropism, no '$'): each chunk walks its
//     spine, the modules outside its balanced groups "[...]", from the
//     identity (turtle_summarize), giving a transform to each '[' it leaves
//     open and to its end. A chunk's spine starts from an open '[' of an
//     earlier chunk (or the previous chunk's end): the chunks form a tree,
//     and pointer jumping (turtle_pj_*) composes every chunk's transform from
//     the root in log2(chunks) rounds: the paper's matrix scan, generalised
//     from a chain to that tree. turtle_absolutize turns the transforms into
//     states. Otherwise (turtle_spines) each chunk waits for the state it
//     starts from and walks its spine from it; the waits follow the branch
//     structure, so only strings with little branching serialise.
//  3. turtle_emit: each chunk walks all its modules again from its exact
//     start state, with its own stack, popping into the saved states of
//     earlier chunks once that is empty, and writes its segments (staged in
//     shared memory, stored a whole 128-byte line at a time) and polygon
//     events at its offsets.
//  4. turtle_poly_*: polygons from the events ('{' ... '}' matched by brace
//     depth); turtle_bounds: the bounding box.
#include "common.cuh"
#include "turtle_types.cuh"
#include "turtle_math.cuh"
#include "turtle_block.cuh"

#define TT_SCAN_THREADS 256 // chunks per survey/prep block; must match cuda.go
#define TT_SCAN_LOG 8       // min-tree levels 1..TT_SCAN_LOG are built in prep
#define TT_WALK_THREADS 128 // chunks per block of the walking kernels
#define TT_INT_MAX 0x7fffffff

__device__ __forceinline__ void load_table(const TurtleProgram *prog, uint16_t *tab) {
	for (int i = threadIdx.x; i < 256; i += blockDim.x) tab[i] = prog->table[i];
	__syncthreads();
}

// ---- 1. Survey, scan, min tree --------------------------------------------

extern "C" __global__ void __launch_bounds__(TT_SCAN_THREADS)
turtle_survey(const TurtleProgram *__restrict__ prog, const uint8_t *__restrict__ syms, TurtleChunk *chunks,
	      TurtleSums *partials) {
	__shared__ uint16_t tab[256];
	load_table(prog, tab);
	const int c = blockIdx.x * TT_SCAN_THREADS + threadIdx.x;
	TurtleSums s = sums_zero();
	if (c < prog->nchunks) {
		const uint64_t lo = (uint64_t)c * prog->chunk, hi = min(lo + prog->chunk, prog->n);
		const uint4 *p = reinterpret_cast<const uint4 *>(syms);
		uint32_t segs = 0, events = 0, params = 0;
		int rel = 0, mn = 0, mx = 0, ms = 0, last = -1, lv = 0;
		const bool mv = prog->move_vertices != 0;
		for (uint64_t b = lo; b < hi; b += 16) {
			const uint4 q = __ldg(p + (b >> 4));
			const uint32_t w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
			for (int k = 0; k < 16; k++) {
				if (b + k >= hi) break;
				const uint32_t sym = (w[k >> 2] >> ((k & 3) * 8)) & 0xff;
				const uint32_t e = tab[sym];
				const int cm = e & 0xff;
				params += e >> 8;
				segs += cm == TC_DRAW;
				events += cm >= TC_POLY_START || (mv && (sym == 'F' || sym == 'f'));
				lv |= cm == TC_LEVEL;
				if (cm == TC_PUSH) {
					rel++;
					mx = max(mx, rel);
					ms = max(ms, rel - mn); // the chunk's own stack holds rel - mn states
				} else if (cm == TC_POP) {
					rel--;
					if (rel < mn) mn = rel, last = (int)(b + k - lo);
				}
			}
		}
		TurtleChunk *ch = chunks + c;
		ch->segs = segs, ch->events = events, ch->params = params, ch->pushes = rel - mn;
		ch->pops = -mn, ch->max_rel = mx, ch->max_stack = ms, ch->last_pop = last, ch->level = lv;
		s.params = params, s.segs = segs, s.events = events, s.ys = rel - mn + 1, s.stack = ms;
		s.delta = rel, s.level = lv;
	}
	TurtleSums total;
	block_scan<TT_SCAN_THREADS>(s, total);
	if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// One block: the block sums become exclusive block offsets; the totals go to tot.
extern "C" __global__ void __launch_bounds__(1024)
turtle_scan_blocks(TurtleSums *partials, uint32_t nb, TurtleTotals *tot) {
	TurtleSums carry = sums_zero();
	for (uint32_t base = 0; base < nb; base += 1024) {
		const uint32_t i = base + threadIdx.x;
		TurtleSums total;
		const TurtleSums ex = block_scan<1024>(i < nb ? partials[i] : sums_zero(), total);
		if (i < nb) partials[i] = sums_add(carry, ex);
		carry = sums_add(carry, total);
	}
	if (threadIdx.x == 0) {
		tot->params = carry.params, tot->segs = carry.segs, tot->events = carry.events;
		tot->ys = carry.ys, tot->stack = carry.stack, tot->level = carry.level;
		tot->max_depth = 0, tot->bad_chunk = TT_INT_MAX, tot->pad = 0;
	}
}

// Per chunk: offsets, start depth, least depth, the underflow check and the
// deepest nesting; the min tree's levels 0..TT_SCAN_LOG.
extern "C" __global__ void __launch_bounds__(TT_SCAN_THREADS)
turtle_prep(const TurtleProgram *__restrict__ prog, TurtleChunk *chunks, const TurtleSums *__restrict__ partials,
	    int32_t *tree, TurtleTotals *tot) {
	__shared__ int32_t ms[2][TT_SCAN_THREADS];
	const int c = blockIdx.x * TT_SCAN_THREADS + threadIdx.x;
	const bool in = c < prog->nchunks;
	TurtleChunk ch;
	TurtleSums s = sums_zero();
	if (in) {
		ch = chunks[c];
		s.params = ch.params, s.segs = ch.segs, s.events = ch.events, s.ys = ch.pushes + 1;
		s.stack = ch.max_stack, s.delta = (int32_t)ch.pushes - ch.pops, s.level = ch.level;
	}
	TurtleSums total;
	const TurtleSums o = sums_add(partials[blockIdx.x], block_scan<TT_SCAN_THREADS>(s, total));
	int m = TT_INT_MAX, deepest = 0, bad = TT_INT_MAX;
	if (in) {
		TurtleChunk *w = chunks + c;
		w->seg_off = o.segs, w->ev_off = o.events, w->ys_off = o.ys, w->stack_off = o.stack;
		w->param_off = o.params, w->depth = o.delta;
		m = o.delta - ch.pops;
		w->m = m;
		tree[c] = m;
		deepest = o.delta + ch.max_rel;
		if (ch.pops > o.delta) bad = c;
	}
	deepest = __reduce_max_sync(PG_FULL_MASK, deepest);
	bad = __reduce_min_sync(PG_FULL_MASK, bad);
	if ((threadIdx.x & 31) == 0) {
		if (deepest > 0) atomicMax(&tot->max_depth, deepest);
		if (bad != TT_INT_MAX) atomicMin(&tot->bad_chunk, bad);
	}
	ms[0][threadIdx.x] = m;
	__syncthreads();
	int src = 0;
	for (int j = 1, w = TT_SCAN_THREADS / 2; j < prog->levels && j <= TT_SCAN_LOG; j++, w >>= 1) {
		if ((int)threadIdx.x < w) {
			const int v = min(ms[src][2 * threadIdx.x], ms[src][2 * threadIdx.x + 1]);
			ms[1 - src][threadIdx.x] = v;
			const int e = blockIdx.x * w + threadIdx.x;
			if (e < prog->tree_len[j]) tree[prog->tree_off[j] + e] = v;
		}
		src = 1 - src;
		__syncthreads();
	}
}

// One block: the min tree's levels above TT_SCAN_LOG.
extern "C" __global__ void __launch_bounds__(1024) turtle_tree_top(const TurtleProgram *__restrict__ prog, int32_t *tree) {
	for (int j = TT_SCAN_LOG + 1; j < prog->levels; j++) {
		const int off = prog->tree_off[j], len = prog->tree_len[j];
		const int poff = prog->tree_off[j - 1], plen = prog->tree_len[j - 1];
		for (int e = threadIdx.x; e < len; e += blockDim.x) {
			const int a = tree[poff + 2 * e], b = 2 * e + 1 < plen ? tree[poff + 2 * e + 1] : TT_INT_MAX;
			tree[off + e] = min(a, b);
		}
		__syncthreads();
	}
}

// ---- 2. Start states -------------------------------------------------------

#define TT_GROUPS 32 // balanced groups per chunk that the spine walk jumps over without scanning

// spine walks chunk c's spine after its last unmatched ']' and stores the
// turtle at each '[' it leaves open and at its end in ys. DEP (tropism, '$'):
// from the absolute state it starts from, once that is published; else from
// the identity, as transforms.
//
// A backward pass over whole words first finds the '[' the chunk leaves open
// and the balanced groups on the spine, so that the forward walk (after the
// wait, on the critical path when DEP) jumps over the first TT_GROUPS of
// them instead of scanning them.
template <bool DEP>
__device__ __forceinline__ void spine(const TurtleProgram *__restrict__ prog, const uint16_t *tab,
				      const uint8_t *__restrict__ syms, const double *__restrict__ params,
				      const TurtleChunk *__restrict__ chunks, const int32_t *__restrict__ tree,
				      TurtleXform *ys, int32_t *pushpos, int32_t *ready, int c) {
	// Per thread: group start | resume position << 16 (relative to the
	// chunk), and the group's parameter count; a ring of the last recorded.
	__shared__ uint32_t grp_pos[TT_GROUPS][TT_WALK_THREADS], grp_par[TT_GROUPS][TT_WALK_THREADS];
	const unsigned tid = threadIdx.x;
	const TurtleChunk ch = chunks[c];
	const uint64_t lo = (uint64_t)c * prog->chunk, hi = min(lo + prog->chunk, prog->n);
	const uint64_t start = ch.last_pop >= 0 ? lo + ch.last_pop + 1 : lo;
	const uint64_t *w8 = reinterpret_cast<const uint64_t *>(syms);
	int g = 0, j = (int)ch.pushes - 1;
	uint32_t after = 0, gend = 0, gafter = 0, ng = 0;
	if (hi > start) {
		for (long long wi = (long long)((hi - 1) >> 3); wi >= (long long)(start >> 3); wi--) {
			const uint64_t w = __ldg(w8 + wi);
#pragma unroll
			for (int b = 7; b >= 0; b--) {
				const uint64_t i = (uint64_t)wi * 8 + b;
				if (i >= hi || i < start) continue;
				const uint32_t e = tab[(w >> (8 * b)) & 0xff];
				const int cm = e & 0xff;
				const uint32_t before = after;
				after += e >> 8;
				if (cm == TC_POP) {
					if (g == 0) gend = (uint32_t)(i - lo), gafter = before;
					g++;
				} else if (cm == TC_PUSH) {
					if (g == 0) {
						pushpos[ch.ys_off + j--] = (int32_t)(i - lo);
					} else if (--g == 0) {
						const uint32_t k = ng++ & (TT_GROUPS - 1);
						grp_pos[k][tid] = (uint32_t)(i - lo) | (gend + 1) << 16;
						grp_par[k][tid] = after - gafter;
					}
				}
			}
		}
	}
	uint64_t po = ch.param_off + (ch.params - after);
	Xt x;
	if (!DEP) {
		x = xt_identity();
	} else if (c == 0) {
		x = xt_initial(prog->width0);
	} else {
		const int p = pse(tree, prog, c, ch.m);
		if (p < 0) {
			x = xt_initial(prog->width0); // unreachable: the host refuses unbalanced strings
		} else {
			const uint32_t slot = chunks[p].ys_off + (uint32_t)(ch.m - chunks[p].m);
			while (*(volatile int32_t *)(ready + slot) == 0) __nanosleep(32);
			__threadfence();
			x = xt_load<true>(ys + slot);
		}
	}
	const Consts k(prog);
	uint32_t nj = 0;
	uint64_t next = ch.pushes > 0 ? lo + pushpos[ch.ys_off] : hi;
	// Recorded groups left: records glast..gk-1, the latest recorded first
	// in string order.
	const uint32_t glast = ng > TT_GROUPS ? ng - TT_GROUPS : 0;
	uint32_t gk = ng;
	uint32_t gnext = gk > glast ? grp_pos[(gk - 1) & (TT_GROUPS - 1)][tid] : 0xffffffffu;
	Words fw(syms);
	Angle ang;
	for (uint64_t i = start; i < hi;) {
		uint32_t e = tab[fw.at(i)];
		int cm = e & 0xff;
		const uint32_t na = e >> 8;
		if (cm == TC_PUSH) {
			if (i == next) {
				xt_store<DEP>(ys + ch.ys_off + nj, x);
				if (DEP) {
					__threadfence();
					*(volatile int32_t *)(ready + ch.ys_off + nj) = 1;
				}
				nj++;
				next = nj < ch.pushes ? lo + pushpos[ch.ys_off + nj] : hi;
				po += na, i++;
				continue;
			}
			// A balanced group: its net effect is nothing.
			if ((gnext & 0xffff) == (uint32_t)(i - lo)) {
				po += grp_par[(gk - 1) & (TT_GROUPS - 1)][tid];
				i = lo + (gnext >> 16);
				gk--;
				gnext = gk > glast ? grp_pos[(gk - 1) & (TT_GROUPS - 1)][tid] : 0xffffffffu;
				continue;
			}
			po += na, i++;
			for (int depth = 1; depth > 0 && i < hi; i++) {
				e = tab[fw.at(i)];
				cm = e & 0xff;
				po += e >> 8;
				depth += (cm == TC_PUSH) - (cm == TC_POP);
			}
			continue;
		}
		po += na, i++;
		if (cm == TC_NONE) continue;
		const bool has = na > 0;
		step_x(x, cm, has, has ? __ldg(params + po - na) : 0.0, k, ang);
	}
	xt_store<DEP>(ys + ch.ys_off + ch.pushes, x);
	if (DEP) {
		__threadfence();
		*(volatile int32_t *)(ready + ch.ys_off + ch.pushes) = 1;
	}
}

extern "C" __global__ void __launch_bounds__(TT_WALK_THREADS)
turtle_summarize(const TurtleProgram *__restrict__ prog, const uint8_t *__restrict__ syms,
		 const double *__restrict__ params, const TurtleChunk *__restrict__ chunks,
		 const int32_t *__restrict__ tree, TurtleXform *ys, int32_t *pushpos) {
	__shared__ uint16_t tab[256];
	load_table(prog, tab);
	const int c = blockIdx.x * TT_WALK_THREADS + threadIdx.x;
	if (c < prog->nchunks) spine<false>(prog, tab, syms, params, chunks, tree, ys, pushpos, nullptr, c);
}

// Chunks are taken in ticket order, so every chunk a thread waits for has
// started (or finished): the waits cannot deadlock. ready and ticket start zeroed.
extern "C" __global__ void __launch_bounds__(TT_WALK_THREADS)
turtle_spines(const TurtleProgram *__restrict__ prog, const uint8_t *__restrict__ syms,
	      const double *__restrict__ params, const TurtleChunk *__restrict__ chunks,
	      const int32_t *__restrict__ tree, TurtleXform *ys, int32_t *pushpos, int32_t *ready, uint32_t *ticket) {
	__shared__ uint16_t tab[256];
	__shared__ uint32_t blk;
	if (threadIdx.x == 0) blk = atomicAdd(ticket, 1u);
	load_table(prog, tab);
	const int c = blk * TT_WALK_THREADS + threadIdx.x;
	if (c < prog->nchunks) spine<true>(prog, tab, syms, params, chunks, tree, ys, pushpos, ready, c);
}

// Pointer jumping over the chunk tree: v[c] is the transform from the state
// of chunk anc[c] to chunk c's spine start (anc -1: absolute). turtle_pj_block
// sets them up and jumps within blocks of TT_PJ_THREADS chunks in shared
// memory, after which every ancestor lies in an earlier block (or is the
// root); turtle_pj_round then jumps globally, log2(blocks) times.
#define TT_PJ_THREADS 256 // must match cuda.go
#define TT_PJ_LOG 8

extern "C" __global__ void __launch_bounds__(TT_PJ_THREADS)
turtle_pj_block(const TurtleProgram *__restrict__ prog, const TurtleChunk *__restrict__ chunks,
		const int32_t *__restrict__ tree, const TurtleXform *__restrict__ ys, TurtleXform *v, int32_t *anc) {
	__shared__ TurtleXform sv[TT_PJ_THREADS];
	__shared__ int32_t sa[TT_PJ_THREADS];
	const int base = blockIdx.x * TT_PJ_THREADS, c = base + threadIdx.x;
	Xt x = xt_identity();
	int a = -1;
	if (c < prog->nchunks) {
		const int p = c == 0 ? -1 : pse(tree, prog, c, chunks[c].m);
		if (p < 0) {
			x = xt_initial(prog->width0);
		} else {
			x = xt_load<false>(ys + chunks[p].ys_off + (uint32_t)(chunks[c].m - chunks[p].m));
			a = p;
		}
	}
	for (int r = 0; r < TT_PJ_LOG; r++) {
		xt_store<false>(sv + threadIdx.x, x);
		sa[threadIdx.x] = a;
		__syncthreads();
		if (a >= base) {
			const int la = a - base;
			x = xt_then(xt_load<false>(sv + la), x);
			a = sa[la];
		}
		__syncthreads();
	}
	if (c < prog->nchunks) {
		xt_store<false>(v + c, x);
		anc[c] = a;
	}
}

extern "C" __global__ void __launch_bounds__(TT_WALK_THREADS)
turtle_pj_round(const TurtleProgram *__restrict__ prog, const TurtleXform *__restrict__ vin,
		const int32_t *__restrict__ ain, TurtleXform *vout, int32_t *aout) {
	const int c = blockIdx.x * TT_WALK_THREADS + threadIdx.x;
	if (c >= prog->nchunks) return;
	const int a = ain[c];
	if (a < 0) {
		vout[c] = vin[c];
		aout[c] = -1;
		return;
	}
	xt_store<false>(vout + c, xt_then(xt_load<false>(vin + a), xt_load<false>(vin + c)));
	aout[c] = ain[a];
}

extern "C" __global__ void __launch_bounds__(TT_WALK_THREADS)
turtle_absolutize(const TurtleProgram *__restrict__ prog, const TurtleChunk *__restrict__ chunks,
		  const TurtleXform *__restrict__ v, TurtleXform *ys) {
	const int c = blockIdx.x * TT_WALK_THREADS + threadIdx.x;
	if (c >= prog->nchunks) return;
	const Xt base = xt_load<false>(v + c);
	const uint32_t off = chunks[c].ys_off, n = chunks[c].pushes;
	for (uint32_t k = 0; k <= n; k++) xt_store<false>(ys + off + k, xt_then(base, xt_load<false>(ys + off + k)));
}


// ---- 3. Emit ---------------------------------------------------------------

// poly_event writes a polygon event ('{', '.', '}', or the vertex an F or f
// adds inside braces) at ev and returns the next slot.
__device__ __forceinline__ TurtleEvent *poly_event(TurtleEvent *ev, const V3 &pos, int color, int cm) {
	ev->p[0] = (float)pos.x, ev->p[1] = (float)pos.y, ev->p[2] = (float)pos.z;
	ev->color_kind = (uint32_t)color | (uint32_t)(cm - TC_POLY_START) << 16;
	return ev + 1;
}

__device__ __forceinline__ TurtleEvent *vertex_event(TurtleEvent *ev, const V3 &pos, int color) {
	return poly_event(ev, pos, color, TC_POLY_VERTEX);
}

// turtle_emit walks each chunk from its start state and writes its segments
// and polygon events; boxes[block] receives the bounds of its segments. The
// lanes of a warp step through their chunks together (the flushes need them
// converged), reading the symbols eight at a time a word ahead.
extern "C" __global__ void __launch_bounds__(TT_WALK_THREADS)
turtle_emit(const TurtleProgram *__restrict__ prog, const uint8_t *__restrict__ syms,
	    const double *__restrict__ params, const TurtleChunk *__restrict__ chunks, const int32_t *__restrict__ tree,
	    const TurtleXform *__restrict__ ys, TurtleState *stack, TurtleSegment *segs, TurtleEvent *events,
	    TurtleBox *boxes) {
	__shared__ uint16_t tab[256];
	__shared__ float4 stage[TT_WALK_THREADS * TT_STAGE];
	load_table(prog, tab);
	const int c = blockIdx.x * TT_WALK_THREADS + threadIdx.x;
	const bool live = c < prog->nchunks;
	Box box = box_empty();
	const uint64_t lo = live ? (uint64_t)c * prog->chunk : 0;
	const uint32_t len = live ? (uint32_t)(min(lo + prog->chunk, prog->n) - lo) : 0;
	const uint32_t trips = __reduce_max_sync(PG_FULL_MASK, len);
	TurtleChunk ch;
	Xt s0 = xt_initial(prog->width0);
	if (live) {
		ch = chunks[c];
		if (c > 0) s0 = xt_load<false>(ys + chunks[c - 1].ys_off + chunks[c - 1].pushes);
	} else {
		ch.seg_off = ch.ev_off = ch.stack_off = 0, ch.param_off = 0, ch.depth = 0;
	}
	V3 pos = s0.p, h = s0.h, l = s0.l, u = s0.u;
	double width = width_apply(s0.wadd, s0.wmin, 0);
	int color = color_apply(s0.cset, s0.cv, 0);
	// The chunk's own stack. (Staging its states through shared memory for
	// whole-line accesses, as the segments are, measured slower: the pops
	// then wait at the loop head for the whole warp.)
	TurtleState *stk = stack + ch.stack_off;
	int sd = 0, gd = ch.depth;
	const uint32_t seg0 = ch.seg_off;
	uint32_t seg = seg0;
	bool full = false;
	float4 *my = stage + threadIdx.x * TT_STAGE, *out = reinterpret_cast<float4 *>(segs);
	TurtleEvent *ev = events + ch.ev_off;
	const bool mv = prog->move_vertices != 0;
	uint64_t po = ch.param_off;
	const Consts k(prog);
	const uint64_t *w8 = reinterpret_cast<const uint64_t *>(syms) + (lo >> 3);
	uint64_t cur = len > 0 ? __ldg(w8) : 0, nxt = len > 8 ? __ldg(w8 + 1) : 0;
	Angle ang;
	for (uint32_t t = 0; t < trips; t++) {
		const uint32_t fl = (seg - 1) >> 2; // the line the last segment completed
		store_lines(full, fl, seg0 > fl * 4 ? 2 * (seg0 - fl * 4) : 0, 8, stage, out);
		full = false;
		if (t >= len) continue;
		const uint32_t sym = (cur >> ((t & 7) * 8)) & 0xff;
		const uint32_t e = tab[sym];
		const int cm = e & 0xff;
		if ((t & 7) == 7) {
			cur = nxt;
			nxt = t + 9 < len ? __ldg(w8 + ((t + 9) >> 3)) : 0;
		}
		const uint32_t na = e >> 8;
		po += na;
		if (cm == TC_NONE) continue;
		const bool has = na > 0;
		const double v = has ? __ldg(params + po - na) : 0.0;
		// Most frequent first: the branches of a warp's lanes serialise.
		if (cm == TC_DRAW) {
			const float ax = (float)pos.x, ay = (float)pos.y, az = (float)pos.z;
			pos = vadd(pos, vscale(h, has ? v : k.step));
			const float bx = (float)pos.x, by = (float)pos.y, bz = (float)pos.z, wf = (float)width;
			const uint32_t slot = seg & 3;
			my[2 * slot] = make_float4(ax, ay, az, bx);
			my[2 * slot + 1] = make_float4(by, bz, wf, __uint_as_float((uint32_t)color));
			seg++;
			full = (seg & 3) == 0;
			box.add(ax, ay, az);
			box.add(bx, by, bz);
			box.w = fmaxf(box.w, wf), box.nan += wf * 0;
			if (mv && sym == 'F') ev = vertex_event(ev, pos, color);
			if (k.tropic) tropism(h, l, u, k.t, k.e);
		} else if (cm <= TC_ROLL_LEFT) {
			double cs = k.cos, sn = k.sin;
			if (has) ang.of(v, &sn, &cs);
			rotate(cm, cs, sn, h, l, u);
		} else if (cm == TC_PUSH) {
			state_store(stk + sd++, pos, h, l, u, width, color);
			gd++;
		} else if (cm == TC_POP) {
			if (sd > 0) {
				state_load(stk + --sd, pos, h, l, u, width, color);
			} else {
				// Pop into the state an earlier chunk saved at this ']''s '['.
				const int d = gd - 1, p = pse(tree, prog, c, d);
				if (p >= 0) {
					const Xt x = xt_load<false>(ys + chunks[p].ys_off + (uint32_t)(d - chunks[p].m));
					pos = x.p, h = x.h, l = x.l, u = x.u;
					width = width_apply(x.wadd, x.wmin, 0);
					color = color_apply(x.cset, x.cv, 0);
				}
			}
			gd--;
		} else if (cm == TC_MOVE) {
			pos = vadd(pos, vscale(h, has ? v : k.step));
			if (mv && sym == 'f') ev = vertex_event(ev, pos, color);
		} else if (cm == TC_AROUND) {
			h = vneg(h), l = vneg(l);
		} else if (cm == TC_LEVEL) {
			level(h, l, u);
		} else if (cm == TC_THINNER || cm == TC_THICKER) {
			if (has) width = v > 0 ? v : 0;
			else if (cm == TC_THINNER) width = gmax(width - k.winc, 0);
			else width += k.winc;
		} else if (cm == TC_COLOR) {
			color = has ? color_index(v) : min(color + 1, TURTLE_MAX_COLOR);
		} else {
			ev = poly_event(ev, pos, color, cm);
		}
	}
	// The line the last segment completed, then the one it left partial.
	const uint32_t fl = (seg - 1) >> 2, pl = seg >> 2;
	store_lines(full, fl, seg0 > fl * 4 ? 2 * (seg0 - fl * 4) : 0, 8, stage, out);
	const uint32_t pa = seg0 > pl * 4 ? seg0 - pl * 4 : 0;
	store_lines((seg & 3) > pa, pl, 2 * pa, 2 * (seg & 3), stage, out);
	box_store(box, boxes + blockIdx.x);
}

#include "turtle_polygons.cuh"

// ---- Symbol set ------------------------------------------------------------
//
// set[c/32] bit c%32 is 1 when symbol c occurs in syms[0..n): what the host
// needs to know of a string that a derivation left on the device (the
// polygon rule of F and f, the preview's width units; cuda_resident.go).
// Each block ORs its grid-stride share into shared memory, then into set;
// set starts zeroed.
extern "C" __global__ void __launch_bounds__(TT_SCAN_THREADS)
turtle_symbol_set(const uint8_t *syms, uint32_t n, uint32_t *set) {
	__shared__ uint32_t s[8];
	if (threadIdx.x < 8) s[threadIdx.x] = 0;
	__syncthreads();
	uint32_t local[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	const uint64_t stride = (uint64_t)gridDim.x * TT_SCAN_THREADS;
	for (uint64_t i = (uint64_t)blockIdx.x * TT_SCAN_THREADS + threadIdx.x; i < n; i += stride) {
		const uint8_t c = syms[i];
#pragma unroll
		for (int w = 0; w < 8; w++)
			if ((c >> 5) == w) local[w] |= 1u << (c & 31);
	}
#pragma unroll
	for (int w = 0; w < 8; w++)
		if (local[w]) atomicOr(&s[w], local[w]);
	__syncthreads();
	if (threadIdx.x < 8 && s[threadIdx.x]) atomicOr(&set[threadIdx.x], s[threadIdx.x]);
}
