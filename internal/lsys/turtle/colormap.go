package turtle

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// ParseColorMap reads a colour map: colour index i is the i-th colour line
// (from 0). A colour line is three integers 0..255 separated by spaces or
// tabs ("34 139 34") or a hex triplet ("#228b22"); "//" starts a comment,
// and blank lines count for nothing. At most maxColor+1 colours. Errors name
// name:line:col. Colours are returned in 0..1, the meshes' scale.
//
// cpfg's binary .map files are read by internal/lsys/cpfg.
func ParseColorMap(name string, data []byte) ([][3]float64, error) {
	var out [][3]float64
	for ln, line := range bytes.Split(data, []byte("\n")) {
		if i := bytes.Index(line, []byte("//")); i >= 0 {
			line = line[:i]
		}
		text := strings.TrimRight(string(line), " \t\r")
		col := len(text) - len(strings.TrimLeft(text, " \t")) + 1
		text = strings.TrimLeft(text, " \t")
		if text == "" {
			continue
		}
		if len(out) > maxColor {
			return nil, fmt.Errorf("%s:%d:%d: more than %d colours", name, ln+1, col, maxColor+1)
		}
		c, at, err := colorLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d:%d: %w", name, ln+1, col+at, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no colours (want lines of \"R G B\", 0..255, or \"#rrggbb\")", name)
	}
	return out, nil
}

// colorLine parses one colour; at is the column offset of an error.
func colorLine(text string) (c [3]float64, at int, err error) {
	if strings.HasPrefix(text, "#") {
		if len(text) != 7 {
			return c, 0, fmt.Errorf("colour %q: want #rrggbb", text)
		}
		for k := range 3 {
			v, err := strconv.ParseUint(text[1+2*k:3+2*k], 16, 8)
			if err != nil {
				return c, 1 + 2*k, fmt.Errorf("colour %q: %q is not a hex byte", text, text[1+2*k:3+2*k])
			}
			c[k] = float64(v) / 255
		}
		return c, 0, nil
	}
	k, i := 0, 0
	for i < len(text) {
		j := i
		for j < len(text) && text[j] != ' ' && text[j] != '\t' {
			j++
		}
		if k == 3 {
			return c, i, fmt.Errorf("unexpected %q after the colour's three values", text[i:j])
		}
		v, err := strconv.ParseUint(text[i:j], 10, 8)
		if err != nil {
			return c, i, fmt.Errorf("%q: want an integer 0..255", text[i:j])
		}
		c[k] = float64(v) / 255
		k++
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		i = j
	}
	if k < 3 {
		return c, len(text), fmt.Errorf("want three values R G B, got %d", k)
	}
	return c, 0, nil
}
