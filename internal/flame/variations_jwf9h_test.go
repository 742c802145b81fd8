package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9hRefCases are the cases of variations_jwf9h.go for
// TestJWildfireReference, with parameters other than the defaults.
func jwf9hRefCases() [][]jwfTerm {
	wb := func(count, amp, phase, damp float64) []jwfParam {
		return []jwfParam{{PWaveblurWfCount, "count", count}, {PWaveblurWfAmplitudeZ, "amplitude_z", amp},
			{PWaveblurWfPhase, "phase", phase}, {PWaveblurWfDampingZ, "damping_z", damp}}
	}
	return [][]jwfTerm{
		{{id: VarSeashell3D, w: 0.9, params: []jwfParam{{PSeashell3DFinalRadius, "final_radius", 0.4}, {PSeashell3DHeight, "height", -1.5},
			{PSeashell3DInnerRadius, "inner_radius", 0.2}, {PSeashell3DNSpirals, "nSpirals", 5}}}},
		{{id: VarRoseWf, w: 1.1, params: []jwfParam{{PRoseWfAmp, "amp", 0.7}, {PRoseWfWaves, "waves", 5.6}, {PRoseWfFilled, "filled", 0.4}}}},
		{{id: VarRoseWf, w: 0.8, params: []jwfParam{{PRoseWfAmp, "amp", 1.3}, {PRoseWfWaves, "waves", 3}, {PRoseWfFilled, "filled", 0}}}},
		{{id: VarPTransform, w: 0.9, params: []jwfParam{{PPTransformRotate, "rotate", -0.6}, {PPTransformPower, "power", 3},
			{PPTransformMove, "move", 0.2}, {PPTransformSplit, "split", 0.3}, {PPTransformUseLog, "use_log", 0}}}},
		{{id: VarPTransform, w: 1.2, params: []jwfParam{{PPTransformPower, "power", 1.6}, {PPTransformSplit, "split", -0.4}}}},
		{{id: VarKaleidoscope, w: 0.7, params: []jwfParam{{PKaleidoscopePull, "pull", 0.3}, {PKaleidoscopeRotate, "rotate", 0.8},
			{PKaleidoscopeLineUp, "line_up", -0.5}, {PKaleidoscopeX, "x", 0.2}, {PKaleidoscopeY, "y", -0.7}}}},
		{{id: VarWaveblurWf, w: 0.9, params: wb(3, 0.8, 0.4, 0.6)}},
		{{id: VarWaveblurWf, w: 1.2, params: wb(7.4, 0, -0.3, 0)}},
	}
}

// By hand: maps whose result is easy to state.
func TestJWF9hByHand(t *testing.T) {
	// pTransform with power 1, no move, rotate or split is the identity (log, then exp).
	r := rng.NewStream(1)
	ps := map[ParamID]float64{PPTransformPower: 1, PPTransformMove: 0, PPTransformRotate: 0}
	if got := jwf8Map(VarPTransform, 1, ps, [3]float64{0.3, -0.7, 0}, [3]float64{}, &r); !near3(got, [3]float64{0.3, -0.7, 0}, 1e-12) {
		t.Errorf("pTransform identity: %v", got)
	}
	// kaleidoscope ignores its weight: at 0 it adds (line_up + x, line_up) for y ≤ 0.
	if got := jwf8Map(VarKaleidoscope, 5, nil, [3]float64{}, [3]float64{}, &r); !near3(got, [3]float64{1, -1, 0}, 1e-12) {
		t.Errorf("kaleidoscope at 0: %v", got)
	}
	for seed := range uint64(30) {
		r := rng.NewStream(rng.Key(9, 14, seed))
		// rose_wf stays on or inside its rose |r| ≤ amp·w.
		q := r
		if got := jwf8Map(VarRoseWf, 2, nil, [3]float64{0.3, 0.5, 0}, [3]float64{}, &q); math.Hypot(got[0], got[1]) > 1+1e-12 {
			t.Errorf("rose_wf outside its rose: %v", got)
		}
		checkDraws(t, "rose_wf", r, q, 2)
		// seashell3D at t: z = w·(height·t/2π + k·sin s) within the shell's height.
		q = r
		if got := jwf8Map(VarSeashell3D, 1, nil, [3]float64{}, [3]float64{}, &q); got[2] < -0.25-1e-12 || got[2] > 3.5+0.25+1e-12 {
			t.Errorf("seashell3D z %v", got)
		}
		checkDraws(t, "seashell3D", r, q, 2)
		// waveblur_wf stays in the disc of radius |w| (each ring is one wave of π/(count·π)).
		q = r
		if got := jwf8Map(VarWaveblurWf, 0.5, nil, [3]float64{}, [3]float64{}, &q); math.Hypot(got[0], got[1]) > 0.5+1e-12 {
			t.Errorf("waveblur_wf outside its disc: %v", got)
		}
		checkDraws(t, "waveblur_wf", r, q, 4)
	}
}
