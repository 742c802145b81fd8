package anim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/flame/cuburn"
	"github.com/procgen-dev/procgen/internal/input"
)

// Stdin is the input path that names standard input.
const Stdin = "-"

// Input is an animation to read.
type Input struct {
	Path  string    // a .flam3 sequence, a cuburn .json edge or node, or Stdin
	Stdin io.Reader // read when Path is Stdin
	Parse flame.ParseOptions
	Flock FlockOptions
	// CheckFile checks a further input named by an option (--profile)
	// before it is read; nil checks nothing.
	CheckFile func(what, path string) error
	Debug     io.Writer // -v lines; nil: none
}

// FlockOptions are the options that apply to cuburn edges and nodes.
type FlockOptions struct {
	Profile string // render profile JSON; empty: cuburn's default
	Frames  int    // frame count; 0: from the profile
	// FramesSet says Frames was given: then it must be a count, 0 included
	// (which would otherwise silently mean the profile's count).
	FramesSet bool
	Half      bool   // a node as a half loop
	Still     bool   // one frame at edge time 0, no motion blur
	DB        string // where "nodes/NAME" links are read from
	FPS       float64
	FPSSet    bool // FPS was given and overrides the profile's
	DTime     bool // a time step was given (which edges refuse)
}

// any says whether a cuburn-only option was given.
func (f FlockOptions) any() bool {
	return f.Profile != "" || f.Frames != 0 || f.FramesSet || f.Half || f.Still || f.DB != ""
}

// Loaded is an animation read, with its parser's warnings and the video
// frame rate (a cuburn profile's unless FPSSet).
type Loaded struct {
	Source   Source
	Warnings []flame.Warning
	FPS      float64
}

// Load reads the animation in. Warnings are returned with an error too.
func Load(ctx context.Context, in Input) (Loaded, error) {
	l := Loaded{FPS: in.Flock.FPS}
	opts := in.Parse
	opts.Context = ctx
	var data []byte
	var err error
	if in.Path == Stdin {
		if data, err = input.Read(ctx, in.Stdin, "standard input", input.Genome); err != nil {
			return l, fmt.Errorf("flame animate: %w", err)
		}
	} else if strings.EqualFold(filepath.Ext(in.Path), ".json") {
		if data, err = input.ReadFile(ctx, in.Path, input.CuburnJSON); err != nil {
			return l, fmt.Errorf("flame animate: %w", err)
		}
	}
	switch {
	case IsFlockInput(in.Path, data):
		var cb *cuburn.Anim
		cb, l.FPS, err = loadFlock(in, data)
		if cb != nil {
			l.Source = cb
		}
	case in.Flock.any():
		return l, usagef("--profile, --frames, --half, --still and --genome-db apply to cuburn JSON edges and nodes, not %s", in.Path)
	case in.Path == Stdin:
		l.Source, l.Warnings, err = parse(func() (*flame.Animation, []flame.Warning, error) {
			return flame.ParseAnimation(data, "<stdin>", opts)
		})
	default:
		l.Source, l.Warnings, err = parse(func() (*flame.Animation, []flame.Warning, error) {
			return flame.ParseAnimationFileContext(ctx, in.Path, opts)
		})
	}
	return l, err
}

// parse runs a flam3 parser, keeping a nil animation a nil Source.
func parse(f func() (*flame.Animation, []flame.Warning, error)) (Source, []flame.Warning, error) {
	an, warns, err := f()
	if an == nil {
		return nil, warns, err
	}
	return an, warns, err
}

// IsFlockInput says whether an input is a cuburn document: a .json name,
// or content that is a JSON object of type node or edge.
func IsFlockInput(path string, data []byte) bool {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return true
	}
	return data != nil && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) && cuburn.IsJSON(data)
}

// loadFlock reads a cuburn edge or node with its profile, and returns the
// video frame rate: the profile's unless FPS was given.
func loadFlock(in Input, data []byte) (*cuburn.Anim, float64, error) {
	ff, fps := in.Flock, in.Flock.FPS
	prof := cuburn.DefaultProfile()
	if ff.Profile != "" {
		if in.CheckFile != nil {
			if err := in.CheckFile("flame animate --profile", ff.Profile); err != nil {
				return nil, fps, err
			}
		}
		p, err := cuburn.ReadProfile(ff.Profile)
		if err != nil {
			return nil, fps, usage(err)
		}
		prof = p
	}
	if ff.FPSSet {
		prof.FPS = ff.FPS
	} else {
		fps = prof.FPS
	}
	name := in.Path
	if in.Path == Stdin {
		name = "<stdin>"
	}
	an, err := cuburn.Load(data, name, prof, cuburn.Options{DB: ff.DB, Half: ff.Half})
	if errors.Is(err, cuburn.ErrHalfEdge) {
		return nil, fps, usagef("%s: --half: %v", name, cuburn.ErrHalfEdge)
	}
	if err != nil {
		return nil, fps, err
	}
	n := ff.Frames
	if n <= 0 {
		n = an.FrameCount()
	}
	debugf(in.Debug, "%s", fmtFlockFrames(an, n))
	if prof.Output != "" && prof.Output != "jpeg" {
		debugf(in.Debug, "%s: the profile's output %q is ignored; -o decides", ff.Profile, prof.Output)
	}
	return an, fps, nil
}

// fmtFlockFrames describes the frame rule for -v.
func fmtFlockFrames(an *cuburn.Anim, n int) string {
	return fmt.Sprintf("%s: %d frames (blend.duration %g × %g s × %g fps), %dx%d, %g samples per pixel",
		an.Name, n, an.Duration, an.Profile.Duration, an.Profile.FPS, an.Profile.Width, an.Profile.Height, an.Profile.SPP)
}

// debugf writes one line to w, if there is one.
func debugf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}
