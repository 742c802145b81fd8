package flame

import "sync"

// A frame's plan (every temporal sample's camera and chaos game, 1024 of
// them for a cuburn frame: ~130 ms of CPU on the H100 host) can be built
// ahead of RenderFrame, so that an animation's pipeline builds frame N+1's
// while the device renders frame N, instead of the device waiting for it.

// prepared is a plan built by Prepare and the options it was built for.
type prepared struct {
	mu   sync.Mutex
	key  planOpts
	plan *framePlan
}

// Prepare builds the frame's plan for rendering with o now. RenderFrame with
// the same options (sizes and Progress aside) uses it; with others, or
// without Prepare, it builds its own. Prepare may run on another goroutine
// than RenderFrame, but not at the same time as it.
func (fs *FrameSpec) Prepare(o Options) error {
	fp, err := newFramePlan(fs, o)
	if err != nil {
		return err
	}
	p := &prepared{key: planKey(o), plan: fp}
	fs.prep = p
	return nil
}

// framePlan returns the plan Prepare built for o, handing it over once (a
// plan holds the histogram's chaos games, which one render consumes), or a
// new one.
func (fs *FrameSpec) framePlan(o Options) (*framePlan, error) {
	if p := fs.prep; p != nil {
		p.mu.Lock()
		fp := p.plan
		if fp != nil && p.key == planKey(o) {
			p.plan = nil
			p.mu.Unlock()
			return fp, nil
		}
		p.mu.Unlock()
	}
	return newFramePlan(fs, o)
}

// planOpts is Options as far as a frame plan depends on them: newFramePlan
// ignores the sizes (the animation's keyframes carry them) and the progress
// callback. A new field of Options that plans read belongs here too.
type planOpts struct {
	seed                   uint64
	earlyClip, transparent bool
	linear                 bool
}

func planKey(o Options) planOpts { return planOpts{o.Seed, o.EarlyClip, o.Transparent, o.Linear} }
