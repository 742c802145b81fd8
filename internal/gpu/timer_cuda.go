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
	var start, end C.pg_event
	err := d.do(func() error {
		if err := check("cuEventCreate", C.pg_event_create(&start)); err != nil {
			return err
		}
		if err := check("cuEventCreate", C.pg_event_create(&end)); err != nil {
			C.pg_event_destroy(start)
			return err
		}
		return check("cuEventRecord", C.pg_event_record(start))
	})
	if err != nil {
		return 0, err
	}
	defer d.do(func() error {
		C.pg_event_destroy(start)
		C.pg_event_destroy(end)
		return nil
	})
	if err := fn(); err != nil {
		return 0, err
	}
	var ms C.float
	err = d.do(func() error {
		if err := check("cuEventRecord", C.pg_event_record(end)); err != nil {
			return err
		}
		if err := check("cuEventSynchronize", C.pg_event_synchronize(end)); err != nil {
			return err
		}
		return check("cuEventElapsedTime", C.pg_event_elapsed(&ms, start, end))
	})
	return time.Duration(float64(ms) * float64(time.Millisecond)), err
}
