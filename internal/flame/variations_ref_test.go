package flame

import (
	"math"
	"math/cmplx"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Reference formulas for the 99 variations, written from the published
// formulas (the flam3 paper, the Apophysis plugin descriptions, the
// complex-function definitions) rather than from variations_*.go: polar
// forms through Atan2/Hypot, complex ones through math/cmplx. flam3's
// EPS (1e-10) is part of its formulas and is kept (near the origin it
// moves results by more than the test tolerance). Where flam3 departs from
// the textbook function its behaviour wins, and the reference says so.

const refEps = 1e-10

// refIn is what a reference sees: the affine output t, the weight, the
// xform's affine coefficients and parameters, and the raw draws the
// variation is documented to make ("Random draws" in variations.go).
type refIn struct {
	x, y float64
	w    float64
	c    *Affine
	p    *Params
	d    []uint64
}

func (in refIn) u(i int) float64 { return rng.Float64(in.d[i]) }

// coef reads flam3's c[i][j] (model.go: Affine is a b c d e f = c00 c01
// c10 c11 c20 c21).
func (in refIn) coef(i, j int) float64 { return in.c[2*i+j] }

func (in refIn) r() float64             { return math.Hypot(in.x, in.y) }
func (in refIn) theta() float64         { return math.Atan2(in.x, in.y) } // flam3's "atan"
func (in refIn) phi() float64           { return math.Atan2(in.y, in.x) } // polar angle
func (in refIn) z() complex128          { return complex(in.x, in.y) }
func (in refIn) par(id ParamID) float64 { return in.p[id] }

type refFunc func(in refIn) (float64, float64)

func scaled(w float64, z complex128) (float64, float64) { return w * real(z), w * imag(z) }

// refGaussian is flam3's pseudo-Gaussian from four draws starting at i.
func refGaussian(in refIn, i int) float64 {
	return in.u(i) + in.u(i+1) + in.u(i+2) + in.u(i+3) - 2
}

var refs = [NumVars]refFunc{
	VarLinear:     func(in refIn) (float64, float64) { return in.w * in.x, in.w * in.y },
	VarSinusoidal: func(in refIn) (float64, float64) { return in.w * math.Sin(in.x), in.w * math.Sin(in.y) },
	VarSpherical: func(in refIn) (float64, float64) {
		r := in.r()
		return in.w * in.x / (r*r + refEps), in.w * in.y / (r*r + refEps)
	},
	VarSwirl: func(in refIn) (float64, float64) {
		r2 := in.x*in.x + in.y*in.y
		return in.w * (in.x*math.Sin(r2) - in.y*math.Cos(r2)), in.w * (in.x*math.Cos(r2) + in.y*math.Sin(r2))
	},
	VarHorseshoe: func(in refIn) (float64, float64) {
		z := in.z()
		return scaled(in.w/(in.r()+refEps), z*z) // (x²−y², 2xy)/r
	},
	VarPolar: func(in refIn) (float64, float64) { return in.w * in.theta() / math.Pi, in.w * (in.r() - 1) },
	VarHandkerchief: func(in refIn) (float64, float64) {
		t, r := in.theta(), in.r()
		return in.w * r * math.Sin(t+r), in.w * r * math.Cos(t-r)
	},
	VarHeart: func(in refIn) (float64, float64) {
		t, r := in.theta(), in.r()
		return in.w * r * math.Sin(t*r), -in.w * r * math.Cos(t*r)
	},
	VarDisc: func(in refIn) (float64, float64) {
		t, r := in.theta(), in.r()
		return in.w * t / math.Pi * math.Sin(math.Pi*r), in.w * t / math.Pi * math.Cos(math.Pi*r)
	},
	VarSpiral: func(in refIn) (float64, float64) {
		t, r := in.theta(), in.r()+refEps
		return in.w / r * (math.Cos(t) + math.Sin(r)), in.w / r * (math.Sin(t) - math.Cos(r))
	},
	VarHyperbolic: func(in refIn) (float64, float64) {
		t, r := in.theta(), in.r()+refEps
		return in.w * math.Sin(t) / r, in.w * r * math.Cos(t)
	},
	VarDiamond: func(in refIn) (float64, float64) {
		t, r := in.theta(), in.r()
		return in.w * math.Sin(t) * math.Cos(r), in.w * math.Cos(t) * math.Sin(r)
	},
	VarEx: func(in refIn) (float64, float64) {
		t, r := in.theta(), in.r()
		p0, p1 := math.Pow(math.Sin(t+r), 3), math.Pow(math.Cos(t-r), 3)
		return in.w * r * (p0 + p1), in.w * r * (p0 - p1)
	},
	VarJulia: func(in refIn) (float64, float64) {
		om := in.theta()/2 + math.Pi*float64(in.d[0]&1)
		return scaled(in.w*math.Sqrt(in.r()), cmplx.Rect(1, om))
	},
	VarBent: func(in refIn) (float64, float64) {
		x, y := in.x, in.y
		if x < 0 {
			x = 2 * x
		}
		if y < 0 {
			y = y / 2
		}
		return in.w * x, in.w * y
	},
	VarWaves: func(in refIn) (float64, float64) {
		e, f := in.coef(2, 0), in.coef(2, 1)
		return in.w * (in.x + in.coef(1, 0)*math.Sin(in.y/(e*e+refEps))), in.w * (in.y + in.coef(1, 1)*math.Sin(in.x/(f*f+refEps)))
	},
	VarFisheye: func(in refIn) (float64, float64) {
		k := 2 / (in.r() + 1) // flam3 swaps x and y here
		return in.w * k * in.y, in.w * k * in.x
	},
	VarPopcorn: func(in refIn) (float64, float64) {
		return in.w * (in.x + in.coef(2, 0)*math.Sin(math.Tan(3*in.y))), in.w * (in.y + in.coef(2, 1)*math.Sin(math.Tan(3*in.x)))
	},
	VarExponential: func(in refIn) (float64, float64) {
		return scaled(in.w, cmplx.Exp(complex(in.x-1, math.Pi*in.y)))
	},
	VarPower: func(in refIn) (float64, float64) {
		t := in.theta()
		return scaled(in.w*math.Pow(in.r(), math.Sin(t)), complex(math.Cos(t), math.Sin(t)))
	},
	VarCosine: func(in refIn) (float64, float64) {
		return scaled(in.w, cmplx.Cos(complex(math.Pi*in.x, in.y)))
	},
	VarRings: func(in refIn) (float64, float64) {
		c2 := in.coef(2, 0)*in.coef(2, 0) + refEps
		r := in.r()
		rr := math.Mod(r+c2, 2*c2) - c2 + r*(1-c2)
		t := in.theta()
		return in.w * rr * math.Cos(t), in.w * rr * math.Sin(t)
	},
	VarFan: func(in refIn) (float64, float64) {
		t := math.Pi * (in.coef(2, 0)*in.coef(2, 0) + refEps)
		a := in.theta()
		if math.Mod(a+in.coef(2, 1), t) > t/2 {
			a -= t / 2
		} else {
			a += t / 2
		}
		return in.w * in.r() * math.Cos(a), in.w * in.r() * math.Sin(a)
	},
	VarBlob: func(in refIn) (float64, float64) {
		lo, hi, wv := in.par(PBlobLow), in.par(PBlobHigh), in.par(PBlobWaves)
		t := in.theta()
		r := in.r() * (lo + (hi-lo)*(1+math.Sin(wv*t))/2)
		return in.w * r * math.Sin(t), in.w * r * math.Cos(t)
	},
	VarPdj: func(in refIn) (float64, float64) {
		a, b, c, d := in.par(PPdjA), in.par(PPdjB), in.par(PPdjC), in.par(PPdjD)
		return in.w * (math.Sin(a*in.y) - math.Cos(b*in.x)), in.w * (math.Sin(c*in.x) - math.Cos(d*in.y))
	},
	VarFan2: func(in refIn) (float64, float64) {
		t := math.Pi * (in.par(PFan2X)*in.par(PFan2X) + refEps)
		a := in.theta()
		q := a + in.par(PFan2Y)
		if q-t*math.Trunc(q/t) > t/2 {
			a -= t / 2
		} else {
			a += t / 2
		}
		return in.w * in.r() * math.Sin(a), in.w * in.r() * math.Cos(a)
	},
	VarRings2: func(in refIn) (float64, float64) {
		v := in.par(PRings2Val)*in.par(PRings2Val) + refEps
		r := in.r()
		rr := r - 2*v*math.Trunc((r+v)/(2*v)) + r*(1-v)
		t := in.theta()
		return in.w * rr * math.Sin(t), in.w * rr * math.Cos(t)
	},
	VarEyefish: func(in refIn) (float64, float64) {
		k := 2 / (in.r() + 1)
		return in.w * k * in.x, in.w * k * in.y
	},
	VarBubble: func(in refIn) (float64, float64) {
		r := in.r()
		k := 4 / (r*r + 4)
		return in.w * k * in.x, in.w * k * in.y
	},
	VarCylinder: func(in refIn) (float64, float64) { return in.w * math.Sin(in.x), in.w * in.y },
	VarPerspective: func(in refIn) (float64, float64) {
		a := in.par(PPerspectiveAngle) * math.Pi / 2
		d := in.par(PPerspectiveDist)
		k := d / (d - in.y*math.Sin(a))
		return in.w * k * in.x, in.w * k * in.y * math.Cos(a)
	},
	VarNoise: func(in refIn) (float64, float64) {
		a := 2 * math.Pi * in.u(0)
		return in.w * in.u(1) * in.x * math.Cos(a), in.w * in.u(1) * in.y * math.Sin(a)
	},
	VarJulian: func(in refIn) (float64, float64) {
		n, dist := in.par(PJulianPower), in.par(PJulianDist)
		k := math.Trunc(math.Abs(n) * in.u(0))
		return scaled(in.w*math.Pow(in.r(), dist/n), cmplx.Rect(1, (in.phi()+2*math.Pi*k)/n))
	},
	VarJuliascope: func(in refIn) (float64, float64) {
		n, dist := in.par(PJuliascopePower), in.par(PJuliascopeDist)
		k := math.Trunc(math.Abs(n) * in.u(0))
		ph := in.phi()
		if math.Mod(k, 2) != 0 {
			ph = -ph
		}
		return scaled(in.w*math.Pow(in.r(), dist/n), cmplx.Rect(1, (ph+2*math.Pi*k)/n))
	},
	VarBlur: func(in refIn) (float64, float64) {
		return scaled(in.w*in.u(1), cmplx.Rect(1, 2*math.Pi*in.u(0)))
	},
	VarGaussianBlur: func(in refIn) (float64, float64) {
		return scaled(in.w*refGaussian(in, 1), cmplx.Rect(1, 2*math.Pi*in.u(0)))
	},
	VarRadialBlur: func(in refIn) (float64, float64) {
		a := in.par(PRadialBlurAngle) * math.Pi / 2
		g := in.w * refGaussian(in, 0)
		spun := cmplx.Rect(in.r(), in.phi()+math.Sin(a)*g)
		zoom := complex(math.Cos(a)*g-1, 0) * in.z()
		return real(spun + zoom), imag(spun + zoom)
	},
	VarPie: func(in refIn) (float64, float64) {
		n := in.par(PPieSlices)
		sl := math.Trunc(in.u(0)*n + 0.5)
		a := in.par(PPieRotation) + 2*math.Pi*(sl+in.u(1)*in.par(PPieThickness))/n
		return scaled(in.w*in.u(2), cmplx.Rect(1, a))
	},
	VarNgon: func(in refIn) (float64, float64) {
		b := 2 * math.Pi / in.par(PNgonSides)
		ph := in.phi() - b*math.Floor(in.phi()/b)
		if ph > b/2 {
			ph -= b
		}
		amp := (in.par(PNgonCorners)*(1/(math.Cos(ph)+refEps)-1) + in.par(PNgonCircle)) / (math.Pow(in.r(), in.par(PNgonPower)) + refEps)
		return in.w * amp * in.x, in.w * amp * in.y
	},
	VarCurl: func(in refIn) (float64, float64) {
		z := in.z()
		return scaled(in.w, z/(1+complex(in.par(PCurlC1), 0)*z+complex(in.par(PCurlC2), 0)*z*z))
	},
	VarRectangles: func(in refIn) (float64, float64) {
		f := func(v, s float64) float64 {
			if s == 0 {
				return v
			}
			return (2*math.Floor(v/s)+1)*s - v
		}
		return in.w * f(in.x, in.par(PRectanglesX)), in.w * f(in.y, in.par(PRectanglesY))
	},
	VarArch: func(in refIn) (float64, float64) {
		a := in.u(0) * in.w * math.Pi
		return in.w * math.Sin(a), in.w * math.Sin(a) * math.Tan(a)
	},
	VarTangent: func(in refIn) (float64, float64) {
		return in.w * math.Sin(in.x) / math.Cos(in.y), in.w * math.Tan(in.y)
	},
	VarSquare: func(in refIn) (float64, float64) { return in.w * (in.u(0) - 0.5), in.w * (in.u(1) - 0.5) },
	VarRays: func(in refIn) (float64, float64) {
		r := in.r()
		k := in.w * in.w * math.Tan(in.w*in.u(0)*math.Pi) / (r*r + refEps)
		return k * math.Cos(in.x), k * math.Sin(in.y)
	},
	VarBlade: func(in refIn) (float64, float64) {
		a := in.u(0) * in.w * in.r()
		return in.w * in.x * (math.Cos(a) + math.Sin(a)), in.w * in.x * (math.Cos(a) - math.Sin(a))
	},
	VarSecant2: func(in refIn) (float64, float64) {
		c := math.Cos(in.w * in.r())
		y := 1/c - 1
		if c < 0 {
			y = 1/c + 1
		}
		return in.w * in.x, in.w * y
	},
	VarTwintrian: func(in refIn) (float64, float64) {
		a := in.u(0) * in.w * in.r()
		d := 2*math.Log10(math.Abs(math.Sin(a))) + math.Cos(a)
		if math.IsNaN(d) || math.IsInf(d, 0) {
			d = -30
		}
		return in.w * in.x * d, in.w * in.x * (d - math.Pi*math.Sin(a))
	},
	VarCross: func(in refIn) (float64, float64) {
		q := in.x*in.x - in.y*in.y
		k := in.w / math.Sqrt(q*q+refEps)
		return k * in.x, k * in.y
	},
	VarDisc2: func(in refIn) (float64, float64) {
		tw := in.par(PDisc2Twist)
		sa, ca := math.Sin(tw), math.Cos(tw)-1
		if tw > 2*math.Pi {
			sa, ca = sa*(1+tw-2*math.Pi), ca*(1+tw-2*math.Pi)
		} else if tw < -2*math.Pi {
			sa, ca = sa*(1+tw+2*math.Pi), ca*(1+tw+2*math.Pi)
		}
		t := in.par(PDisc2Rot) * math.Pi * (in.x + in.y)
		k := in.w * in.theta() / math.Pi
		return k * (math.Sin(t) + ca), k * (math.Cos(t) + sa)
	},
	VarSuperShape: func(in refIn) (float64, float64) {
		th := in.par(PSuperShapeM)/4*in.phi() + math.Pi/4
		t := math.Pow(math.Abs(math.Cos(th)), in.par(PSuperShapeN2)) + math.Pow(math.Abs(math.Sin(th)), in.par(PSuperShapeN3))
		rnd := in.par(PSuperShapeRnd)
		rr := rnd*in.u(0) + (1-rnd)*in.r() - in.par(PSuperShapeHoles)
		k := in.w * rr * math.Pow(t, -1/in.par(PSuperShapeN1)) / in.r()
		return k * in.x, k * in.y
	},
	VarFlower: func(in refIn) (float64, float64) {
		k := in.w * (in.u(0) - in.par(PFlowerHoles)) * math.Cos(in.par(PFlowerPetals)*in.phi())
		return scaled(k, cmplx.Rect(1, in.phi()))
	},
	VarConic: func(in refIn) (float64, float64) {
		e := in.par(PConicEccentricity)
		k := in.w * (in.u(0) - in.par(PConicHoles)) * e / (1 + e*math.Cos(in.phi()))
		return scaled(k, cmplx.Rect(1, in.phi()))
	},
	VarParabola: func(in refIn) (float64, float64) {
		r := in.r()
		return in.par(PParabolaHeight) * in.w * math.Pow(math.Sin(r), 2) * in.u(0), in.par(PParabolaWidth) * in.w * math.Cos(r) * in.u(1)
	},
	VarBent2: func(in refIn) (float64, float64) {
		x, y := in.x, in.y
		if x < 0 {
			x *= in.par(PBent2X)
		}
		if y < 0 {
			y *= in.par(PBent2Y)
		}
		return in.w * x, in.w * y
	},
	VarBipolar: func(in refIn) (float64, float64) {
		x, y := in.x, in.y
		u := math.Log(((x+1)*(x+1)+y*y)/((x-1)*(x-1)+y*y)) / (2 * math.Pi)
		v := 0.5*math.Atan2(2*y, x*x+y*y-1) - math.Pi/2*in.par(PBipolarShift)
		// Wrap into [−π/2, π/2] as flam3 does.
		if v > math.Pi/2 {
			v = -math.Pi/2 + math.Mod(v+math.Pi/2, math.Pi)
		} else if v < -math.Pi/2 {
			v = math.Pi/2 - math.Mod(math.Pi/2-v, math.Pi)
		}
		return in.w * u, in.w * v * 2 / math.Pi
	},
	VarBoarders: func(in refIn) (float64, float64) {
		rx, ry := math.RoundToEven(in.x), math.RoundToEven(in.y)
		ox, oy := in.x-rx, in.y-ry
		bx, by := rx+ox/2, ry+oy/2
		if in.u(0) >= 0.75 {
			return in.w * bx, in.w * by
		}
		// Push out to the cell border along the ray from the cell centre.
		if math.Abs(ox) >= math.Abs(oy) {
			s := math.Copysign(0.25, ox)
			if ox == 0 {
				s = 0.25
			}
			return in.w * (bx + s), in.w * (by + s*oy/ox)
		}
		s := math.Copysign(0.25, oy)
		return in.w * (bx + s*ox/oy), in.w * (by + s)
	},
	VarButterfly: func(in refIn) (float64, float64) {
		k := in.w * 4 / math.Sqrt(3*math.Pi) * math.Sqrt(math.Abs(in.x*in.y)/(in.x*in.x+4*in.y*in.y+refEps))
		return k * in.x, k * 2 * in.y
	},
	VarCell: func(in refIn) (float64, float64) {
		s := in.par(PCellSize)
		fold := func(i float64) float64 {
			if i >= 0 {
				return 2 * i
			}
			return -2*i - 1
		}
		i, j := math.Floor(in.x/s), math.Floor(in.y/s)
		return in.w * (in.x + (fold(i)-i)*s), -in.w * (in.y + (fold(j)-j)*s)
	},
	VarCpow: func(in refIn) (float64, float64) {
		n := in.par(PCpowPower)
		k := math.Floor(n * in.u(0))
		e := complex(in.par(PCpowR)/n, in.par(PCpowI)/n)
		return scaled(in.w, cmplx.Exp(e*cmplx.Log(in.z()))*cmplx.Rect(1, 2*math.Pi*k/n))
	},
	VarCurve: func(in refIn) (float64, float64) {
		xl, yl := in.par(PCurveXlength), in.par(PCurveYlength)
		return in.w * (in.x + in.par(PCurveXamp)*math.Exp(-in.y*in.y/(xl*xl))), in.w * (in.y + in.par(PCurveYamp)*math.Exp(-in.x*in.x/(yl*yl)))
	},
	VarEdisc: func(in refIn) (float64, float64) {
		x, y := in.x, in.y
		xmax := (math.Hypot(x+1, y) + math.Hypot(x-1, y)) / 2
		a1 := math.Log(xmax + math.Sqrt(xmax-1))
		a2 := -math.Acos(x / xmax)
		sv := math.Sin(a1)
		if y > 0 {
			sv = -sv
		}
		k := in.w / 11.57034632
		return k * math.Cosh(a2) * math.Cos(a1), k * math.Sinh(a2) * sv
	},
	VarElliptic: func(in refIn) (float64, float64) {
		x, y := in.x, in.y
		xmax := (math.Hypot(x+1, y) + math.Hypot(x-1, y)) / 2
		a := x / xmax
		mu := math.Log(xmax + math.Sqrt(math.Max(xmax-1, 0)))
		if y <= 0 {
			mu = -mu
		}
		k := in.w * 2 / math.Pi
		return k * math.Atan2(a, math.Sqrt(math.Max(1-a*a, 0))), k * mu
	},
	VarEscher: func(in refIn) (float64, float64) {
		b := in.par(PEscherBeta)
		e := complex((1+math.Cos(b))/2, math.Sin(b)/2)
		return scaled(in.w, cmplx.Exp(e*cmplx.Log(in.z())))
	},
	VarFoci: func(in refIn) (float64, float64) {
		d := math.Cosh(in.x) - math.Cos(in.y)
		return in.w * math.Sinh(in.x) / d, in.w * math.Sin(in.y) / d
	},
	VarLazysusan: func(in refIn) (float64, float64) {
		cx, cy := in.par(PLazysusanX), -in.par(PLazysusanY)
		v := complex(in.x-cx, in.y-cy)
		r := cmplx.Abs(v)
		var out complex128
		if r < in.w {
			out = cmplx.Rect(in.w*r, cmplx.Phase(v)+in.par(PLazysusanSpin)+in.par(PLazysusanTwist)*(in.w-r))
		} else {
			out = v * complex(in.w*(1+in.par(PLazysusanSpace)/r), 0)
		}
		return real(out) + cx, imag(out) + cy
	},
	VarLoonie: func(in refIn) (float64, float64) {
		r := in.r()
		if r < in.w {
			k := in.w * math.Sqrt(in.w*in.w/(r*r)-1)
			return k * in.x, k * in.y
		}
		return in.w * in.x, in.w * in.y
	},
	VarPreBlur: func(in refIn) (float64, float64) { return 0, 0 }, // moves t; see refPreBlur
	VarModulus: func(in refIn) (float64, float64) {
		f := func(v, m float64) float64 {
			if v > m {
				return math.Mod(v+m, 2*m) - m
			}
			if v < -m {
				return m - math.Mod(m-v, 2*m)
			}
			return v
		}
		return in.w * f(in.x, in.par(PModulusX)), in.w * f(in.y, in.par(PModulusY))
	},
	VarOscilloscope: func(in refIn) (float64, float64) {
		t := in.par(POscilloscopeAmplitude)*math.Exp(-math.Abs(in.x)*in.par(POscilloscopeDamping))*
			math.Cos(2*math.Pi*in.par(POscilloscopeFrequency)*in.x) + in.par(POscilloscopeSeparation)
		if math.Abs(in.y) <= t {
			return in.w * in.x, -in.w * in.y
		}
		return in.w * in.x, in.w * in.y
	},
	VarPolar2: func(in refIn) (float64, float64) {
		return in.w * in.theta() / math.Pi, in.w * math.Log(in.r()) / math.Pi
	},
	VarPopcorn2: func(in refIn) (float64, float64) {
		c := in.par(PPopcorn2C)
		return in.w * (in.x + in.par(PPopcorn2X)*math.Sin(math.Tan(c*in.y))), in.w * (in.y + in.par(PPopcorn2Y)*math.Sin(math.Tan(c*in.x)))
	},
	VarScry: func(in refIn) (float64, float64) {
		r := in.r()
		k := 1 / (r * (r*r + 1/(in.w+refEps)))
		return k * in.x, k * in.y
	},
	VarSeparation: func(in refIn) (float64, float64) {
		f := func(v, s, inside float64) float64 {
			if v > 0 {
				return math.Hypot(v, s) - v*inside
			}
			return -(math.Hypot(v, s) + v*inside)
		}
		return in.w * f(in.x, in.par(PSeparationX), in.par(PSeparationXinside)), in.w * f(in.y, in.par(PSeparationY), in.par(PSeparationYinside))
	},
	VarSplit: func(in refIn) (float64, float64) {
		x, y := in.w*in.x, in.w*in.y
		if math.Cos(math.Pi*in.par(PSplitXsize)*in.x) < 0 {
			y = -y
		}
		if math.Cos(math.Pi*in.par(PSplitYsize)*in.y) < 0 {
			x = -x
		}
		return x, y
	},
	VarSplits: func(in refIn) (float64, float64) {
		sx, sy := in.par(PSplitsX), in.par(PSplitsY)
		if in.x < 0 {
			sx = -sx
		}
		if in.y < 0 {
			sy = -sy
		}
		return in.w * (in.x + sx), in.w * (in.y + sy)
	},
	VarStripes: func(in refIn) (float64, float64) {
		n := math.Floor(in.x + 0.5) // the nearest column, halves up
		o := in.x - n
		return in.w * (n + o*(1-in.par(PStripesSpace))), in.w * (in.y + o*o*in.par(PStripesWarp))
	},
	VarWedge: func(in refIn) (float64, float64) {
		r := in.r()
		return refWedge(in.phi()+in.par(PWedgeSwirl)*r, in.par(PWedgeCount), in.par(PWedgeAngle), in.w*(r+in.par(PWedgeHole)))
	},
	VarWedgeJulia: func(in refIn) (float64, float64) {
		n := in.par(PWedgeJuliaPower)
		k := math.Trunc(math.Abs(n) * in.u(0))
		a := (in.phi() + 2*math.Pi*k) / n
		m := in.w * math.Pow(in.r(), in.par(PWedgeJuliaDist)/n)
		return refWedge(a, in.par(PWedgeJuliaCount), in.par(PWedgeJuliaAngle), m)
	},
	VarWedgeSph: func(in refIn) (float64, float64) {
		r := 1 / (in.r() + refEps)
		return refWedge(in.phi()+in.par(PWedgeSphSwirl)*r, in.par(PWedgeSphCount), in.par(PWedgeSphAngle), in.w*(r+in.par(PWedgeSphHole)))
	},
	VarWhorl: func(in refIn) (float64, float64) {
		r := in.r()
		k := in.par(PWhorlOutside)
		if r < in.w {
			k = in.par(PWhorlInside)
		}
		return scaled(in.w*r, cmplx.Rect(1, in.phi()+k/(in.w-r)))
	},
	VarWaves2: func(in refIn) (float64, float64) {
		return in.w * (in.x + in.par(PWaves2Scalex)*math.Sin(in.par(PWaves2Freqx)*in.y)), in.w * (in.y + in.par(PWaves2Scaley)*math.Sin(in.par(PWaves2Freqy)*in.x))
	},
	VarExp:  func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Exp(in.z())) },
	VarLog:  func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Log(in.z())) },
	VarSin:  func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Sin(in.z())) },
	VarCos:  func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Cos(in.z())) },
	VarTan:  func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Tan(in.z())) },
	VarSec:  func(in refIn) (float64, float64) { return scaled(in.w, 1/cmplx.Cos(in.z())) },
	VarCsc:  func(in refIn) (float64, float64) { return scaled(in.w, 1/cmplx.Sin(in.z())) },
	VarCot:  func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Cot(in.z())) },
	VarSinh: func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Sinh(in.z())) },
	VarCosh: func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Cosh(in.z())) },
	VarTanh: func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Tanh(in.z())) },
	VarSech: func(in refIn) (float64, float64) { return scaled(in.w, 1/cmplx.Cosh(in.z())) },
	VarCsch: func(in refIn) (float64, float64) { return scaled(in.w, 1/cmplx.Sinh(in.z())) },
	// flam3's coth is the conjugate of coth z (its y has the wrong sign);
	// flam3's behaviour is what we reproduce.
	VarCoth: func(in refIn) (float64, float64) { return scaled(in.w, cmplx.Conj(1/cmplx.Tanh(in.z()))) },
	VarAuger: func(in refIn) (float64, float64) {
		f, aw, sc := in.par(PAugerFreq), in.par(PAugerWeight), in.par(PAugerScale)
		sx, sy := math.Sin(f*in.x), math.Sin(f*in.y)
		dx := aw * (sc*sy/2 + math.Abs(in.x)*sy)
		dy := aw * (sc*sx/2 + math.Abs(in.y)*sx)
		return in.w * (in.x + in.par(PAugerSym)*dx), in.w * (in.y + dy)
	},
	VarFlux: func(in refIn) (float64, float64) {
		z, w := in.z(), complex(in.w, 0)
		r := in.w * (2 + in.par(PFluxSpread)) * math.Sqrt(cmplx.Abs(z+w)/cmplx.Abs(z-w))
		return scaled(r, cmplx.Rect(1, (cmplx.Phase(z-w)-cmplx.Phase(z+w))/2))
	},
	VarMobius: func(in refIn) (float64, float64) {
		p := func(re, im ParamID) complex128 { return complex(in.par(re), in.par(im)) }
		z := in.z()
		return scaled(in.w, (p(PMobiusReA, PMobiusImA)*z+p(PMobiusReB, PMobiusImB))/(p(PMobiusReC, PMobiusImC)*z+p(PMobiusReD, PMobiusImD)))
	},
}

// refWedge folds angle a into count wedges opened by angle and returns m
// along the folded angle.
func refWedge(a, count, angle, m float64) (float64, float64) {
	sector := math.Floor((count*a + math.Pi) / (2 * math.Pi))
	a = a*(1-angle*count/(2*math.Pi)) + sector*angle
	return scaled(m, cmplx.Rect(1, a))
}

// refPreBlur is pre_blur's displacement of t.
func refPreBlur(in refIn) (dx, dy float64) {
	g := in.w * refGaussian(in, 0)
	return scaled(g, cmplx.Rect(1, 2*math.Pi*in.u(4)))
}
