package shard

import (
	"reflect"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules"
)

// Every item belongs to exactly one of the N shards.
func TestPartition(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		for k := 0; k < 50; k++ {
			owners := 0
			for i := 0; i < n; i++ {
				if (Shard{Index: i, Count: n}).Owns(k) {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("item %d of %d shards: %d owners", k, n, owners)
			}
		}
	}
	times, numbers := Frames([]float64{0, 0.5, 1, 1.5, 2}, []int{0, 1, 2, 3, 4}, Shard{Index: 1, Count: 2})
	if len(times) != 2 || times[1] != 1.5 || numbers[0] != 1 || numbers[1] != 3 {
		t.Fatalf("frames of shard 1/2: %v %v", times, numbers)
	}
	own := Owned(Shard{Index: 2, Count: 3}, []string{"a", "b", "c", "d", "e", "f"}, func(s string) int { return int(s[0] - 'a') })
	if !reflect.DeepEqual(own, []string{"c", "f"}) {
		t.Fatalf("items of shard 2/3: %v", own)
	}
}

// The ranges tile 0..n in shard order, and differ in size by at most one.
func TestRange(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 11, 1000} {
		for _, c := range []int{1, 2, 3, 4, 7, 64} {
			next := 0
			for i := 0; i < c; i++ {
				lo, hi := Range(n, Shard{Index: i, Count: c})
				if lo != next || hi < lo || hi-lo > n/c+1 {
					t.Fatalf("%d states, shard %d/%d: [%d, %d) after %d", n, i, c, lo, hi, next)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("%d states over %d shards end at %d", n, c, next)
			}
		}
	}
	st := &rules.States{N: 5, Words: 2, Data: []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
	if got := RulesStates(st, Shard{Index: 1, Count: 2}); got.N != 3 || !reflect.DeepEqual(got.Data, []uint32{4, 5, 6, 7, 8, 9}) {
		t.Fatalf("states of shard 1/2: %+v", got)
	}
}

// A part's path takes exactly one verb for the shard index.
func TestPartPath(t *testing.T) {
	sh := Shard{Index: 3, Count: 4}
	for _, tc := range []struct {
		pattern, want string
	}{
		{"final.%03d.csv", "final.003.csv"},
		{"part-%d.csv", "part-3.csv"},
		{"final.csv", ""},
		{"final.%%.csv", ""},
		{"a%d.%d.csv", ""},
		{"final.%s.csv", ""},
	} {
		got, ok := PartPath(tc.pattern, sh)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("PartPath(%q) = %q, %v; want %q", tc.pattern, got, ok, tc.want)
		}
	}
}
