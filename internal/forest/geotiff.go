package forest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// GIS outputs: a GeoTIFF (single-band float32, north up, with the GeoKeys
// GDAL, QGIS and R's terra read) and the .prj beside an .asc. A small writer
// of our own: the format's baseline is a dozen tags, and no well-kept pure-Go
// GeoTIFF library writes float32 bands with GeoKeys.

// ParseCRS parses "EPSG:32617" (or a bare code) into an EPSG code for a
// projected CRS in metres, the grid's units. 0 and "" mean none.
func ParseCRS(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	code := strings.TrimPrefix(strings.TrimPrefix(s, "EPSG:"), "epsg:")
	n, err := strconv.Atoi(code)
	if err != nil || n <= 0 || n > 999999 {
		return 0, fmt.Errorf("invalid CRS %q: want EPSG:CODE, e.g. EPSG:32617 (WGS 84 / UTM zone 17N)", s)
	}
	if n >= 4000 && n < 5000 {
		return 0, fmt.Errorf("CRS %q is a geographic one (degrees): the grid is in metres; give the projected CRS "+
			"of the stem coordinates, e.g. a UTM zone (EPSG:326ZZ north, EPSG:327ZZ south)", s)
	}
	return n, nil
}

// GeoTIFF tags and GeoKeys.
const (
	tiffShort  = 3
	tiffLong   = 4
	tiffDouble = 12

	geoKeyModelType       = 1024
	geoKeyRasterType      = 1025
	geoKeyProjectedCSType = 3072
	geoKeyProjLinearUnits = 3076
	geoModelProjected     = 1
	geoRasterPixelIsArea  = 1
	geoUserDefined        = 32767
	epsgMetre             = 9001
)

