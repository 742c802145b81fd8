//go:build cuda

package gpu

/*
#include "driver_cuda.h"
*/
import "C"

import "time"

// Time runs fn and returns the device time between an event recorded before
// it and one recorded after, so benchmarks see kernel time, not launch or
// Go scheduling overhead. fn should only queue work (launches, copies).
func (d *Device) Time(fn func() error) (time.Duration, error) {
	t, err := d.StartTimer()
	if err != nil {
		return 0, err
	}
	if err := fn(); err != nil {
		t.Stop()
		return 0, err
	}
	return t.Stop()
}

// Timer measures the device time of work queued between StartTimer and
// Stop without waiting in between, so the host can prepare the next launch
// while the device runs the last one.
type Timer struct {
	d          *Device
	s          C.pg_stream
	start, end C.pg_event
	ended      bool // End recorded the end event
	done       bool
}

// StartTimer records an event on the device's default stream.
func (d *Device) StartTimer() (*Timer, error) { return d.StartTimerOn(nil) }

// StartTimerOn times work queued on stream s: its events are recorded there.
func (d *Device) StartTimerOn(s *Stream) (*Timer, error) {
	t := &Timer{d: d, s: s.handle()}
	err := d.do(func() error {
		if err := check("cuEventCreate", C.pg_event_create(&t.end)); err != nil {
			return err
		}
		var err error
		if t.start, err = newRecordedEvent(t.s); err != nil {
			C.pg_event_destroy(t.end)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// End marks the end of the timed work without waiting for it, so that
// more work can be queued before Stop reads the time.
func (t *Timer) End() error { return t.endOn(t.s) }

// EndOn is End with the end marked on stream s rather than the timer's
// own: the timer then spans from its start to the work queued on s so far
// (on another stream than the start's, the time between two points).
func (t *Timer) EndOn(s *Stream) error { return t.endOn(s.handle()) }

func (t *Timer) endOn(h C.pg_stream) error {
	if t.ended || t.done {
		return nil
	}
	err := t.d.do(func() error { return check("cuEventRecord", C.pg_event_record(t.end, h)) })
	t.ended = err == nil
	return err
}

// Stop records the end event (unless End did), waits for it and returns
// the device time since StartTimer. The events are freed; a second Stop
// returns 0.
func (t *Timer) Stop() (time.Duration, error) {
	if t.done {
		return 0, nil
	}
	t.done = true
	var ms C.float
	ended := t.ended
	err := t.d.do(func() error {
		defer C.pg_event_destroy(t.start)
		defer C.pg_event_destroy(t.end)
		if !ended {
			if err := check("cuEventRecord", C.pg_event_record(t.end, t.s)); err != nil {
				return err
			}
		}
		if err := check("cuEventSynchronize", C.pg_event_synchronize(t.end)); err != nil {
			return err
		}
		return check("cuEventElapsedTime", C.pg_event_elapsed(&ms, t.start, t.end))
	})
	return time.Duration(float64(ms) * float64(time.Millisecond)), err
}
