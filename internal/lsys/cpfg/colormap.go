package cpfg

import "fmt"

// MapColors is the number of colours in a cpfg colour map.
const MapColors = 256

// MapBytes is the size of a cpfg colour map file: 256 colours of three
// bytes, red, green and blue (0..255), colour index 0 first, and nothing
// else (no header), as cpfg and lpfg read and write .map files.
const MapBytes = 3 * MapColors

// ReadColorMap reads a cpfg .map colour map. cpfg reads one with fread and
// no check; a file of another size is refused here, since it is not one
// (a text colour list, say) and would be misread silently. Colours are
// returned in 0..1.
func ReadColorMap(name string, data []byte) ([][3]float64, error) {
	if len(data) != MapBytes {
		return nil, fmt.Errorf("%s: %d bytes: a cpfg colour map (.map) is %d bytes, 256 colours of R G B bytes "+
			"(a text list of \"R G B\" lines must not be named .map)", name, len(data), MapBytes)
	}
	out := make([][3]float64, MapColors)
	for i := range out {
		for k := range 3 {
			out[i][k] = float64(data[3*i+k]) / 255
		}
	}
	return out, nil
}
