package pga

import "sync"

// ticker reports work done to a progress callback from many goroutines,
// one call at a time; a nil ticker or callback does nothing.
type ticker struct {
	mu    sync.Mutex
	done  int64
	total int64
	fn    func(done, total int64)
}

func newTicker(total int, fn func(done, total int64)) *ticker {
	if fn == nil {
		return nil
	}
	return &ticker{total: int64(total), fn: fn}
}

func (t *ticker) add(n int) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.done += int64(n)
	t.fn(t.done, t.total)
	t.mu.Unlock()
}
