package rulesjob

import (
	"context"
	"fmt"
	"io"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/rules"
)

// deviceFits hands back a GPU that cannot run prog (a rule ranging
// over more indices than the GPU backend takes): under --device auto the
// run goes to the CPU and -v says why; an explicit --device cuda fails
// (exit code 3) naming the rule.
func deviceFits(env *job.Env, p *plan, prog *rules.Program, dev *gpu.Device) (*gpu.Device, error) {
	why := rules.GPUSupports(prog)
	if why == nil {
		return dev, nil
	}
	if dev != nil {
		dev.Close()
	}
	if env.Device == "cuda" {
		return nil, device.UnavailableError{Err: fmt.Errorf("cannot use %s cuda: %w; run it with --device cpu or auto", p.settingName("device"), why)}
	}
	if env.Device == "auto" {
		env.Log.Debugf("device: cpu (auto: %v)", why)
	}
	return nil, nil
}

// sheetBoards is how many states -o boards.png draws: the first 16.
const sheetBoards = 16

// boardCheck refuses, before the run, a picture of states that have
// no board or would make too large an image.
func boardCheck(prog *rules.Program, states int) error {
	b, err := rules.BoardOf(prog)
	if err != nil {
		return job.Usagef("-o .png: %v", err)
	}
	if px := rules.SheetPixels(b, min(states, sheetBoards)); px > rules.MaxSheetPixels {
		return job.Usagef("-o .png: %d boards of %dx%d make %d pixels, more than %d", min(states, sheetBoards), b.W, b.H, px, int64(rules.MaxSheetPixels))
	}
	return nil
}

// boardWrite draws the first states' boards side by side into out.
func boardWrite(ctx context.Context, out string, prog *rules.Program, st *rules.States) (output.Write, error) {
	b, err := rules.BoardOf(prog)
	if err != nil {
		return output.Write{}, err
	}
	return output.Write{Path: out, Func: func(w io.Writer) error {
		img, err := rules.BoardSheet(prog, st, b, sheetBoards)
		if err != nil {
			return err
		}
		return output.EncodePNG(ctx, w, img, output.Depth8)
	}}, nil
}
