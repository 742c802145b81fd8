package flame

// The 3D camera attributes of <flame> (camera3d.go), in both programs'
// spellings: Fractorium writes cam_persp (and reads Apophysis'
// cam_perspective), JWildfire adds cam_pos_x/y/z and gives cam_zpos another
// meaning, so its version attribute is remembered. Both write radians.

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"math"
	"strings"
)

// cameraAttr reads a camera attribute into the genome; ok is false for any
// other attribute. "version" is read here too (and stays metadata).
func (fp *flameParser) cameraAttr(a xml.Attr) (ok bool, err error) {
	c := &fp.g.Camera
	var dst *float64
	switch a.Name.Local {
	case "version":
		c.JWildfire = strings.HasPrefix(strings.TrimSpace(a.Value), "JWildfire")
		return false, nil
	case "cam_pitch":
		dst = &c.Pitch
	case "cam_yaw":
		dst = &c.Yaw
	case "cam_persp", "cam_perspective":
		dst = &c.Perspective
	case "cam_zpos":
		dst = &c.ZPos
	case "cam_dof":
		dst = &c.DOF
	case "cam_pos_x":
		dst = &c.Pos[0]
	case "cam_pos_y":
		dst = &c.Pos[1]
	case "cam_pos_z":
		dst = &c.Pos[2]
	default:
		return false, nil
	}
	v, perr := parseFloat(a.Value)
	if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) { // a NaN camera would draw nothing
		return true, fp.badValue(fp.line, a)
	}
	*dst = v
	return true, nil
}

// writeCamera writes the camera's non-zero attributes in Fractorium's
// spelling (nothing for a genome without one, so flam3's genomes are
// written as before).
func writeCamera(w *bufio.Writer, c *Camera3D, f numFormat) {
	for _, a := range []struct {
		name string
		v    float64
	}{
		{"cam_zpos", c.ZPos}, {"cam_persp", c.Perspective}, {"cam_yaw", c.Yaw}, {"cam_pitch", c.Pitch},
		{"cam_dof", c.DOF}, {"cam_pos_x", c.Pos[0]}, {"cam_pos_y", c.Pos[1]}, {"cam_pos_z", c.Pos[2]},
	} {
		if a.v != 0 {
			fmt.Fprintf(w, ` %s="%s"`, a.name, f(a.v))
		}
	}
}
