package imgdiff

import (
	"sync"
)

// minRowsPerBand keeps bands large enough that starting a goroutine is
// cheap next to the work it does.
const minRowsPerBand = 16

// span is a half-open range of rows.
type span struct{ lo, hi int }

// bands splits n rows into at most workers contiguous spans. Every result
// is computed per row or combined in span order, so the numbers do not
// depend on how many spans there are.
func bands(n, workers int) []span {
	parts := min(max(workers, 1), max((n+minRowsPerBand-1)/minRowsPerBand, 1))
	out := make([]span, 0, parts)
	for i := range parts {
		out = append(out, span{lo: n * i / parts, hi: n * (i + 1) / parts})
	}
	return out
}

// forBands runs fn on each span concurrently and waits for all of them.
func forBands(spans []span, fn func(i int, s span)) {
	if len(spans) == 1 {
		fn(0, spans[0])
		return
	}
	var wg sync.WaitGroup
	for i, s := range spans {
		wg.Go(func() { fn(i, s) })
	}
	wg.Wait()
}
