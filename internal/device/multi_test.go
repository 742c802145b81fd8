package device

import (
	"io"
	"reflect"
	"testing"
)

func TestParseDevices(t *testing.T) {
	for _, tc := range []struct {
		spec string
		all  bool
		ords []int
		bad  bool
	}{
		{spec: "all", all: true},
		{spec: "0", ords: []int{0}},
		{spec: "0,1", ords: []int{0, 1}},
		{spec: " 3 , 1 ", ords: []int{3, 1}},
		{spec: "", bad: true},
		{spec: "0,0", bad: true},
		{spec: "-1", bad: true},
		{spec: "64", bad: true},
		{spec: "1,x", bad: true},
		{spec: "ALL", bad: true},
	} {
		all, ords, err := ParseDevices(tc.spec)
		if (err != nil) != tc.bad || all != tc.all || !reflect.DeepEqual(ords, tc.ords) {
			t.Errorf("ParseDevices(%q) = %v, %v, %v", tc.spec, all, ords, err)
		}
	}
}

// On the CPU, OpenAllFor opens nothing and its release is safe to call.
func TestOpenAllForCPU(t *testing.T) {
	p := New(Settings{Device: "cpu", Devices: "all"}, &testLog{w: io.Discard})
	devs, release, err := p.OpenAllFor("flame", 1e12)
	if err != nil || len(devs) != 0 || First(devs) != nil {
		t.Fatalf("OpenAllFor on the CPU: %v, %v", devs, err)
	}
	release()
}
