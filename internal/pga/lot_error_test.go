package pga

import (
	"errors"
	"fmt"
	"testing"
)

// NameLots names the failing lot by its GeoJSON id in the whole message,
// keeps the chain, and leaves other errors alone.
func TestNameLots(t *testing.T) {
	lots := []Lot{{Index: 0}, {Index: 1, ID: "way/42"}}
	inner := errors.New("GABLE: no ridge")
	err := fmt.Errorf("pga: axiom 1: %w", &LotOpError{Lot: 1, Err: fmt.Errorf("Roof GABLE on the lot's polygon: %w", inner)})
	got := NameLots(err, lots)
	if want := `pga: axiom 1: lot 1 (id "way/42"): Roof GABLE on the lot's polygon: GABLE: no ridge`; got.Error() != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !errors.Is(got, inner) {
		t.Error("the renamed error lost its chain")
	}
	plain := errors.New("something else")
	if NameLots(plain, lots) != plain {
		t.Error("an error without a LotOpError was changed")
	}
	noID := fmt.Errorf("x: %w", &LotOpError{Lot: 0, Err: inner})
	if got := NameLots(noID, lots).Error(); got != "x: lot 0: GABLE: no ridge" {
		t.Errorf("lot without an id: %q", got)
	}
}
