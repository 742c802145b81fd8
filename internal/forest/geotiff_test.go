package forest

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readTIFF is a minimal reader of what WriteGeoTIFF writes: the tags (as
// raw values) and the float32 samples, rows from the top.
func readTIFF(t *testing.T, b []byte) (map[uint16][]float64, []float32) {
	t.Helper()
	le := binary.LittleEndian
	if string(b[:4]) != "II*\x00" {
		t.Fatalf("not a little-endian TIFF: % x", b[:4])
	}
	ifd := le.Uint32(b[4:])
	n := int(le.Uint16(b[ifd:]))
	tags := map[uint16][]float64{}
	for i := 0; i < n; i++ {
		e := b[int(ifd)+2+12*i:]
		tag, typ, count := le.Uint16(e), le.Uint16(e[2:]), le.Uint32(e[4:])
		size := map[uint16]uint32{3: 2, 4: 4, 12: 8}[typ]
		data := e[8:12]
		if size*count > 4 {
			off := le.Uint32(e[8:])
			data = b[off : off+size*count]
		}
		var vals []float64
		for k := uint32(0); k < count; k++ {
			switch typ {
			case 3:
				vals = append(vals, float64(le.Uint16(data[2*k:])))
			case 4:
				vals = append(vals, float64(le.Uint32(data[4*k:])))
			case 12:
				vals = append(vals, math.Float64frombits(le.Uint64(data[8*k:])))
			}
		}
		tags[tag] = vals
	}
	var samples []float32
	for s, off := range tags[273] {
		cnt := int(tags[279][s])
		for k := 0; k < cnt; k += 4 {
			samples = append(samples, math.Float32frombits(le.Uint32(b[int(off)+k:])))
		}
	}
	return tags, samples
}

// The GeoTIFF holds the grid north up in float32 with its georeferencing;
// gdalinfo (Debian gdal-bin) reads it when installed.
func TestWriteGeoTIFF(t *testing.T) {
	g := Grid{X0: 625100, Y0: 1012300, Cell: 2.5, NX: 7, NY: 5000} // several strips
	vals := make([]float64, g.Cells())
	for i := range vals {
		vals[i] = float64(i%g.NX) + 0.001*float64(i/g.NX)
	}
	var buf bytes.Buffer
	if err := WriteGeoTIFF(&buf, g, vals, 32617); err != nil {
		t.Fatal(err)
	}
	tags, samples := readTIFF(t, buf.Bytes())
	if tags[256][0] != 7 || tags[257][0] != 5000 || tags[258][0] != 32 || tags[339][0] != 3 || tags[277][0] != 1 {
		t.Fatalf("size/type tags %v %v %v %v", tags[256], tags[257], tags[258], tags[339])
	}
	if len(tags[273]) < 2 {
		t.Errorf("%d strips, want several", len(tags[273]))
	}
	if s := tags[33550]; s[0] != 2.5 || s[1] != 2.5 {
		t.Errorf("pixel scale %v", s)
	}
	if tp := tags[33922]; tp[3] != g.X0 || tp[4] != g.Y0+5000*2.5 {
		t.Errorf("tie point %v", tp)
	}
	keys := tags[34735]
	if len(keys) != 20 || keys[12] != geoKeyProjectedCSType || keys[15] != 32617 || keys[16] != geoKeyProjLinearUnits {
		t.Errorf("geokeys %v", keys)
	}
	if len(samples) != g.Cells() {
		t.Fatalf("%d samples, want %d", len(samples), g.Cells())
	}
	// The first row of the file is the grid's northern row.
	for i, s := range samples {
		r, c := i/g.NX, i%g.NX
		if want := float32(vals[(g.NY-1-r)*g.NX+c]); s != want {
			t.Fatalf("sample %d (row %d col %d): %g, want %g", i, r, c, s, want)
		}
	}
	if _, err := exec.LookPath("gdalinfo"); err != nil {
		t.Skip("gdalinfo not installed (Debian: gdal-bin): the file was checked by the test's own reader only")
	}
	path := filepath.Join(t.TempDir(), "total.tif")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("gdalinfo", "-stats", path).CombinedOutput()
	if err != nil {
		t.Fatalf("gdalinfo: %v\n%s", err, out)
	}
	for _, want := range []string{"Driver: GTiff/GeoTIFF", "Size is 7, 5000", "UTM zone 17N",
		"Origin = (625100.000000000000000,1024800.000000000000000)", "Pixel Size = (2.500000000000000,-2.500000000000000)",
		"Type=Float32", "Minimum=0.000, Maximum=10.999"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("gdalinfo output lacks %q:\n%s", want, out)
		}
	}
}

func TestParseCRSAndPRJ(t *testing.T) {
	for s, want := range map[string]int{"": 0, "EPSG:32617": 32617, "epsg:25832": 25832, "26910": 26910} {
		if got, err := ParseCRS(s); err != nil || got != want {
			t.Errorf("ParseCRS(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, bad := range []string{"EPSG:4326", "UTM17", "EPSG:-3"} {
		if _, err := ParseCRS(bad); err == nil {
			t.Errorf("ParseCRS(%q) accepted", bad)
		}
	}
	for code, want := range map[int][]string{
		32617: {`PROJCS["WGS_1984_UTM_Zone_17N"`, `"Central_Meridian",-81.0]`, `"False_Northing",0.0]`},
		32733: {`PROJCS["WGS_1984_UTM_Zone_33S"`, `"Central_Meridian",15.0]`, `"False_Northing",10000000.0]`},
		25832: {`ETRS_1989_UTM_Zone_32N`, `"GRS_1980",6378137.0,298.257222101`, `"Central_Meridian",9.0]`},
		26910: {`NAD_1983_UTM_Zone_10N`, `"Central_Meridian",-123.0]`},
	} {
		p, err := PRJ(code)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(p, w) {
				t.Errorf("EPSG:%d: .prj %s lacks %s", code, p, w)
			}
		}
	}
	if _, err := PRJ(3857); err == nil {
		t.Error("PRJ(3857) accepted")
	}
	if _, err := exec.LookPath("gdalsrsinfo"); err != nil {
		t.Skip("gdalsrsinfo not installed (Debian: gdal-bin)")
	}
	for code, want := range map[int]string{32617: "+proj=utm +zone=17 +datum=WGS84", 32733: "+proj=utm +zone=33 +south",
		25832: "+proj=utm +zone=32 +ellps=GRS80", 26910: "+proj=utm +zone=10"} {
		p, _ := PRJ(code)
		path := filepath.Join(t.TempDir(), "a.prj")
		if err := os.WriteFile(path, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("gdalsrsinfo", "-o", "proj4", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("EPSG:%d: gdalsrsinfo says %q (%v), want %q", code, out, err, want)
		}
	}
}