// WriteGeoTIFF writes values on g as a single-band float32 GeoTIFF, rows
// from north to south, the corner of cell (0, NY-1) tied to (X0, Y0 + NY
// cell). epsg > 0 names the projected CRS; 0 leaves it user-defined (metres).
func WriteGeoTIFF(w io.Writer, g Grid, values []float64, epsg int) error {
	if len(values) != g.Cells() {
		return fmt.Errorf("forest: geotiff: %d values for a %dx%d grid", len(values), g.NX, g.NY)
	}
	if int64(g.Cells())*4 > math.MaxUint32-1<<20 {
		return fmt.Errorf("forest: geotiff: %dx%d cells exceed a classic TIFF's 4 GiB", g.NX, g.NY)
	}
	rowBytes := 4 * g.NX
	rps := max(1, (64<<10)/rowBytes) // strips of about 64 KiB
	strips := (g.NY + rps - 1) / rps
	cs := geoUserDefined
	if epsg > 0 {
		cs = epsg
	}
	geoKeys := []uint16{1, 1, 0, 4,
		geoKeyModelType, 0, 1, geoModelProjected,
		geoKeyRasterType, 0, 1, geoRasterPixelIsArea,
		geoKeyProjectedCSType, 0, 1, uint16(cs),
		geoKeyProjLinearUnits, 0, 1, epsgMetre,
	}
	if cs > math.MaxUint16 {
		return fmt.Errorf("forest: geotiff: EPSG code %d does not fit a GeoKey", cs)
	}
	type entry struct {
		tag, typ uint16
		count    uint32
		data     []byte // inline when at most 4 bytes
	}
	le := binary.LittleEndian
	shorts := func(v ...uint16) []byte {
		b := make([]byte, 2*len(v))
		for i, x := range v {
			le.PutUint16(b[2*i:], x)
		}
		return b
	}
	longs := func(v ...uint32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			le.PutUint32(b[4*i:], x)
		}
		return b
	}
	doubles := func(v ...float64) []byte {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			le.PutUint64(b[8*i:], math.Float64bits(x))
		}
		return b
	}
	offsets, counts := make([]uint32, strips), make([]uint32, strips)
	entries := []entry{
		{256, tiffLong, 1, longs(uint32(g.NX))},
		{257, tiffLong, 1, longs(uint32(g.NY))},
		{258, tiffShort, 1, shorts(32)},
		{259, tiffShort, 1, shorts(1)}, // no compression
		{262, tiffShort, 1, shorts(1)}, // black is zero
		{273, tiffLong, uint32(strips), nil},
		{277, tiffShort, 1, shorts(1)},
		{278, tiffLong, 1, longs(uint32(rps))},
		{279, tiffLong, uint32(strips), nil},
		{284, tiffShort, 1, shorts(1)}, // chunky
		{339, tiffShort, 1, shorts(3)}, // IEEE floating point
		{33550, tiffDouble, 3, doubles(g.Cell, g.Cell, 0)},
		{33922, tiffDouble, 6, doubles(0, 0, 0, g.X0, g.Y0+float64(g.NY)*g.Cell, 0)},
		{34735, tiffShort, uint32(len(geoKeys)), shorts(geoKeys...)},
	}
	// Layout: header, IFD, out-of-line values, strips.
	ifdSize := 2 + 12*len(entries) + 4
	pos := uint32(8 + ifdSize)
	extra := map[int]uint32{}
	sizeOf := func(e entry) uint32 {
		if e.tag == 273 || e.tag == 279 {
			return 4 * e.count
		}
		return uint32(len(e.data))
	}
	for i, e := range entries {
		if n := sizeOf(e); n > 4 {
			extra[i] = pos
			pos += n + n%2
		}
	}
	for s := range strips {
		rows := min(rps, g.NY-s*rps)
		offsets[s], counts[s] = pos, uint32(rows*rowBytes)
		pos += counts[s]
	}
	for i := range entries {
		switch entries[i].tag {
		case 273:
			entries[i].data = longs(offsets...)
		case 279:
			entries[i].data = longs(counts...)
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write([]byte{'I', 'I', 42, 0})
	bw.Write(longs(8))
	bw.Write(shorts(uint16(len(entries))))
	for i, e := range entries {
		bw.Write(shorts(e.tag, e.typ))
		bw.Write(longs(e.count))
		if off, ok := extra[i]; ok {
			bw.Write(longs(off))
		} else {
			v := make([]byte, 4)
			copy(v, e.data)
			bw.Write(v)
		}
	}
	bw.Write(longs(0)) // no next IFD
	for i, e := range entries {
		if _, ok := extra[i]; ok {
			bw.Write(e.data)
			if len(e.data)%2 == 1 {
				bw.WriteByte(0)
			}
		}
	}
	row := make([]byte, rowBytes)
	for j := g.NY - 1; j >= 0; j-- {
		for i, v := range values[j*g.NX : (j+1)*g.NX] {
			le.PutUint32(row[4*i:], math.Float32bits(float32(v)))
		}
		if _, err := bw.Write(row); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// PRJ is the ESRI WKT of a projected CRS, for the .prj beside an .asc: the
// UTM zones of WGS 84 (EPSG 326ZZ north, 327ZZ south), ETRS89 (258ZZ) and
// NAD83 (269ZZ), where stem maps are surveyed. Other codes are an error
// (a GeoTIFF names any code).
func PRJ(epsg int) (string, error) {
	type datum struct{ gcs, datum, spheroid, a, rf string }
	wgs := datum{"GCS_WGS_1984", "D_WGS_1984", "WGS_1984", "6378137.0", "298.257223563"}
	etrs := datum{"GCS_ETRS_1989", "D_ETRS_1989", "GRS_1980", "6378137.0", "298.257222101"}
	nad := datum{"GCS_North_American_1983", "D_North_American_1983", "GRS_1980", "6378137.0", "298.257222101"}
	var d datum
	var zone int
	var south bool
	var name string
	switch {
	case epsg >= 32601 && epsg <= 32660:
		d, zone, name = wgs, epsg-32600, "WGS_1984_UTM_Zone_%dN"
	case epsg >= 32701 && epsg <= 32760:
		d, zone, south, name = wgs, epsg-32700, true, "WGS_1984_UTM_Zone_%dS"
	case epsg >= 25828 && epsg <= 25838:
		d, zone, name = etrs, epsg-25800, "ETRS_1989_UTM_Zone_%dN"
	case epsg >= 26901 && epsg <= 26923:
		d, zone, name = nad, epsg-26900, "NAD_1983_UTM_Zone_%dN"
	default:
		return "", fmt.Errorf("forest: no .prj for EPSG:%d: procgen writes the UTM zones of WGS 84 (326ZZ, 327ZZ), "+
			"ETRS89 (258ZZ) and NAD83 (269ZZ); the GeoTIFF output names any code", epsg)
	}
	northing := "0.0"
	if south {
		northing = "10000000.0"
	}
	cm := -183 + 6*zone
	return fmt.Sprintf(`PROJCS["`+name+`",GEOGCS["%s",DATUM["%s",SPHEROID["%s",%s,%s]],PRIMEM["Greenwich",0.0],`+
		`UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],`+
		`PARAMETER["False_Northing",%s],PARAMETER["Central_Meridian",%d.0],PARAMETER["Scale_Factor",0.9996],`+
		`PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]`,
		zone, d.gcs, d.datum, d.spheroid, d.a, d.rf, northing, cm), nil
}
