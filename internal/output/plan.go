package output

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// Plan is the set of outputs of one run: resolved and checked before the
// work starts (Add, RefuseInputs), then written all or nothing (Commit).
// Its methods may be called from several goroutines (renders on several
// GPUs commit their own outputs).
type Plan struct {
	mu      sync.Mutex
	stdout  io.Writer
	targets map[string]Target // by Path as given
	owner   map[string]string // destination key -> Path that claimed it
}

// NewPlan starts an empty plan; "-" outputs go to stdout.
func NewPlan(stdout io.Writer) *Plan {
	return &Plan{stdout: stdout, targets: map[string]Target{}, owner: map[string]string{}}
}

// Add resolves path and claims its destination. Two outputs of one run that
// land on the same file (after resolving links), or two on one descriptor
// ("-" and /dev/stdout are both descriptor 1), are an error: one would
// silently overwrite or garble the other. The null device takes any number.
func (p *Plan) Add(path string) (Target, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.add(path)
}

func (p *Plan) add(path string) (Target, error) {
	if t, ok := p.targets[path]; ok {
		if t.sink {
			return t, nil
		}
		return t, badTarget(path, "given twice")
	}
	t, err := Resolve(path)
	if err != nil {
		return t, err
	}
	if t.Kind == KindStdout {
		if err := CheckWriter(path, p.stdout); err != nil {
			return t, err
		}
	}
	if !t.sink {
		key := destKey(t)
		if other, ok := p.owner[key]; ok {
			return t, badTarget(path, "%s would write to the same place as %s", path, other)
		}
		p.owner[key] = path
	}
	p.targets[path] = t
	return t, nil
}

// destKey names where an output lands: a descriptor by its number ("-" is
// descriptor 1), anything else by its physical path, so two paths that reach
// one file through different links collide.
func destKey(t Target) string {
	switch t.Kind {
	case KindStdout:
		return "fd:1"
	case KindDescriptor:
		return "fd:" + strconv.Itoa(t.FD)
	}
	return t.File
}

// RefuseInputs fails when an output of the plan is one of the run's input
// files (the same file after resolving links): the run would destroy what it
// reads.
func (p *Plan) RefuseInputs(inputs ...string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, in := range inputs {
		for _, t := range p.targets {
			if SameFile(t, in) {
				return badTarget(t.Path, "is the input %s; choose another output", in)
			}
		}
	}
	return nil
}

// Write is one output's content: Func writes it to a buffered writer.
type Write struct {
	Path string
	Func func(w io.Writer) error
}

// Commit writes every output or none. Files are staged first (complete,
// synced temporary files), then streams (stdout, devices, FIFOs: they cannot
// be taken back, so they go only once every file is ready), then every file
// is renamed into place. A failure or a cancelled ctx before the renames
// leaves no new file behind. Paths not added before are added now.
func (p *Plan) Commit(ctx context.Context, writes []Write) (err error) {
	targets := make([]Target, len(writes))
	p.mu.Lock()
	for i, w := range writes {
		t, ok := p.targets[w.Path]
		if !ok {
			if t, err = p.add(w.Path); err != nil {
				p.mu.Unlock()
				return err
			}
		}
		targets[i] = t
	}
	p.mu.Unlock()
	var files []staged
	defer func() {
		if err != nil {
			for _, s := range files {
				s.discard()
			}
		}
	}()
	for i, w := range writes {
		if targets[i].Kind != KindFile {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		s, err := stage(ctx, targets[i], w.Func)
		if err != nil {
			return wrapWrite(w.Path, err)
		}
		files = append(files, s)
	}
	for i, w := range writes {
		if targets[i].Kind == KindFile {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := writeTarget(ctx, targets[i], p.stdout, w.Func); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, s := range files {
		if err := s.commit(); err != nil {
			files = files[i+1:] // the rest are still temporary files
			return fmt.Errorf("output: rename into %s: %w", s.dest, err)
		}
	}
	files = nil
	return nil
}
