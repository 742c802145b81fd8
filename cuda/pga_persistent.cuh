// Part of pga.cu (included there, after its defines): the persistent scheduler.
#pragma once

// ---- Persistent scheduler ----

struct PgaShared {
	PgaItem batch[PGA_THREADS];
	PgaItem pool[PGA_POOL];
	uint32_t key[PGA_THREADS];
	uint32_t off[PGA_THREADS + 1];
	int pool_n, take, got, nb, quit;
	uint32_t head;
};

__device__ void pga_push(PgaShared &sh, bool local, const PgaItem &c, PgaItem *gq, uint32_t *ready, uint32_t qcap,
			 PgaStatus *st) {
	bool global = true;
	if (local) {
		const int slot = atomicAdd(&sh.pool_n, 1);
		if (slot < PGA_POOL) {
			sh.pool[slot] = c;
			global = false;
		}
	}
	if (!global) return;
	const uint32_t slot = pga_reserve(&st->qtail);
	if (slot >= qcap) {
		pga_fail(st, PGA_ERR_OVERFLOW, c.rule, 0);
		return;
	}
	gq[slot] = c;
	__threadfence();
	atomicExch(&ready[slot], 1u);
}

// ASK: the grammar has bilateral queries (pga_persistent_ask; see
// pga_levels_run_body).
template <bool ASK>
__device__ __forceinline__ void pga_persistent_body(const uint32_t *words, PGA_CTX_PARAMS, PgaItem *gq, uint32_t *ready,
						    uint32_t qcap, PgaTerm *terms, uint32_t tcap, PgaStatus *st,
						    unsigned long long max_shapes, int max_depth, int flags) {
	extern __shared__ __align__(16) unsigned char smem[];
	PgaShared &sh = *(PgaShared *)smem;
	const Limits L = {max_shapes, max_depth};
	const Prog P = pga_limited(pga_prog(words, PGA_CTX_ARGS), st, L);
	const bool group = flags & PGA_FLAG_GROUP, oppar = flags & PGA_FLAG_OPPAR;
	const unsigned tid = threadIdx.x;
	volatile PgaStatus *vst = st;
	if (tid == 0) sh.pool_n = 0;
	__syncthreads();
	for (;;) {
		// Take a batch: the local pool first, then the global queue.
		if (tid == 0) {
			const int take = group ? min(sh.pool_n, PGA_THREADS) : 0;
			sh.pool_n -= take;
			const uint32_t want = PGA_THREADS - take;
			uint32_t got = 0, h = 0;
			while (!vst->abort) {
				h = vst->qhead;
				const uint32_t t = min((uint32_t)vst->qtail, qcap);
				if (t <= h) break;
				const uint32_t g = min(t - h, want);
				if (atomicCAS(&st->qhead, h, h + g) == h) {
					got = g;
					break;
				}
			}
			sh.take = take;
			sh.got = got;
			sh.head = h;
			sh.nb = take + got;
			sh.quit = vst->abort || (sh.nb == 0 && vst->work == 0);
		}
		__syncthreads();
		const int nb = sh.nb;
		if (sh.quit) break;
		if (nb == 0) {
			__nanosleep(256);
			continue;
		}
		if ((int)tid < sh.take) {
			sh.batch[tid] = sh.pool[sh.pool_n + tid];
		} else if ((int)tid < nb) {
			const uint32_t slot = sh.head + tid - sh.take;
			while (((volatile uint32_t *)ready)[slot] == 0) {
				if (vst->abort) break;
			}
			__threadfence();
			// Through L2: the slot was written by another block.
			const unsigned long long *src = (const unsigned long long *)(gq + slot);
			unsigned long long *dst = (unsigned long long *)&sh.batch[tid];
			for (int w = 0; w < (int)(sizeof(PgaItem) / 8); w++) dst[w] = __ldcg(src + w);
		}
		__syncthreads();
		// Group the batch by chain so a warp runs one rule (bitonic sort of keys).
		int idx = tid;
		if (group) {
			sh.key[tid] = (int)tid < nb ? ((uint32_t)sh.batch[tid].chain << 8 | tid) : 0xffffffffu;
			__syncthreads();
			for (unsigned k = 2; k <= PGA_THREADS; k <<= 1) {
				for (unsigned j = k >> 1; j > 0; j >>= 1) {
					const unsigned ixj = tid ^ j;
					if (ixj > tid) {
						const uint32_t a = sh.key[tid], b = sh.key[ixj];
						const bool up = (tid & k) == 0;
						if ((a > b) == up) {
							sh.key[tid] = b;
							sh.key[ixj] = a;
						}
					}
					__syncthreads();
				}
			}
			idx = sh.key[tid] & 0xff;
		}
		PgaItem s;
		int r = RUN_NONE, term = 0;
		uint32_t nc = 0, ticks = 0;
		if ((int)tid < nb && !vst->abort) {
			s = sh.batch[idx];
			while ((r = pga_run<false>(P, L, st, s, nc, term, ticks)) == RUN_ASK) {
				if constexpr (!ASK) break;
				else pga_ask(P, s);
			}
		}
		pga_add_ticks(st, L, ticks, (int)tid < nb ? s.rule : 0);
		// Terminals go straight to the output.
		if (r == RUN_TERM) {
			const uint32_t tslot = pga_reserve(&st->nterm);
			if (tslot < tcap) {
				PgaTerm t;
				pga_make_term(s, term, t);
				terms[tslot] = t;
			} else {
				pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 1);
			}
		}
		if (r != RUN_SPLIT) nc = 0;
		__syncthreads(); // batch slots are free again
		if (nc) sh.batch[tid] = s;
		// Offsets of the children.
		{
			__shared__ unsigned long long scan_sh[33];
			unsigned long long total;
			const unsigned long long e = block_exclusive_scan(nc, scan_sh, total);
			sh.off[tid] = (uint32_t)e;
			if (tid == 0) {
				sh.off[PGA_THREADS] = (uint32_t)total;
				atomicAdd(&st->work, (uint32_t)total);
			}
		}
		__syncthreads();
		const uint32_t total = sh.off[PGA_THREADS];
		if (oppar) {
			for (uint32_t j0 = 0; j0 < total; j0 += PGA_THREADS) {
				const uint32_t j = j0 + tid;
				if (j < total) {
					int lo = 0, hi = PGA_THREADS - 1; // last p with off[p] <= j
					while (lo < hi) {
						const int mid = (lo + hi + 1) >> 1;
						if (sh.off[mid] <= j) lo = mid;
						else hi = mid - 1;
					}
					PgaItem c;
					pga_child<false>(P, sh.batch[lo], j - sh.off[lo], c);
					pga_push(sh, group, c, gq, ready, qcap, st);
				}
			}
		} else {
			for (uint32_t k = 0; k < nc; k++) {
				PgaItem c;
				pga_child<false>(P, s, k, c);
				pga_push(sh, group, c, gq, ready, qcap, st);
			}
		}
		__syncthreads();
		if (tid == 0) {
			sh.pool_n = min(sh.pool_n, PGA_POOL);
			__threadfence();
			atomicSub(&st->work, (uint32_t)nb);
		}
		__syncthreads();
	}
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_persistent(const uint32_t *words, PGA_CTX_PARAMS, PgaItem *gq, uint32_t *ready, uint32_t qcap, PgaTerm *terms, uint32_t tcap,
	       PgaStatus *st, unsigned long long max_shapes, int max_depth, int flags) {
	pga_persistent_body<false>(words, PGA_CTX_ARGS, gq, ready, qcap, terms, tcap, st, max_shapes, max_depth, flags);
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_persistent_ask(const uint32_t *words, PGA_CTX_PARAMS, PgaItem *gq, uint32_t *ready, uint32_t qcap, PgaTerm *terms,
		   uint32_t tcap, PgaStatus *st, unsigned long long max_shapes, int max_depth, int flags) {
	pga_persistent_body<true>(words, PGA_CTX_ARGS, gq, ready, qcap, terms, tcap, st, max_shapes, max_depth, flags);
}
