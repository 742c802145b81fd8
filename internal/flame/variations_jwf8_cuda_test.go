//go:build cuda

package flame

import (
	"fmt"
	"math/rand/v2"
)

// The parameters of cuda/flame_variations_jwf8.cuh's variations in the
// pointwise runs, drawn with vtJwf4Ranges' (vtRandJwf4Params, in ParamID
// order: these come after the earlier ones, whose draws stay as they were).

// vtJwf8Ranges reach every branch: crackle's cells of both signs, with and
// without the noise's displacement (distort 0 about a fifth of the time),
// slices of the noise apart.
var vtJwf8Ranges = map[ParamID]vtRange{
	PCrackleCellsize: {lo: 0.2, hi: 2, signed: true}, PCracklePower: {lo: 0, hi: 1.2},
	PCrackleDistort: {lo: -0.4, hi: 2, zeroBelow0: true}, PCrackleScale: {lo: 0.3, hi: 2, signed: true},
	PCrackleZ: {lo: -3, hi: 3},
	// trig's exponents: each 0 about a third of the time (the functions
	// apply in turn where not), sqrt's small enough to keep what follows
	// in range.
	PTrigReciprocal: {lo: -0.5, hi: 1, zeroBelow0: true}, PTrigLogDivide: {lo: -0.5, hi: 1, zeroBelow0: true},
	PTrigSqrt: {lo: -0.5, hi: 1, zeroBelow0: true}, PTrigExp: {lo: -0.5, hi: 0.6, zeroBelow0: true},
	PTrigLog: {lo: -0.5, hi: 1, zeroBelow0: true}, PTrigAsinh: {lo: -0.5, hi: 1, zeroBelow0: true},
	PTrigAcosh: {lo: -0.5, hi: 1, zeroBelow0: true}, PTrigAtanh: {lo: -0.5, hi: 1, zeroBelow0: true},
	PTrigAsin: {lo: -0.5, hi: 1, zeroBelow0: true}, PTrigAcos: {lo: -0.5, hi: 1, zeroBelow0: true},
	PTrigAtan: {lo: -0.5, hi: 1, zeroBelow0: true}, PTrigSin: {lo: -0.5, hi: 1, zeroBelow0: true},
	PTrigCos: {lo: -0.5, hi: 1, zeroBelow0: true}, PTrigTan: {lo: -0.5, hi: 1, zeroBelow0: true},
	PTrigSinh: {lo: -0.5, hi: 1, zeroBelow0: true}, PTrigCosh: {lo: -0.5, hi: 1, zeroBelow0: true},
	PTrigTanh:      {lo: -0.5, hi: 1, zeroBelow0: true},
	PHexesCellsize: {lo: 0.2, hi: 2, signed: true}, PHexesPower: {lo: 0, hi: 1.5}, PHexesRotate: {lo: -1, hi: 1},
	PHexesScale: {lo: 0.3, hi: 2, signed: true},
	PTqmirrorA:  {lo: -2, hi: 2}, PTqmirrorB: {lo: -2, hi: 2}, PTqmirrorC: {lo: -2, hi: 2}, PTqmirrorD: {lo: -2, hi: 2},
	PTqmirrorE: {lo: -2, hi: 2}, PTqmirrorF: {lo: -2, hi: 2}, PTqmirrorG: {lo: -2, hi: 2}, PTqmirrorH: {lo: -2, hi: 2},
	PTqmirrorI: {lo: -2, hi: 2}, PTqmirrorJ: {lo: -2, hi: 2}, PTqmirrorK: {lo: -2, hi: 2}, PTqmirrorL: {lo: -2, hi: 1},
	PTqmirrorM: {lo: -2, hi: 1}, PTqmirrorN: {lo: -1, hi: 1}, PTqmirrorO: {lo: -1, hi: 1}, PTqmirrorP: {lo: -2, hi: 1},
	PTqmirrorQ: {lo: -1, hi: 1}, PTqmirrorR: {lo: -2, hi: 2}, PTqmirrorS: {lo: -2, hi: 2},
	PTqmirrorType: {lo: 0, hi: 1.4}, PTqmirrorMode: {lo: 0, hi: 2.4},
	PBTransformRotate: {lo: -3, hi: 3}, PBTransformPower: {lo: 0.6, hi: 5}, PBTransformMove: {lo: -1, hi: 1},
	PBTransformSplit: {lo: -1, hi: 1},
	PSymNg15Radius:   {lo: -1, hi: 1}, PSymNg15Stepx: {lo: -1, hi: 1}, PSymNg15Stepy: {lo: -1, hi: 1},
	PCliffordJsA: {lo: -3, hi: 3}, PCliffordJsB: {lo: -3, hi: 3}, PCliffordJsC: {lo: -2, hi: 2},
	PCliffordJsD: {lo: -2, hi: 2},
	// cuda/flame_variations_jwf9.cuh. maurer_rose's shares of lines,
	// points and curve all positive; scrambly's seeds both sides of 50.
	PMaurerRoseKn: {lo: 1, hi: 7}, PMaurerRoseKd: {lo: 1, hi: 4}, PMaurerRoseC: {lo: -0.5, hi: 0.5},
	PMaurerRoseLineOffsetDegrees: {lo: 1, hi: 179}, PMaurerRoseLineCount: {lo: 10, hi: 400},
	PMaurerRoseShowLines: {lo: 0.05, hi: 1}, PMaurerRoseShowPoints: {lo: 0.05, hi: 1},
	PMaurerRoseShowCurve: {lo: 0.05, hi: 1}, PMaurerRoseLineThickness: {lo: -1, hi: 3, zeroBelow0: true},
	PMaurerRosePointThickness: {lo: -1, hi: 5, zeroBelow0: true}, PMaurerRoseCurveThickness: {lo: -1, hi: 3, zeroBelow0: true},
	PScramblyL: {lo: 2, hi: 26, signed: true}, PScramblySeed: {lo: 0, hi: 5000}, PScramblyByrows: {lo: 0, hi: 1.4},
	PScramblyCellsize: {lo: 0.5, hi: 4, signed: true},
	PSattractorJsM:    {lo: 1, hi: 14},
	PJoukowskiP1:      {lo: 0.3, hi: 3, signed: true}, PJoukowskiP2: {lo: -1, hi: 1}, PJoukowskiInverse: {lo: 0, hi: 1.4},
	PRblurStrength: {lo: -2, hi: 2}, PRblurOffset: {lo: -0.5, hi: 1.5}, PRblurCenterX: {lo: -1, hi: 1},
	PRblurCenterY: {lo: -1, hi: 1},
}

