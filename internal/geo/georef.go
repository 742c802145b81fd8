package geo

import "math"

// Georef says where a model built in a local frame lies: model x is
// easting - Origin.Easting, model -z is northing - Origin.Northing, y is up,
// all in metres of CRS (grid metres, which are ground metres times the
// scale factor, within 0.04 % in a UTM zone). It goes into the glTF
// asset's extras and the statistics, so a GIS tool can place the model.
type Georef struct {
	CRS    CRSRef `json:"crs"`
	Origin Origin `json:"origin"`
	Axes   string `json:"axes"`
	// SourceCRS is what the input was given in, when it differs from CRS.
	SourceCRS *CRSRef `json:"source_crs,omitempty"`
}

// CRSRef names a CRS as GIS tools look it up.
type CRSRef struct {
	EPSG int    `json:"epsg"`
	Name string `json:"name"`
}

// Origin is the model's (0, 0, 0): its projected coordinates, its
// longitude and latitude, and the projection's local distortion there, for
// tools that place models in a local east-north-up frame instead (Cesium).
type Origin struct {
	Easting  float64 `json:"easting"`
	Northing float64 `json:"northing"`
	Lon      float64 `json:"lon"`
	Lat      float64 `json:"lat"`
	// ScaleFactor is grid metres per ground metre at the origin.
	ScaleFactor float64 `json:"scale_factor"`
	// TrueNorth is the direction of true north at the origin in degrees
	// clockwise from grid north (+northing); minus the meridian convergence.
	TrueNorth float64 `json:"true_north_deg"`
}

// Axes is how model axes map to the CRS, as Georef.Axes says it.
const Axes = "x = easting - origin.easting, -z = northing - origin.northing, y = up; metres"

// Ref is c's name for a Georef.
func (c CRS) Ref() CRSRef { return CRSRef{EPSG: c.EPSG, Name: c.Name} }

// OriginAt describes the point (e, n) of projected CRS c.
func (c CRS) OriginAt(e, n float64) Origin {
	lon, lat := c.ToLonLat(e, n)
	k, north := c.distortion(lon, lat)
	return Origin{Easting: e, Northing: n, Lon: lon, Lat: lat, ScaleFactor: k, TrueNorth: north}
}

// distortion measures c's projection of a short meridian arc through a
// point: its length against the ellipsoid's (the scale factor, conformal
// so the same in every direction) and its direction.
func (c CRS) distortion(lon, lat float64) (k, north float64) {
	const d = 1e-5 // degrees: about a metre, where the second order is 1e-13
	el := WGS84
	if c.Datum == "ETRS89" {
		el = GRS80
	}
	p := c.Projector()
	e0, n0 := p(lon, lat-d)
	e1, n1 := p(lon, lat+d)
	e2 := el.F * (2 - el.F)
	s := math.Sin(lat * math.Pi / 180)
	m := el.A * (1 - e2) / math.Pow(1-e2*s*s, 1.5) // meridian radius of curvature
	k = math.Hypot(e1-e0, n1-n0) / (m * 2 * d * math.Pi / 180)
	return k, math.Atan2(e1-e0, n1-n0) * 180 / math.Pi
}
