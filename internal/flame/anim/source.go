// Package anim renders the frames of a flame animation (a flam3 keyframe
// sequence or a cuburn edge or node) and writes them: as numbered image
// files, a y4m stream or a video through ffmpeg. Its three stages overlap:
// the genomes of the next frames are interpolated and planned while the
// devices render (one renderer per device, frames dealt over them), and
// finished frames are encoded and written, in order, meanwhile.
//
// The animation model itself (keyframes, interpolation, motion blur) is
// package flame's and the cuburn formats are flame/cuburn's; this package is
// the run around them. It knows nothing of flags or terminals: logs go to
// io.Writers, progress to a func(done, total int64), and errors that are the
// caller's mistake wrap ErrUsage.
package anim

import (
	"errors"
	"fmt"

	"github.com/procgen-dev/procgen/internal/flame"
)

// Source is what is animated: a flam3 animation or a cuburn edge (or node
// loop).
type Source interface {
	Frame(t float64) (*flame.FrameSpec, error)
	Span() (first, last float64)
	Override(o flame.Options) error
	At(t float64) *flame.AnimGenome
}

// ErrUsage is wrapped by every error that is the caller's mistake (a frame
// range, an output, a size over its limit) rather than a failure of the
// work.
var ErrUsage = errors.New("usage error")

type usageError struct{ err error }

func (e *usageError) Error() string        { return e.err.Error() }
func (e *usageError) Unwrap() error        { return e.err }
func (e *usageError) Is(target error) bool { return target == ErrUsage }

func usage(err error) error { return &usageError{err} }

func usagef(format string, args ...any) error { return usage(fmt.Errorf(format, args...)) }

// Footprint is what one frame of the animation needs (its first frame;
// frames of one animation share the size), or a usage error naming the
// flags when it is over a limit.
func Footprint(path string, src Source, times []float64) (flame.Footprint, error) {
	g := src.At(times[0]).Genome
	fp, err := flame.Estimate(&g, flame.Options{})
	if errors.Is(err, flame.ErrTooLarge) {
		return fp, usagef("%s: %v: lower --width/--height, --quality or --supersample", path, err)
	}
	if err != nil {
		return fp, fmt.Errorf("%s: %w", path, err)
	}
	return fp, nil
}