// vtJwf8BranchCases set the branches random parameters miss: crackle with
// no cells, and with cells so small and displaced so far that a neighbour
// is often the closest centre (the recentring); hexes with no cells; trig
// at no exponent, at its defaults' reciprocal with square root and exp
// (the draw's sign), with exponents that sum to 0 (the sum of the
// functions replaced by the point: JWildfire's test), and the circular and
// inverse families alone; scrambly shifted (seed 7) and shuffled, whole
// and by rows, on a cell square that holds most points; maurer_rose's
// lines, points and curve alone; tqmirror in each mode and type, its box
// about the points so that every branch is taken.
func vtJwf8BranchCases(r *rand.Rand) []vtCase {
	sets := []vtBranch{
		{"crackle/nocells", VarCrackle, func(p *Params) { p[PCrackleCellsize] = 0 }},
		{"crackle/recentre", VarCrackle, func(p *Params) { p[PCrackleCellsize], p[PCrackleDistort] = 0.15, 2.5 }},
		{"hexes/nocells", VarHexes, func(p *Params) { p[PHexesCellsize] = 0 }},
		{"trig/none", VarTrig, func(p *Params) { p[PTrigReciprocal] = 0 }},
		{"trig/sqrt+exp", VarTrig, func(p *Params) { p[PTrigSqrt], p[PTrigExp] = 1, 0.5 }},
		{"trig/cancelled", VarTrig, func(p *Params) { p[PTrigSin], p[PTrigCos], p[PTrigTanh] = 0.5, -0.5, 0.3 }},
		{"trig/circular", VarTrig, func(p *Params) { p[PTrigSin], p[PTrigCos], p[PTrigTan] = 0.4, 0.3, 0.2 }},
		{"trig/inverse", VarTrig, func(p *Params) { p[PTrigAsin], p[PTrigAcos], p[PTrigAtan], p[PTrigAcosh] = 0.4, 0.3, 0.2, 0.5 }},
	}
	for i, seed := range []float64{7, 51, 1234, -77} {
		for _, rows := range []float64{0, 1} {
			sets = append(sets, struct {
				name string
				id   VarID
				set  func(p *Params)
			}{fmt.Sprintf("scrambly/seed%g/rows%g", seed, rows), VarScrambly, func(p *Params) {
				p[PScramblySeed], p[PScramblyByrows], p[PScramblyCellsize] = seed, rows, 3.5
				p[PScramblyL] = []float64{25, 3, 11, 17}[i]
			}})
		}
	}
	for i, show := range [][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
		sets = append(sets, struct {
			name string
			id   VarID
			set  func(p *Params)
		}{fmt.Sprintf("maurer_rose/show%d", i), VarMaurerRose, func(p *Params) {
			p[PMaurerRoseShowLines], p[PMaurerRoseShowPoints], p[PMaurerRoseShowCurve] = show[0], show[1], show[2]
		}})
	}
	for mode := range 3 {
		for typ := range 2 {
			sets = append(sets, struct {
				name string
				id   VarID
				set  func(p *Params)
			}{fmt.Sprintf("tqmirror/mode%d/type%d", mode, typ), VarTqmirror, func(p *Params) {
				p[PTqmirrorMode], p[PTqmirrorType] = float64(mode), float64(typ)
				p[PTqmirrorL], p[PTqmirrorM], p[PTqmirrorN], p[PTqmirrorO] = -1.5, -1.5, -0.5, -0.5
				p[PTqmirrorJ], p[PTqmirrorK], p[PTqmirrorH], p[PTqmirrorI] = 0.7, -1.2, 0.9, 1.1
			}})
		}
	}
	return vtBranchCases(r, sets, 0x4b8)
}
