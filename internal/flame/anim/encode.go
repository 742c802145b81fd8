package anim

import (
	"runtime"
	"sync"
)

// encodePool encodes and writes frames on several goroutines: compressing a
// 1080p PNG takes a core ~0.1-0.2 s, longer than a GPU renders a simple
// frame, so one writer would hold back the devices. Frames written as
// separate files need no order. submit blocks while every worker is busy
// (bounding the frames held in memory) and returns the first failure, so the
// renderer stops; wait returns it too once every submitted frame is done.
type encodePool struct {
	slots chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	err   error
}

func newEncodePool(workers int) *encodePool {
	if workers < 1 {
		workers = max(1, min(8, runtime.GOMAXPROCS(0)/2))
	}
	return &encodePool{slots: make(chan struct{}, workers)}
}

func (p *encodePool) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *encodePool) submit(job func() error) error {
	if err := p.failed(); err != nil {
		return err
	}
	p.slots <- struct{}{}
	p.wg.Add(1)
	go func() {
		defer func() { <-p.slots; p.wg.Done() }()
		if err := job(); err != nil {
			p.mu.Lock()
			if p.err == nil {
				p.err = err
			}
			p.mu.Unlock()
		}
	}()
	return nil
}

func (p *encodePool) wait() error {
	p.wg.Wait()
	return p.failed()
}
