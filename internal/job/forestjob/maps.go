package forestjob

import (
	"fmt"
	"io"

	"github.com/procgen-dev/procgen/internal/forest"
)

// heatOptions are layer l's heat map options: its title, its parents as
// dots when stems is set (--stems), and why it is empty when it is.
func (r *run) heatOptions(l int, label string, stems bool) forest.HeatMapOptions {
	o := forest.HeatMapOptions{Title: label}
	total := l >= len(r.res.Species)
	if stems {
		for _, t := range r.trees {
			if (total || t.Species == l) && t.DBH >= r.res.Species[t.Species].MinDBH {
				o.Stems = append(o.Stems, t)
			}
		}
	}
	layer := r.layers[l]
	switch {
	case layer.Parents > 0 && layer.Produced > 0:
	case total && len(r.trees) == 0:
		o.Empty = "no stems on the plot"
	case total && layer.Parents == 0:
		o.Empty = "no parent at or above its species' min_dbh"
	case total:
		o.Empty = "the parents produce no seeds (str 0)"
	case r.stemsPerLayer[l] == 0:
		o.Empty = "no stems of this species on the plot"
	case layer.Parents == 0:
		o.Empty = fmt.Sprintf("no parent at or above min_dbh %g cm (%d smaller stems)", r.res.Species[l].MinDBH,
			r.stemsPerLayer[l])
	default:
		o.Empty = "str is 0: the parents produce no seeds"
	}
	return o
}

// gisJobs adds layer l's GIS files: NAME.tif (a float32 GeoTIFF) with the
// "tif" format, and NAME.prj beside NAME.asc when a CRS is named (epsg > 0,
// --crs EPSG:CODE).
func (r *run) gisJobs(put func(name string, write func(w io.Writer) error), l int, name string, epsg int) {
	if r.p.outs["tif"] {
		put(name+".tif", func(w io.Writer) error {
			return forest.WriteGeoTIFF(w, r.grid, r.layers[l].Density, epsg)
		})
	}
	if r.p.outs["asc"] && epsg > 0 {
		put(name+".prj", func(w io.Writer) error {
			prj, err := forest.PRJ(epsg)
			if err != nil {
				return err
			}
			_, err = io.WriteString(w, prj)
			return err
		})
	}
}
