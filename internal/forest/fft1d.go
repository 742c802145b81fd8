package forest

import (
	"math"
	"math/cmplx"
)

// fftPlan is a complex discrete Fourier transform of one length and one
// direction (unnormalised: the inverse of the forward is n times the input).
//
// It is a Stockham autosort FFT (no bit reversal; each stage reads one
// buffer and writes the other) with radix-4, 2, 3 and 5 butterflies, a
// generic butterfly for other primes up to maxGenericRadix, and Bluestein's
// chirp-z algorithm when a larger prime divides the length. Twiddle factors
// are computed once per plan, directly (not by recurrence), so round-off
// does not grow along a stage.
type fftPlan struct {
	n      int
	sign   float64 // -1 forward, +1 inverse
	stages []fftStage
	blue   *bluestein
}

type fftStage struct {
	p, m, s int
	// tw[q*(p-1)+t-1] = w^(q t), w = exp(sign 2 pi i / (p m)).
	tw []complex128
	// roots[k] = exp(sign 2 pi i k / p), for the generic butterfly.
	roots []complex128
}

// maxGenericRadix is the largest prime factor done by an O(p^2) butterfly;
// lengths with larger ones go through Bluestein.
const maxGenericRadix = 61

func newFFTPlan(n int, inverse bool) *fftPlan {
	p := &fftPlan{n: n, sign: -1}
	if inverse {
		p.sign = 1
	}
	if n <= 1 {
		return p
	}
	factors, rest := factorize(n)
	if rest > 1 {
		p.blue = newBluestein(n, p.sign)
		return p
	}
	cur, s := n, 1
	for _, r := range factors {
		m := cur / r
		st := fftStage{p: r, m: m, s: s, tw: make([]complex128, m*(r-1))}
		for q := 0; q < m; q++ {
			for t := 1; t < r; t++ {
				st.tw[q*(r-1)+t-1] = expi(p.sign * 2 * math.Pi * float64(q*t%cur) / float64(cur))
			}
		}
		if r != 2 && r != 3 && r != 4 && r != 5 {
			st.roots = make([]complex128, r)
			for k := range st.roots {
				st.roots[k] = expi(p.sign * 2 * math.Pi * float64(k) / float64(r))
			}
		}
		p.stages = append(p.stages, st)
		cur, s = m, s*r
	}
	return p
}

func expi(a float64) complex128 { s, c := math.Sincos(a); return complex(c, s) }

// factorize splits n into radices 4, 2, 3, 5 and primes up to
// maxGenericRadix; rest is what remains (1 when n factors fully).
func factorize(n int) (factors []int, rest int) {
	for n%4 == 0 {
		factors, n = append(factors, 4), n/4
	}
	for n%2 == 0 {
		factors, n = append(factors, 2), n/2
	}
	for p := 3; p <= maxGenericRadix && n > 1; p += 2 {
		for n%p == 0 {
			factors, n = append(factors, p), n/p
		}
	}
	return factors, n
}

// transform replaces x (length n) by its transform; work is scratch of at
// least the same length (Bluestein needs more: see scratch).
func (p *fftPlan) transform(x, work []complex128) {
	if p.n <= 1 {
		return
	}
	if p.blue != nil {
		p.blue.transform(x, work)
		return
	}
	src, dst := x, work[:p.n]
	for i := range p.stages {
		p.stages[i].run(src, dst, p.sign)
		src, dst = dst, src
	}
	if &src[0] != &x[0] {
		copy(x, src)
	}
}

// scratch is the length of the work slice transform needs.
func (p *fftPlan) scratch() int {
	if p.blue != nil {
		return 2*p.blue.m + p.n
	}
	return p.n
}

func mulI(z complex128) complex128 { return complex(-imag(z), real(z)) }

