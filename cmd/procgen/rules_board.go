package main

import (
	"context"
	"fmt"
	"io"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/rules"
)

// rulesDeviceFits hands back a GPU that cannot run prog (a rule ranging
// over more indices than the GPU backend takes): under --device auto the
// run goes to the CPU and -v says why; an explicit --device cuda fails
// (exit code 3) naming the rule.
func (a *app) rulesDeviceFits(prog *rules.Program, dev *gpu.Device) (*gpu.Device, error) {
	why := rules.GPUSupports(prog)
	if why == nil {
		return dev, nil
	}
	if dev != nil {
		dev.Close()
	}
	if a.opts.Device == "cuda" {
		return nil, deviceError{fmt.Errorf("cannot use %s cuda: %w; run it with --device cpu or auto", a.settingName("device"), why)}
	}
	if a.opts.Device == "auto" {
		a.log.Debugf("device: cpu (auto: %v)", why)
	}
	return nil, nil
}

// rulesSheetBoards is how many states -o boards.png draws: the first 16.
const rulesSheetBoards = 16

// rulesBoardCheck refuses, before the run, a picture of states that have
// no board or would make too large an image.
func rulesBoardCheck(prog *rules.Program, states int) error {
	b, err := prog.BoardOf()
	if err != nil {
		return usageErrorf("-o .png: %v", err)
	}
	if px := rules.SheetPixels(b, min(states, rulesSheetBoards)); px > rules.MaxSheetPixels {
		return usageErrorf("-o .png: %d boards of %dx%d make %d pixels, more than %d", min(states, rulesSheetBoards), b.W, b.H, px, int64(rules.MaxSheetPixels))
	}
	return nil
}

// rulesBoardWrite draws the first states' boards side by side into out.
func rulesBoardWrite(ctx context.Context, out string, prog *rules.Program, st *rules.States) (output.Write, error) {
	b, err := prog.BoardOf()
	if err != nil {
		return output.Write{}, err
	}
	return output.Write{Path: out, Func: func(w io.Writer) error {
		img, err := rules.BoardSheet(prog, st, b, rulesSheetBoards)
		if err != nil {
			return err
		}
		return output.EncodePNG(ctx, w, img, output.Depth8)
	}}, nil
}
