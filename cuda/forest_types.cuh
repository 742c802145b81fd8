// Structures the forest dispersal kernels share with Go (internal/forest/gpu_types.go,
// whose test checks sizes and offsets). Fixed-size fields only.
#pragma once
#include <stdint.h>

#define FOREST_MAX_STAGES 32 // FFT stages: enough for any length below 2^32

// Kernel kinds of the exact method (which dispersal function, see forest.cu).
#define FOREST_WEIBULL3 0 // Weibull with theta = 3: the fast path
#define FOREST_WEIBULL 1  // Weibull with any theta
#define FOREST_LOGNORMAL 2
#define FOREST_2DT 3 // Clark's 2Dt: theta_half holds p + 1

// ForestExact is one species' exact-sum launch (a torus's parents come as
// their periodic images, internal/forest/torus.go). Coordinates are "scaled":
// metres times the species' scale s, chosen so that the kernel in base 2 is
// 2^-(d^3) (Weibull, theta = 3), 2^-(d^theta) (any theta) or
// 2^-(logn_c log2 d^2)^2 (lognormal: s = 1/X0) or 2^-((p+1) log2(1 + d^2))
// (2Dt: s = 1/sqrt(u)), where d is the scaled distance.
struct ForestExact {
	int32_t nx, ny;     // grid cells
	int32_t tiles_x;    // 32x32-cell tiles per grid row
	int32_t pad0;
	float h;            // cell size, scaled
	float theta_half;   // generic Weibull: theta / 2; 2Dt: p + 1
	float logn_c;       // lognormal: sqrt(ln 2) / (2 sqrt(2) Xb)
	float cut2;         // squared cut-off radius, scaled (cut-off kernels only)
	double hd;          // cell size, scaled, in double: tile centres
};

// ForestFftPlan factors one transform length for the mixed-radix FFT in
// forest_fft.cu: n = radix[0] * radix[1] * ... * radix[nstages-1]. The
// decimation-in-time passes run from the last radix to the first.
struct ForestFftPlan {
	int32_t n;
	int32_t nstages;
	int32_t generic; // 1 if some radix is not 2, 3, 4, 5 or 7 (that pass needs a second buffer)
	int32_t pad0;
	int32_t radix[FOREST_MAX_STAGES];
};

// ForestTableKern is a kernel (kern in kernel.go) on the fft lattice, for the
// kernel and error tables of forest_fft.cu.
struct ForestTableKern {
	int32_t logn;   // the family: 0 Weibull, 1 lognormal, 2 2Dt (d = 1/u, theta = p + 1)
	int32_t torus;  // the kernel summed over periodic images, periods (px, py) cells
	int32_t px, py; // lattice periods (torus)
	int32_t ax, ay; // torus: images -ax..ax x -ay..ay periods
	double h;       // cell size, m
	double d, theta, half_theta; // Weibull; 2Dt: 1/u, p + 1
	double ln_x0, inv2xb2;       // lognormal: ln X0, 1 / (2 Xb^2)
	double reach2;  // torus: squared image radius, m^2 (images farther are left out)
};