// run does one stage: for each q < m and k < s it gathers a_r =
// x[k + s(q + r m)], forms the radix-p DFT b_t and stores b_t w^(q t) at
// y[k + s(p q + t)] (decimation in frequency, Stockham order).
func (st *fftStage) run(x, y []complex128, sign float64) {
	p, m, s := st.p, st.m, st.s
	switch p {
	case 4:
		for q := 0; q < m; q++ {
			w1, w2, w3 := st.tw[3*q], st.tw[3*q+1], st.tw[3*q+2]
			for k := 0; k < s; k++ {
				a0, a1, a2, a3 := x[k+s*q], x[k+s*(q+m)], x[k+s*(q+2*m)], x[k+s*(q+3*m)]
				t0, t1 := a0+a2, a0-a2
				t2, t3 := a1+a3, a1-a3
				t3 = complex(sign, 0) * mulI(t3) // -i (a1-a3) forward, +i inverse
				o := k + s*4*q
				y[o] = t0 + t2
				y[o+s] = (t1 + t3) * w1
				y[o+2*s] = (t0 - t2) * w2
				y[o+3*s] = (t1 - t3) * w3
			}
		}
	case 2:
		for q := 0; q < m; q++ {
			w := st.tw[q]
			for k := 0; k < s; k++ {
				a0, a1 := x[k+s*q], x[k+s*(q+m)]
				o := k + s*2*q
				y[o] = a0 + a1
				y[o+s] = (a0 - a1) * w
			}
		}
	case 3:
		const h = 0.86602540378443864676 // sqrt(3)/2
		for q := 0; q < m; q++ {
			w1, w2 := st.tw[2*q], st.tw[2*q+1]
			for k := 0; k < s; k++ {
				a0, a1, a2 := x[k+s*q], x[k+s*(q+m)], x[k+s*(q+2*m)]
				sum := a1 + a2
				t1 := a0 - 0.5*sum
				t2 := complex(sign*h, 0) * mulI(a1-a2)
				o := k + s*3*q
				y[o] = a0 + sum
				y[o+s] = (t1 + t2) * w1
				y[o+2*s] = (t1 - t2) * w2
			}
		}
	case 5:
		c1, c2 := math.Cos(2*math.Pi/5), math.Cos(4*math.Pi/5)
		s1, s2 := sign*math.Sin(2*math.Pi/5), sign*math.Sin(4*math.Pi/5)
		for q := 0; q < m; q++ {
			w := st.tw[4*q : 4*q+4]
			for k := 0; k < s; k++ {
				a0 := x[k+s*q]
				a1, a2, a3, a4 := x[k+s*(q+m)], x[k+s*(q+2*m)], x[k+s*(q+3*m)], x[k+s*(q+4*m)]
				p14, m14 := a1+a4, mulI(a1-a4)
				p23, m23 := a2+a3, mulI(a2-a3)
				r1 := a0 + complex(c1, 0)*p14 + complex(c2, 0)*p23
				r2 := a0 + complex(c2, 0)*p14 + complex(c1, 0)*p23
				i1 := complex(s1, 0)*m14 + complex(s2, 0)*m23
				i2 := complex(s2, 0)*m14 - complex(s1, 0)*m23
				o := k + s*5*q
				y[o] = a0 + p14 + p23
				y[o+s] = (r1 + i1) * w[0]
				y[o+2*s] = (r2 + i2) * w[1]
				y[o+3*s] = (r2 - i2) * w[2]
				y[o+4*s] = (r1 - i1) * w[3]
			}
		}
	default:
		var a [maxGenericRadix]complex128
		for q := 0; q < m; q++ {
			for k := 0; k < s; k++ {
				for r := 0; r < p; r++ {
					a[r] = x[k+s*(q+r*m)]
				}
				o := k + s*p*q
				for t := 0; t < p; t++ {
					var b complex128
					idx := 0
					for r := 0; r < p; r++ {
						b += a[r] * st.roots[idx]
						if idx += t; idx >= p {
							idx -= p
						}
					}
					if t > 0 {
						b *= st.tw[q*(p-1)+t-1]
					}
					y[o+t*s] = b
				}
			}
		}
	}
}

