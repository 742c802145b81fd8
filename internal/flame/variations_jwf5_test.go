package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf5Case is one point through one variation of variations_jwf5.go, with
// the output worked out by hand from JWildfire's formula; alt is a second
// allowed output where a random draw picks between two (npolar's roots).
type jwf5Case struct {
	name     string
	id       VarID
	w        float64
	params   map[ParamID]float64
	in, want [3]float64
	alt      *[3]float64
	tol      float64
}

func TestJWF5Variations(t *testing.T) {
	s2 := math.Sqrt2 / 2
	cases := []jwf5Case{
		// CsX = 1/(1+1²)·(2−1)+1 = 1.5; x + 1.5·sin(0.5·π); CsY = 1/(1+0.25)·(0.75−1.5)+1.5 = 0.9.
		{name: "waves2b sine", id: VarWaves2b, w: 1, params: map[ParamID]float64{PWaves2bFreqx: math.Pi, PWaves2bPwy: 2, PWaves2bFreqy: math.Pi / 4},
			in: [3]float64{1, 0.5, 0}, want: [3]float64{2.5, 0.5 + 0.9*s2, 0}, tol: 1e-9},
		// pwx 0, jacok 0: sn(u | 1) = tanh u; pwx −5e-5: J1(0.5·π) = 0.566824088905874 (mpmath).
		{name: "waves2b tanh, J1", id: VarWaves2b, w: 2, params: map[ParamID]float64{PWaves2bPwx: 0, PWaves2bJacok: 0, PWaves2bFreqx: 2,
			PWaves2bPwy: -5e-5, PWaves2bFreqy: math.Pi / 2},
			in: [3]float64{1, 0.5, 0}, want: [3]float64{2 * (1 + 1.5*math.Tanh(1)), 2 * (0.5 + 0.9*0.566824088905874), 0}, tol: 1e-9},
		// jacok 0.25: sn(0.7 | m = 0.75) = 0.614363247484494 (mpmath), to the series' 1e-7.
		{name: "waves2b sn", id: VarWaves2b, w: 1, params: map[ParamID]float64{PWaves2bPwx: 0, PWaves2bFreqx: 1.4, PWaves2bPwy: 1, PWaves2bFreqy: 0},
			in: [3]float64{1, 0.5, 0}, want: [3]float64{1 + 1.5*0.614363247484494, 0.5, 0}, tol: 1e-6},
		// cos²(π/2) = 0, sin²(π/4) = ½, dampings e^ln2 = 2: ((1+0)·2, (1 + 2·0.5·½)·2).
		{name: "waves3_wf", id: VarWaves3Wf, w: 1, params: map[ParamID]float64{PWaves3WfDampx: math.Ln2, PWaves3WfDampy: math.Ln2},
			in: [3]float64{1, 1, 0}, want: [3]float64{2, 3, 0}, tol: 1e-9},
		// sin(−π/6)^trunc(3.7) = −⅛; ((1 + sin(π/4))/2)² for mode 1.
		{name: "waves22", id: VarWaves22, w: 1, params: map[ParamID]float64{PWaves22Scalex: 0.5, PWaves22Freqx: math.Pi / 2, PWaves22Powerx: 3.7,
			PWaves22Scaley: 0.4, PWaves22Freqy: math.Pi, PWaves22Modey: 1, PWaves22Powery: 2},
			in: [3]float64{0.25, -1.0 / 3, 0}, want: [3]float64{0.1875, -1.0/3 + 0.4*(0.5+math.Sqrt2/4)*(0.5+math.Sqrt2/4), 0}, tol: 1e-9},
		// amplitude ½·0.4·(1 + sin(π/2)) = 0.4, wave sin(π/4); y: ½·0.2·(1 + sin 0), wave sin 0.
		{name: "waves3", id: VarWaves3, w: 2, params: map[ParamID]float64{PWaves3Scalex: 0.4, PWaves3SxFreq: math.Pi, PWaves3Freqx: math.Pi / 2, PWaves3Scaley: 0.2},
			in: [3]float64{0, 0.5, 0}, want: [3]float64{2 * 0.4 * s2, 1, 0}, tol: 1e-9},
		// band 0: a = fract(sin(1)·43758.5453) = 0.5462073519520345; x + sin(π/2)·a²·0.3.
		{name: "waves4", id: VarWaves4, w: 1, params: map[ParamID]float64{PWaves4Scalex: 0.3, PWaves4Freqx: 2 * math.Pi, PWaves4Yfact: 0},
			in: [3]float64{0, 0.25, 0}, want: [3]float64{0.08950274139793611, 0.25, 0}, tol: 1e-9},
		{name: "waves4 cont", id: VarWaves4, w: 1, params: map[ParamID]float64{PWaves4Scalex: 0.3, PWaves4Freqx: 2 * math.Pi, PWaves4Yfact: 0, PWaves4Cont: 1},
			in: [3]float64{0, 0.25, 0}, want: [3]float64{0.3, 0.25, 0}, tol: 1e-9},
		// (1, 0): 4/5 turned by π/4; (−1, 0): x < 0 so y mirrored; (0, 2), ratio 1: 8/8·2 turned.
		{name: "xheart right", id: VarXheart, w: 1, in: [3]float64{1, 0, 0}, want: [3]float64{0.8 * s2, 0.8 * s2, 0}, tol: 1e-9},
		{name: "xheart left", id: VarXheart, w: 1, in: [3]float64{-1, 0, 0}, want: [3]float64{-0.8 * s2, 0.8 * s2, 0}, tol: 1e-9},
		{name: "xheart ratio", id: VarXheart, w: 1, params: map[ParamID]float64{PXheartRatio: 1}, in: [3]float64{0, 2, 0},
			want: [3]float64{-math.Sqrt2, -math.Sqrt2, 0}, tol: 1e-9},
		// (1, 0): angle 2π/(1+1) = π, radius ½(0+1)·½... (0·1/π + 1)/2 = ½.
		{name: "fdisc", id: VarFdisc, w: 1, in: [3]float64{1, 0, 0}, want: [3]float64{-0.5, 0, 0}, tol: 1e-9},
		// (0, 1): radius (½+1)/2 = ¾ at angle π (x shifted by π/2 to 3π/2); term4 adds ½·(0, 1).
		{name: "fdisc shifts", id: VarFdisc, w: 1, params: map[ParamID]float64{PFdiscXshift: math.Pi / 2, PFdiscTerm4: 0.5},
			in: [3]float64{0, 1, 0}, want: [3]float64{0, 0.5, 0}, tol: 1e-9},
		// mode 1, r = 2 > ½: m = ½ + ½, split by (0.1, 0, 0.2).
		{name: "octagon outside", id: VarOctagon, w: 1, params: map[ParamID]float64{POctagonX: 0.1, POctagonZ: 0.2},
			in: [3]float64{1, 1, 0}, want: [3]float64{2.1, 2, 0.2}, tol: 1e-9},
		// r = ⅛ ≤ ½: m = 1 + 1/t with t = 1.
		{name: "octagon inside", id: VarOctagon, w: 1, params: map[ParamID]float64{POctagonX: 0.1, POctagonZ: 0.2},
			in: [3]float64{0.5, -0.5, 0}, want: [3]float64{1.6, -1.5, 0.2}, tol: 1e-9},
		{name: "octagon mode 4", id: VarOctagon, w: 1, params: map[ParamID]float64{POctagonMode: 4},
			in: [3]float64{1, 1, 0}, want: [3]float64{0.5, 0.5, 0}, tol: 1e-9},
		// mode 3: t = 2√|−¼| = 1, r = ⅛: m = 1/t, split (z < 0 moves by −0.2).
		{name: "octagon mode 3", id: VarOctagon, w: 1, params: map[ParamID]float64{POctagonMode: 3, POctagonX: 0.1, POctagonZ: 0.2},
			in: [3]float64{0, 0, -0.25}, want: [3]float64{0.1, 0, -0.7}, tol: 1e-9},
		// even parity, w = π: polar image (0, 1), root of it (π at π/2), back: (ln π, 0).
		{name: "npolar even", id: VarNpolar, w: math.Pi, in: [3]float64{0, math.E, 0}, want: [3]float64{1.1447298858494002, 0, 0}, tol: 1e-9},
		// odd, n 2: √ of (0, 4): 2 at π/4 or 5π/4.
		{name: "npolar odd", id: VarNpolar, w: 1, params: map[ParamID]float64{PNpolarParity: 1, PNpolarN: 2},
			in: [3]float64{0, 4, 0}, want: [3]float64{math.Sqrt2, math.Sqrt2, 0}, alt: &[3]float64{-math.Sqrt2, -math.Sqrt2, 0}, tol: 1e-9},
	}
	for _, c := range cases {
		x := newXform(0)
		x.Vars = []VarTerm{{ID: c.id, Weight: c.w}}
		for id, v := range c.params {
			x.Params[id] = v
		}
		Precalc(&x)
		for seed := range uint64(8) {
			r := rng.NewStream(rng.Key(5, seed))
			gx, gy, gz, _ := ApplyXform3D(&x, c.in[0], c.in[1], c.in[2], &r)
			got := [3]float64{gx, gy, gz}
			if !near3(got, c.want, c.tol) && (c.alt == nil || !near3(got, *c.alt, c.tol)) {
				t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, c.want)
				break
			}
		}
	}
}

func near3(a, b [3]float64, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}
