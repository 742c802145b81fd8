// Forest fit: the log-likelihood of many candidate parameter sets of one
// species' dispersal model at once (internal/forest/fit/cuda.go drives it;
// fit/batch.go and fit/model.go are the CPU twins, in the same float64
// arithmetic).
//
// pg_forest_fit_sums: one thread per (candidate, trap) pair, the pairs of
// consecutive candidates side by side, so a block's threads share the
// parents that stream through shared memory FIT_TILE at a time; each thread
// sums (DBH/30)^beta K(d) over every parent as exp(beta ln q - expo(d^2)),
// one exp per pair, and writes area * sum / eta.
//
// pg_forest_fit_loglik: one thread per candidate: STR fixed or maximised
// (Poisson: total/sum; NB: Newton steps in ln STR), then the Poisson or
// negative binomial log-likelihood of the counts.
#include "common.cuh"

#define FIT_THREADS 128
#define FIT_TILE 256

// Candidate layout: FIT_STRIDE doubles each.
#define FIT_STRIDE 8
#define FIT_KIND 0  // 0 Weibull (and exponential power), 1 lognormal, 2 2Dt
#define FIT_P1 1    // Weibull: ln D; lognormal: ln X0; 2Dt: p + 1
#define FIT_P2 2    // Weibull: theta / 2; lognormal: 1 / (2 Xb^2); 2Dt: 1 / u
#define FIT_BETA 3
#define FIT_INVETA 4
#define FIT_STR 5   // 0: maximised
#define FIT_K 6     // 0: Poisson
#define FIT_OK 7    // 0: invalid parameters, log-likelihood -inf

extern "C" __global__ void __launch_bounds__(FIT_THREADS) pg_forest_fit_sums(
	const double *__restrict__ cand, int32_t ncand, const double *__restrict__ traps, int32_t ntraps,
	const double *__restrict__ parents, int32_t nparents, double *__restrict__ s) {
	__shared__ double px[FIT_TILE], py[FIT_TILE], lq[FIT_TILE];
	const long long pair = (long long)blockIdx.x * FIT_THREADS + threadIdx.x;
	const bool live = pair < (long long)ncand * ntraps;
	const int c = live ? (int)(pair / ntraps) : 0;
	const int j = live ? (int)(pair % ntraps) : 0;
	const double *cd = cand + (long long)c * FIT_STRIDE;
	const int kind = (int)cd[FIT_KIND];
	const double p1 = cd[FIT_P1], p2 = cd[FIT_P2], beta = cd[FIT_BETA];
	const double tx = traps[3 * j], ty = traps[3 * j + 1];
	double sum = 0;
	for (int base = 0; base < nparents; base += FIT_TILE) {
		__syncthreads();
		for (int i = threadIdx.x; i < FIT_TILE && base + i < nparents; i += FIT_THREADS) {
			px[i] = parents[3 * (base + i)];
			py[i] = parents[3 * (base + i) + 1];
			lq[i] = parents[3 * (base + i) + 2];
		}
		__syncthreads();
		const int n = min(FIT_TILE, nparents - base);
		for (int i = 0; i < n; i++) {
			const double dx = tx - px[i], dy = ty - py[i];
			const double d2 = dx * dx + dy * dy;
			double e;
			if (kind == 0) {
				e = d2 > 0 ? exp(p1 + p2 * log(d2)) : 0; // D d^theta
			} else if (kind == 2) {
				e = p1 * log1p(d2 * p2); // (p + 1) ln(1 + d^2/u)
			} else {
				const double u = 0.5 * log(d2) - p1; // ln(d / X0); -inf at d = 0: K = 0
				e = u * u * p2;
			}
			sum += exp(beta * lq[i] - e);
		}
	}
	if (live) {
		s[pair] = traps[3 * j + 2] * sum * cd[FIT_INVETA];
	}
}

extern "C" __global__ void __launch_bounds__(FIT_THREADS) pg_forest_fit_loglik(
	const double *__restrict__ cand, int32_t ncand, const double *__restrict__ s,
	const double *__restrict__ counts, int32_t ntraps, double total, double *__restrict__ out) {
	const int c = blockIdx.x * FIT_THREADS + threadIdx.x;
	if (c >= ncand) {
		return;
	}
	const double *cd = cand + (long long)c * FIT_STRIDE;
	const double *sc = s + (long long)c * ntraps;
	const double *y = counts, *lgy1 = counts + ntraps;
	const double k = cd[FIT_K];
	double str = cd[FIT_STR];
	const double NEG_INF = -1.0 / 0.0;
	if (cd[FIT_OK] == 0) {
		out[2 * c] = NEG_INF;
		out[2 * c + 1] = 0;
		return;
	}
	if (str == 0) {
		double sum = 0;
		for (int j = 0; j < ntraps; j++) {
			sum += sc[j];
		}
		if (sum > 0) {
			double t = log(total / sum);
			if (k != 0) {
				for (int it = 0; it < 60; it++) {
					const double e = exp(t);
					double g = total, h = 0;
					for (int j = 0; j < ntraps; j++) {
						const double m = e * sc[j];
						g -= (y[j] + k) * m / (k + m);
						h += (y[j] + k) * k * m / ((k + m) * (k + m));
					}
					if (!(h > 0)) {
						break;
					}
					const double step = fmax(-2.0, fmin(2.0, g / h));
					t += step;
					if (fabs(step) < 1e-12) {
						break;
					}
				}
			}
			str = exp(t);
		}
	}
	out[2 * c + 1] = str;
	if (!(str > 0) || isinf(str)) {
		out[2 * c] = NEG_INF;
		return;
	}
	double ll = 0;
	const double lgk = k != 0 ? lgamma(k) : 0;
	for (int j = 0; j < ntraps; j++) {
		const double m = str * sc[j];
		if (k == 0) {
			if (m <= 0) {
				if (y[j] > 0) {
					ll = NEG_INF;
					break;
				}
				continue;
			}
			ll += y[j] * log(m) - m - lgy1[j];
			continue;
		}
		ll += lgamma(y[j] + k) - lgk - lgy1[j] + k * log(k / (k + m));
		if (y[j] > 0) {
			if (m <= 0) {
				ll = NEG_INF;
				break;
			}
			ll += y[j] * log(m / (k + m));
		}
	}
	out[2 * c] = ll;
}