// bluestein computes a length-n DFT as a convolution of length m >= 2n-1
// done with fast FFTs: X_k = c_k sum_j (x_j c_j) conj(c_(k-j)), c_j =
// exp(sign pi i j^2 / n).
type bluestein struct {
	n, m      int
	chirp     []complex128 // c_j
	kernelFFT []complex128 // forward FFT of conj(c), wrapped, divided by m
	fwd, inv  *fftPlan
}

func newBluestein(n int, sign float64) *bluestein {
	m := fastFFTLength(2*n - 1)
	b := &bluestein{n: n, m: m, chirp: make([]complex128, n), fwd: newFFTPlan(m, false), inv: newFFTPlan(m, true)}
	for j := range b.chirp {
		// j^2 mod 2n keeps the angle small and exact.
		jj := (int64(j) * int64(j)) % int64(2*n)
		b.chirp[j] = expi(sign * math.Pi * float64(jj) / float64(n))
	}
	k := make([]complex128, m)
	k[0] = cmplx.Conj(b.chirp[0])
	for j := 1; j < n; j++ {
		c := cmplx.Conj(b.chirp[j])
		k[j], k[m-j] = c, c
	}
	work := make([]complex128, m)
	b.fwd.transform(k, work)
	inv := complex(1/float64(m), 0)
	for i := range k {
		k[i] *= inv
	}
	b.kernelFFT = k
	return b
}

func (b *bluestein) transform(x, work []complex128) {
	a, w := work[:b.m], work[b.m:2*b.m]
	for j := 0; j < b.n; j++ {
		a[j] = x[j] * b.chirp[j]
	}
	clear(a[b.n:])
	b.fwd.transform(a, w)
	for i := range a {
		a[i] *= b.kernelFFT[i]
	}
	b.inv.transform(a, w)
	for k := 0; k < b.n; k++ {
		x[k] = a[k] * b.chirp[k]
	}
}

// fastFFTLength is the smallest length >= n whose only prime factors are 2,
// 3 and 5 (radix-4 and radix-2 stages are the fastest; 3 and 5 keep the
// padding small).
func fastFFTLength(n int) int {
	if n <= 1 {
		return 1
	}
	best := math.MaxInt
	for p2 := 1; p2 < 2*n; p2 *= 2 {
		for p3 := p2; p3 < 2*n; p3 *= 3 {
			for p5 := p3; p5 < 2*n; p5 *= 5 {
				if p5 >= n && p5 < best {
					best = p5
				}
			}
		}
	}
	return best
}

// Measured time per point of one stage of each radix (ns, this package's
// butterflies on an AMD EPYC core): a length's transform costs about its
// length times the sum over its stages.
var radixCost = map[int]float64{4: 1.32, 2: 1.04, 3: 1.38, 5: 2.4}

// fftCost estimates a length's transform time, in radixCost's units.
func fftCost(n int) float64 {
	factors, rest := factorize(n)
	if rest > 1 {
		return math.Inf(1)
	}
	c := 0.0
	for _, p := range factors {
		w, ok := radixCost[p]
		if !ok {
			w = float64(p) // the generic O(p^2) butterfly
		}
		c += w
	}
	return float64(n) * c
}

// fastFFTPair picks padded lengths px >= nx and py >= ny (2, 3 and 5 only,
// at most a third longer) that minimise the estimated time of a 2D
// transform: py rows of px and px columns of py, px py (c(px)/px +
// c(py)/py). Powers of two often win over shorter lengths with 5s in them.
func fastFFTPair(nx, ny int) (px, py int) {
	cands := func(n int) []int {
		var out []int
		for m := n; m <= n+n/3+1; m++ {
			if _, rest := factorize(m); rest == 1 && onlySmallPrimes(m) {
				out = append(out, m)
			}
		}
		return out
	}
	best := math.Inf(1)
	for _, x := range cands(nx) {
		for _, y := range cands(ny) {
			c := float64(x) * float64(y) * (fftCost(x)/float64(x) + fftCost(y)/float64(y))
			if c < best {
				best, px, py = c, x, y
			}
		}
	}
	return px, py
}

func onlySmallPrimes(n int) bool {
	for _, p := range []int{2, 3, 5} {
		for n%p == 0 {
			n /= p
		}
	}
	return n == 1
}
