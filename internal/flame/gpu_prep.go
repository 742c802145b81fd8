package flame

import (
	"fmt"
	"math"
)

// gpuInputs converts a plan into the structures the kernels read. It lives
// outside the cuda build so the conversion is tested everywhere.
func (p *plan) gpuInputs(cg *chaosGame) (gpuGenome, []gpuXform, error) {
	g := p.g
	if len(cg.xforms) > gpuMaxXforms {
		return gpuGenome{}, nil, fmt.Errorf("flame %q: %d xforms, the GPU backend takes at most %d",
			g.Name, len(cg.xforms), gpuMaxXforms)
	}
	gg := gpuGenome{
		NXforms: int32(len(cg.xforms)), Fuse: int32(cg.fuse), BW: int32(p.bw), BH: int32(p.bh),
		CX: float32(p.cam.cx), CY: float32(p.cam.cy),
		X0: float32(p.cam.x0), Y0: float32(p.cam.y0), X1: float32(p.cam.x1), Y1: float32(p.cam.y1),
		SX: float32(p.cam.sx), SY: float32(p.cam.sy),
	}
	if cg.final != nil {
		gg.HasFinal = 1
	}
	if cg.alphaHits() {
		gg.AlphaHits = 1
	}
	if cg.linear {
		gg.Linear = 1
	}
	carriesZ := gpuCarriesZ(g)
	if carriesZ {
		gg.Z3 = 1
		gpuCamera(&gg, cg.proj)
	}
	if p.cam.rotate {
		gg.Rotate, gg.RotCos, gg.RotSin = 1, float32(p.cam.cos), float32(p.cam.sin)
	}
	// Step mode with every xform fully visible: a sample adds its palette
	// entry's whole part (flam3Bump), taken here once instead of by the
	// kernel for every sample (deposit). Where the frame later clears
	// AlphaHits the kernel truncates again, which leaves whole numbers as
	// they are.
	whole := gg.AlphaHits != 0 && gg.Linear == 0
	for i := range cg.palette {
		for ch := 0; ch < 4; ch++ {
			v := cg.palette[i][ch]
			if whole {
				v = math.Trunc(v)
			}
			gg.Palette[i][ch] = float32(v)
		}
	}
	// Cumulative, normalised weights per row: the same distribution as the
	// CPU's table, sampled by a uniform draw instead of a table index.
	rows := 1
	if cg.table.xaos {
		gg.Xaos = 1
		rows = len(cg.xforms) + 1
	}
	for row := 0; row < rows; row++ {
		w, total := choiceWeights(g.Xforms, row)
		if total <= 0 { // as on the CPU: fall back to the plain weights
			copy(gg.Choose[row][:], gg.Choose[0][:])
			continue
		}
		acc := 0.0
		for j := range w {
			acc += w[j]
			gg.Choose[row][j] = float32(acc / total)
		}
		gg.Choose[row][len(w)-1] = 2 // past any draw in [0,1): rounding never escapes
	}
	xs := make([]gpuXform, 0, len(cg.xforms)+1)
	zeroZ := zStaysZero(g)
	conv := func(px *preparedXform) error {
		x := px.x
		if name, ok := pluginVarZ(x, zeroZ); ok {
			return fmt.Errorf("flame %q: variation %s is not on the GPU backend yet: render it with --device cpu", g.Name, name)
		}
		vars := gpuVarTerms(x.Vars, zeroZ)
		if len(vars) > gpuMaxVars {
			return fmt.Errorf("flame %q: an xform with %d variations, the GPU backend takes at most %d",
				g.Name, len(vars), gpuMaxVars)
		}
		gx := gpuXform{Color: float32(px.color), ColorSpeed: float32(px.colorSpeed), Vis: float32(px.vis),
			Opacity: float32(x.Opacity), NVars: int32(len(vars))}
		for i := 0; i < 6; i++ {
			gx.Coefs[i] = float32(x.Coefs[i])
			gx.Post[i] = float32(x.Post[i])
		}
		if !x.Post.IsIdentity() {
			gx.HasPost = 1
		}
		gx.LinearOnly = 1
		gx.PreBlur = -1
		for _, v := range x.Vars {
			if carriesZ && v.ID == VarFlatten && v.Weight != 0 {
				gx.Flatten = 1
			}
		}
		for i, v := range vars {
			if v.ID == VarPreBlur && float32(v.Weight) != 0 && gx.PreBlur < 0 {
				gx.PreBlur = int32(i)
			}
			gx.IDs[i] = uint16(v.ID) // pluginVarZ has refused any id the kernels lack
			gx.Weights[i] = float32(v.Weight)
			if v.ID != VarLinear {
				gx.LinearOnly = 0
			}
			gx.LinearW += float32(v.Weight)
		}
		stages, err := gpuStageTerms(&gx, x, len(vars), g.Name)
		if err != nil {
			return err
		}
		// The slab holds the terms the device runs: not a zscale or a
		// linear3D that vars maps away where z stays 0; the stages' too.
		run := *x
		run.Vars = append(append([]VarTerm(nil), vars...), stages...)
		gx.Params = gpuParams(&run)
		xs = append(xs, gx)
		return nil
	}
	for i := range cg.xforms {
		if err := conv(&cg.xforms[i]); err != nil {
			return gpuGenome{}, nil, err
		}
	}
	if cg.final != nil {
		if err := conv(cg.final); err != nil {
			return gpuGenome{}, nil, err
		}
	}
	return gg, xs, nil
}

// gpuCamera writes the 3D camera's projector (nil: none) into gg.
func gpuCamera(gg *gpuGenome, pr *projector) {
	if pr == nil {
		return
	}
	gg.Cam = 1
	for col := range 3 {
		for row := range 3 {
			gg.CamM[col*3+row] = float32(pr.m[col][row])
		}
	}
	if pr.jwf {
		gg.CamJWF = 1
	}
	if pr.blurred {
		gg.CamBlurred = 1
	}
	gg.CamPersp, gg.CamZPos, gg.CamBlur = float32(pr.persp), float32(pr.zpos), float32(pr.blur)
	for i := range 3 {
		gg.CamPos[i] = float32(pr.pos[i])
	}
}
