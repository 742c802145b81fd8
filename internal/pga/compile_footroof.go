package pga

import (
	"errors"
	"fmt"
	"slices"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// footprintRoofs builds, for every footprint of the device's profiles that
// may take one (the lots', and the pieces cut from them) and every roof kind in kinds (those
// a shape on a lot's polygon may take, by the position of the first Roof
// of each kind), the roof roofOn would build on it at its size (polyRoof:
// its corners at unit slope and its faces), into the device's tables: the
// device's Roof takes the height at unit slope from there, its meshes the
// corners and faces. A roof that cannot be built on some footprint (a
// GABLE round a courtyard) makes the grammar the CPU's, whose error names
// the lot and the reason.
func (p *program) footprintRoofs(w *hostWork, g *Grammar, kinds [Pyramid + 1]string, splits bool) error {
	type foot struct {
		k     int
		kinds uint8 // 1 << RoofKind of each kind to build
		cutFootprint
	}
	var every uint8
	for k := Gable; k <= Pyramid; k++ {
		if kinds[k] != "" {
			every |= 1 << k
		}
	}
	var fps []foot
	for k := 1; k < len(p.profiles); k++ {
		// With cuts, the flow of cutReach says which views of the lots and
		// pieces which Roofs may take; without, every lot's may take any.
		want := p.roofed[int32(k)] & every
		if p.nlotprof == 0 && g.footprintOf(int32(k)) != nil {
			want = every
		}
		if want != 0 {
			fps = append(fps, foot{k, want, p.footAt(g, int32(k))})
		}
	}
	if len(fps) == 0 {
		return nil
	}
	// The skeletons on every core, one footprint a task.
	roofs := make([][Pyramid]*polyRoof, len(fps))
	faces := make([][Pyramid]roofFaces, len(fps))
	errs := make([]error, len(fps))
	w.more(len(fps))
	parallel.For(len(fps), 16, func(_, lo, hi int) {
		for i := lo; i < hi && w.stopped() == nil; i++ {
			w.step()
			f := fps[i]
			for k := Gable; k <= Pyramid; k++ {
				if f.kinds&(1<<k) == 0 {
					continue
				}
				r, err := footprintRoof(f.fp, k, f.size[0], f.size[1])
				if err != nil {
					//lint:ignore ST1005 Roof is the grammar operation's name
					errs[i] = fmt.Errorf("Roof %s at %s on %s's polygon: %w", k, kinds[k], f.lot, err)
					break
				}
				roofs[i][k-1] = r
				if splits {
					if faces[i][k-1], err = footRoofFaces(g, r, f.fp, k, f.lot); err != nil {
						errs[i] = err
						break
					}
				}
			}
		}
	})
	if err := w.stopped(); err != nil {
		return err
	}
	p.growFootRoofs(roofs)
	for i, f := range fps {
		var ue *UnsupportedError
		if errors.As(errs[i], &ue) {
			return ue
		}
		if errs[i] != nil {
			return &UnsupportedError{What: fmt.Sprintf("a roof that cannot be built (%v; the CPU reports it where a shape takes it)", errs[i])}
		}
		p.profiles[f.k].Roofs = int32(len(p.froof))
		for kind := range roofs[i] {
			e := gpuFootRoof{SX: f.size[0], SY: f.size[1], NAt: -1, NPart: -1}
			if r := roofs[i][kind]; r != nil {
				if err := p.addFootRoof(&e, r); err != nil {
					return err
				}
				if splits {
					p.addRoofFaces(g, &e, r, faces[i][kind])
				}
			}
			p.froof = append(p.froof, e)
		}
	}
	return nil
}

// addFootRoof appends r's corners and faces to the tables and fills in e.
func (p *program) addFootRoof(e *gpuFootRoof, r *polyRoof) error {
	e.Top, e.NAt, e.At = r.top(), int32(len(r.at)), int32(len(p.rpts)/3)
	for i, a := range r.at {
		p.rpts = append(p.rpts, a[0], a[1], r.h[i])
	}
	e.NFace, e.Face = int32(len(r.faces)), int32(len(p.poly))
	at := len(p.poly) + len(r.faces) + 1
	for _, f := range r.faces {
		if len(f) > gpuMaxProfile {
			return &UnsupportedError{What: fmt.Sprintf("a roof face of %d corners on a lot's own polygon (at most %d)", len(f), gpuMaxProfile)}
		}
		p.poly = append(p.poly, int32(at))
		at += len(f)
	}
	p.poly = append(p.poly, int32(at))
	for _, f := range r.faces {
		for _, c := range f {
			p.poly = append(p.poly, int32(c))
		}
	}
	return nil
}

// growFootRoofs makes room in the tables for roofs' corners and faces at
// once, rather than growing them roof by roof.
func (p *program) growFootRoofs(roofs [][Pyramid]*polyRoof) {
	nat, npoly := 0, 0
	for _, rs := range roofs {
		for _, r := range rs {
			if r == nil {
				continue
			}
			nat += len(r.at)
			npoly += len(r.faces) + 1
			for _, f := range r.faces {
				npoly += len(f)
			}
		}
	}
	p.rpts = slices.Grow(p.rpts, 3*nat)
	p.poly = slices.Grow(p.poly, npoly)
	p.froof = slices.Grow(p.froof, len(roofs)*int(Pyramid))
}
