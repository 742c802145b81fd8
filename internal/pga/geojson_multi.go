package pga

import (
	"encoding/json"
	"fmt"
)

// multiPolygonLots is a lot per part of a MultiPolygon feature, as
// OpenStreetMap exports write a building of several blocks or a relation
// with several outer rings: each part, with its holes, is a lot of its own
// with the feature's properties, its id the feature's with "#k" for part k
// (from 1), so that errors and reports tell the parts apart.
func multiPolygonLots(base Lot, coords json.RawMessage, props map[string]any) ([]Lot, error) {
	var parts [][][][]float64
	if err := json.Unmarshal(coords, &parts); err != nil {
		return nil, fmt.Errorf("multipolygon coordinates: want [[[[x, y], ...]]] numbers in metres")
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("multipolygon has no polygon")
	}
	lots := make([]Lot, 0, len(parts))
	for k, rings := range parts {
		l := base
		l.ID = fmt.Sprintf("%s#%d", base.ID, k+1)
		if err := polygonLot(&l, rings, props); err != nil {
			return nil, fmt.Errorf("part %d: %w", k+1, err)
		}
		lots = append(lots, l)
	}
	return lots, nil
}
