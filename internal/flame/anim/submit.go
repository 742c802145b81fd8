package anim

import (
	"context"

	"github.com/procgen-dev/procgen/internal/flame"
)

// FrameSubmitter is a flame.FrameRenderer that can queue a frame and return
// before the frame is done, so that its caller queues the next frame
// before waiting for this one: the device then goes from one frame's
// launches to the next without waiting for the host to read the image back
// or build the next frame's inputs. The CUDA frame renderer (flame.CUDA) is
// one. The pipeline asks for it (and FrameWarmer) by type assertion, so the
// interfaces are declared here, where they are used.
type FrameSubmitter interface {
	flame.FrameRenderer
	// SubmitFrame queues fs. Call Wait on the result on the same
	// goroutine; the renderer holds the buffers of every frame queued and
	// not yet waited for, so a caller keeps a few in flight, not all.
	SubmitFrame(ctx context.Context, fs *flame.FrameSpec, o flame.Options) (flame.PendingFrame, error)
}

// FrameWarmer is a FrameSubmitter that can ready itself for n frames in
// flight before the first is submitted (see flame.CUDA.Warm), so that the first
// frames queue as fast as the rest. Call it on the goroutine that submits;
// an error is the one the first SubmitFrame would meet.
type FrameWarmer interface {
	Warm(n int) error
}
