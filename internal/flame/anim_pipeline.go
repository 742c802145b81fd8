package flame

import "context"

// FrameSubmitter is a FrameRenderer that can queue a frame and return
// before the frame is done, so that its caller queues the next frame
// before waiting for this one: the device then goes from one frame's
// launches to the next without waiting for the host to read the image back
// or build the next frame's inputs. The CUDA frame renderer is one.
type FrameSubmitter interface {
	FrameRenderer
	// SubmitFrame queues fs. Call Wait on the result on the same
	// goroutine; the renderer holds the buffers of every frame queued and
	// not yet waited for, so a caller keeps a few in flight, not all.
	SubmitFrame(ctx context.Context, fs *FrameSpec, o Options) (PendingFrame, error)
}

// FrameWarmer is a FrameSubmitter that can ready itself for n frames in
// flight before the first is submitted (see CUDA.Warm), so that the first
// frames queue as fast as the rest. Call it on the goroutine that submits;
// an error is the one the first SubmitFrame would meet.
type FrameWarmer interface {
	Warm(n int) error
}

// PendingFrame is a frame queued by SubmitFrame.
type PendingFrame interface {
	// Wait blocks until the frame is done and returns what RenderFrame
	// would have. It must be called exactly once.
	Wait() (*Frame, Stats, error)
}
