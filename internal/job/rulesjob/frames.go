package rulesjob

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/rules"
)

// rules run --frames DIR: one PNG of the first states' boards (the picture
// -o boards.png draws) before the first step and after every
// --frames-every K steps, frame_000000.png, frame_000010.png ... named by
// the step. The run is made in parts of K steps (rules.RunEvery), which
// draw and report as one run does. Each frame is written to a temporary
// file in DIR and renamed into place; the run owns only the files it
// writes: an existing non-empty DIR is refused without --force, and with it
// other files are left alone.

// framesPlan is a checked --frames request.
type framesPlan struct {
	dir    string
	every  int
	board  rules.Board
	digits int
	wrote  int
}

// framesCheck settles DIR and the board before any work.
func framesCheck(dir string, every int, force bool, prog *rules.Program, states, steps int, inputs []string) (*framesPlan, error) {
	if dir == output.Stdout {
		return nil, job.Usagef("--frames -: frames are a directory of PNG files; name a directory")
	}
	if every < 1 {
		return nil, job.Usagef("invalid --frames-every %d: want 1 or more steps", every)
	}
	b, err := rules.BoardOf(prog)
	if err != nil {
		return nil, job.Usagef("--frames: %v", err)
	}
	if px := rules.SheetPixels(b, min(states, sheetBoards)); px > rules.MaxSheetPixels {
		return nil, job.Usagef("--frames: %d boards of %dx%d make %d pixels a frame, more than %d", min(states, sheetBoards), b.W, b.H, px, int64(rules.MaxSheetPixels))
	}
	clean, exists, err := job.SettleOutDir("--frames", dir, force,
		"--force writes the frames into it (replacing frames of the same names, leaving other files)", nil)
	if err != nil {
		return nil, err
	}
	if exists {
		// SettleOutDir checks only a new directory's parent; frames are
		// written into this one.
		if err := output.ProbeCreatableDir(clean); err != nil {
			return nil, job.Usagef("--frames: %v", err)
		}
	}
	absDir, _ := filepath.Abs(clean)
	for _, in := range inputs {
		if abs, err := filepath.Abs(in); err == nil && filepath.Dir(abs) == absDir && strings.HasPrefix(filepath.Base(abs), "frame_") {
			return nil, job.Usagef("--frames %s holds the input %s: choose another directory", dir, in)
		}
	}
	return &framesPlan{dir: clean, every: every, board: b, digits: max(6, len(fmt.Sprint(steps)))}, nil
}

// run runs the rules in parts, writing a frame before the first and after
// each.
func (f *framesPlan) run(ctx context.Context, e rules.Engine, prog *rules.Program, st *rules.States, o rules.Options) (*rules.Result, error) {
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return nil, fmt.Errorf("--frames: %w", err)
	}
	return rules.RunEvery(ctx, e, prog, st, o, f.every, func(step int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		img, err := rules.BoardSheet(prog, st, f.board, sheetBoards)
		if err != nil {
			return err
		}
		path := filepath.Join(f.dir, fmt.Sprintf("frame_%0*d.png", f.digits, step))
		if err := output.WriteFileContext(ctx, path, func(w io.Writer) error { return output.EncodePNG(ctx, w, img, output.Depth8) }); err != nil {
			return fmt.Errorf("--frames: %w", err)
		}
		f.wrote++
		return nil
	})
}
