package lsys

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/hosttwin"
)

// hostShim compiles cuda/lsys_math.cuh as host C++: the CUDA intrinsics
// become plain IEEE operations (with contraction off, as __dadd_rn and
// friends are never fused), so the header's arithmetic can be checked
// against the Go functions here, without a GPU. It reads "fn a b" lines
// (hexadecimal bits) and writes the result's bits.
const hostShim = `#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#define __device__
#define __forceinline__ inline
static inline double __dadd_rn(double a, double b) { volatile double r = a + b; return r; }
static inline double __dsub_rn(double a, double b) { volatile double r = a - b; return r; }
static inline double __dmul_rn(double a, double b) { volatile double r = a * b; return r; }
static inline double __ddiv_rn(double a, double b) { volatile double r = a / b; return r; }
static inline double __dsqrt_rn(double a) { return std::sqrt(a); }
static inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
static inline long long __double_as_longlong(double x) { long long r; memcpy(&r, &x, 8); return r; }
static inline double __longlong_as_double(long long x) { double r; memcpy(&r, &x, 8); return r; }
using std::floor; using std::trunc; using std::fabs; using std::copysign; using std::signbit; using std::isinf;
#include "lsys_math.cuh"
int main() {
	char fn[16];
	unsigned long long ua, ub;
	while (scanf("%15s %llx %llx", fn, &ua, &ub) == 3) {
		double a = __longlong_as_double((long long)ua), b = __longlong_as_double((long long)ub), r;
		switch (fn[0]) {
		case 's': r = lsys_sin_deg(a); break;
		case 'c': r = lsys_cos_deg(a); break;
		case 't': r = lsys_tan_deg(a); break;
		case 'a': r = lsys_atan_deg(a); break;
		case 'S': r = lsys_asin_deg(a); break;
		case 'C': r = lsys_acos_deg(a); break;
		case 'e': r = lsys_exp(a); break;
		case 'l': r = lsys_log(a); break;
		case '2': r = lsys_atan2_deg(a, b); break;
		default: r = lsys_pow(a, b);
		}
		printf("%llx\n", (unsigned long long)__double_as_longlong(r));
	}
}
`

// hostFuncs are the functions the shim dispatches on by first letter
// (hostArgs lists the letters in a fixed order).
var hostFuncs = map[byte]func(a, b float64) float64{
	's': func(a, _ float64) float64 { return SinDeg(a) }, 'c': func(a, _ float64) float64 { return CosDeg(a) },
	't': func(a, _ float64) float64 { return TanDeg(a) }, 'a': func(a, _ float64) float64 { return AtanDeg(a) },
	'S': func(a, _ float64) float64 { return AsinDeg(a) }, 'C': func(a, _ float64) float64 { return AcosDeg(a) },
	'e': func(a, _ float64) float64 { return Exp(a) }, 'l': func(a, _ float64) float64 { return Log(a) },
	'2': Atan2Deg, 'p': Pow,
}

// hostArgs are every function on every pair of special values and on
// random arguments: any bits, and the ranges each function is used in.
func hostArgs(n int) [][3]float64 {
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 0.5, -0.5, 2, 30, 45,
		90, 180, 270, 360, math.MaxFloat64, -math.MaxFloat64, 5e-324, -5e-324, 1e-310, 709.78, 709.79, -745.13,
		-745.14, 1e300, 0x1p64, 0x1p40, 1.5, -3, 7, 0.9999999999999999}
	r := rand.New(rand.NewPCG(3, 4))
	arg := func() float64 {
		switch r.IntN(6) {
		case 0:
			return specials[r.IntN(len(specials))]
		case 1:
			return math.Float64frombits(r.Uint64())
		case 2:
			return (r.Float64()*2 - 1) * 720
		case 3:
			return r.Float64()*2 - 1
		case 4:
			return (r.Float64()*2 - 1) * 50
		}
		return math.Copysign(math.Exp((r.Float64()*2-1)*700), r.Float64()-0.5)
	}
	var out [][3]float64
	for _, f := range []byte("sctaSCel2p") {
		for _, a := range specials {
			for _, b := range specials {
				out = append(out, [3]float64{float64(f), a, b})
			}
		}
		for i := 0; i < n; i++ {
			out = append(out, [3]float64{float64(f), arg(), arg()})
		}
	}
	return out
}

// TestMathHostTwin: cuda/lsys_math.cuh, compiled for the host, computes
// every function bit for bit as the Go code does (NaNs compare equal
// whatever their payload). It needs a C++ compiler (g++ or c++ on PATH) and
// skips without one; the device itself is checked by TestCUDAMathFunctions.
func TestMathHostTwin(t *testing.T) {
	bin := hosttwin.Build(t, hostShim, "-ffp-contract=off")
	n := 20000
	if testing.Short() {
		n = 2000
	}
	args := hostArgs(n)
	var in bytes.Buffer
	for _, a := range args {
		fmt.Fprintf(&in, "%c %x %x\n", byte(a[0]), math.Float64bits(a[1]), math.Float64bits(a[2]))
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run the host twin: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	i, bad := 0, 0
	for ; sc.Scan(); i++ {
		u, err := strconv.ParseUint(strings.TrimSpace(sc.Text()), 16, 64)
		if err != nil || i >= len(args) {
			t.Fatalf("host twin line %d: %q", i+1, sc.Text())
		}
		a := args[i]
		got, want := math.Float64frombits(u), hostFuncs[byte(a[0])](a[1], a[2])
		if !same(got, want) {
			if bad++; bad <= 10 {
				t.Errorf("%c(%v, %v): lsys_math.cuh gives %v (%#x), Go %v (%#x)", byte(a[0]), a[1], a[2],
					got, u, want, math.Float64bits(want))
			}
		}
	}
	if i != len(args) {
		t.Fatalf("host twin answered %d of %d lines", i, len(args))
	}
	if bad > 0 {
		t.Errorf("%d of %d results differ", bad, len(args))
	}
}
