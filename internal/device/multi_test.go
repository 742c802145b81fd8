package device

import (
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
