package flame

import "context"

// Renderer is a backend: the CPU, or a CUDA device.
type Renderer interface {
	Render(ctx context.Context, g *Genome, o Options) (*Frame, Stats, error)
}
