// Package geo places geographic data in a local metric frame: the
// projections procgen honours (transverse Mercator as UTM, Web Mercator)
// and the coordinate reference systems that name them. It knows nothing of
// files or lots; pga uses it to build GeoJSON lots in metres.
package geo

import "math"

// Ellipsoid is a reference ellipsoid: semi-major axis in metres and
// flattening.
type Ellipsoid struct {
	A, F float64
}

// The ellipsoids of the datums procgen honours. GRS 80 and WGS 84 differ
// only in the flattening's 11th digit (0.1 mm in the semi-minor axis), but
// the datums they belong to differ by centimetres to a metre (plate drift),
// so they are kept apart.
var (
	WGS84 = Ellipsoid{A: 6378137, F: 1 / 298.257223563}
	GRS80 = Ellipsoid{A: 6378137, F: 1 / 298.257222101}
)

// TM is a transverse Mercator projection computed with Krüger's series to
// sixth order in the third flattening n, as given by Karney (2011,
// "Transverse Mercator with an accuracy of a few nanometers", eqs. 35-36):
// within 3900 km of the central meridian its error is a few nanometres,
// far below anything a building cares about, and it needs no iteration
// except the conformal latitude's inverse (Newton, two or three steps).
type TM struct {
	e2, e  float64 // eccentricity squared, eccentricity
	k0A    float64 // scale on the central meridian times the rectifying radius
	lon0   float64 // central meridian, degrees
	fe, fn float64 // false easting and northing, metres
	alpha  [7]float64
	beta   [7]float64
}

// NewTM is the transverse Mercator on ellipsoid el with central meridian
// lon0 (degrees), scale k0 on it, and false easting and northing.
func NewTM(el Ellipsoid, lon0, k0, fe, fn float64) *TM {
	f := el.F
	n := f / (2 - f)
	n2 := n * n
	n3, n4, n5, n6 := n2*n, n2*n2, n2*n2*n, n2*n2*n2
	t := &TM{e2: f * (2 - f), lon0: lon0, fe: fe, fn: fn}
	t.e = math.Sqrt(t.e2)
	t.k0A = k0 * el.A / (1 + n) * (1 + n2/4 + n4/64 + n6/256)
	t.alpha = [7]float64{0,
		n/2 - 2*n2/3 + 5*n3/16 + 41*n4/180 - 127*n5/288 + 7891*n6/37800,
		13*n2/48 - 3*n3/5 + 557*n4/1440 + 281*n5/630 - 1983433*n6/1935360,
		61*n3/240 - 103*n4/140 + 15061*n5/26880 + 167603*n6/181440,
		49561*n4/161280 - 179*n5/168 + 6601661*n6/7257600,
		34729*n5/80640 - 3418889*n6/1995840,
		212378941 * n6 / 319334400,
	}
	t.beta = [7]float64{0,
		n/2 - 2*n2/3 + 37*n3/96 - n4/360 - 81*n5/512 + 96199*n6/604800,
		n2/48 + n3/15 - 437*n4/1440 + 46*n5/105 - 1118711*n6/3870720,
		17*n3/480 - 37*n4/840 - 209*n5/4480 + 5569*n6/90720,
		4397*n4/161280 - 11*n5/504 - 830251*n6/7257600,
		4583*n5/161280 - 108847*n6/3991680,
		20648693 * n6 / 638668800,
	}
	return t
}

// NewUTM is zone (1..60) of the Universal Transverse Mercator on el, north
// or south of the equator (south: false northing 10,000 km).
func NewUTM(el Ellipsoid, zone int, south bool) *TM {
	fn := 0.0
	if south {
		fn = 10_000_000
	}
	return NewTM(el, float64(zone)*6-183, 0.9996, 500_000, fn)
}

// UTMZone is the zone whose 6° band holds longitude lon (degrees), without
// the Norway and Svalbard exceptions of the military grid: those are
// conventions for map sheets, and any zone is a valid frame near its band.
func UTMZone(lon float64) int {
	z := int(math.Floor((normLon(lon)+180)/6)) + 1
	return min(max(z, 1), 60)
}

// normLon brings a longitude into [-180, 180).
func normLon(lon float64) float64 {
	return lon - 360*math.Floor((lon+180)/360)
}

// tauPrime is the tangent of the conformal latitude for tau = tan(latitude).
func (t *TM) tauPrime(tau float64) float64 {
	s := math.Sinh(t.e * math.Atanh(t.e*tau/math.Hypot(1, tau)))
	return tau*math.Hypot(1, s) - s*math.Hypot(1, tau)
}

// Forward projects longitude and latitude (degrees) to easting and
// northing (metres).
func (t *TM) Forward(lon, lat float64) (e, n float64) {
	lam := normLon(lon-t.lon0) * math.Pi / 180
	phi := lat * math.Pi / 180
	tp := t.tauPrime(math.Tan(phi))
	if math.Abs(lat) == 90 {
		tp = math.Copysign(math.Inf(1), lat)
	}
	cl, sl := math.Cos(lam), math.Sin(lam)
	xip := math.Atan2(tp, cl)
	etap := math.Asinh(sl / math.Hypot(tp, cl))
	xi, eta := xip, etap
	for j := 1; j <= 6; j++ {
		a := 2 * float64(j)
		xi += t.alpha[j] * math.Sin(a*xip) * math.Cosh(a*etap)
		eta += t.alpha[j] * math.Cos(a*xip) * math.Sinh(a*etap)
	}
	return t.fe + t.k0A*eta, t.fn + t.k0A*xi
}

// Inverse takes easting and northing (metres) back to longitude and
// latitude (degrees).
func (t *TM) Inverse(e, n float64) (lon, lat float64) {
	xi, eta := (n-t.fn)/t.k0A, (e-t.fe)/t.k0A
	xip, etap := xi, eta
	for j := 1; j <= 6; j++ {
		a := 2 * float64(j)
		xip -= t.beta[j] * math.Sin(a*xi) * math.Cosh(a*eta)
		etap -= t.beta[j] * math.Cos(a*xi) * math.Sinh(a*eta)
	}
	se, cx := math.Sinh(etap), math.Cos(xip)
	tp := math.Sin(xip) / math.Hypot(se, cx)
	lam := math.Atan2(se, cx)
	// Newton on tau'(tau) = tp (Karney's eqs. 19-21): the derivative is
	// sqrt(1+tau'^2) (1-e^2) sqrt(1+tau^2) / (1+(1-e^2) tau^2).
	tau := tp / (1 - t.e2) // a start within 1e-3 relative everywhere
	for i := 0; i < 8; i++ {
		ti := t.tauPrime(tau)
		d := (tp - ti) / math.Hypot(1, ti) * (1 + (1-t.e2)*tau*tau) / ((1 - t.e2) * math.Hypot(1, tau))
		tau += d
		if math.Abs(d) <= 1e-15*math.Max(1, math.Abs(tau)) {
			break
		}
	}
	return normLon(t.lon0 + lam*180/math.Pi), math.Atan(tau) * 180 / math.Pi
}

// webMercatorR is the sphere's radius of EPSG:3857 (the WGS 84 semi-major
// axis): Web Mercator puts ellipsoidal coordinates on a sphere, which is
// why its metres are not ground metres (1/cos(latitude) too long).
const webMercatorR = 6378137.0

// webMercatorInverse takes EPSG:3857 x, y (metres) to longitude and
// latitude (degrees) on WGS 84.
func webMercatorInverse(x, y float64) (lon, lat float64) {
	lon = x / webMercatorR * 180 / math.Pi
	lat = (2*math.Atan(math.Exp(y/webMercatorR)) - math.Pi/2) * 180 / math.Pi
	return lon, lat
}

// webMercatorForward is webMercatorInverse's inverse.
func webMercatorForward(lon, lat float64) (x, y float64) {
	phi := lat * math.Pi / 180
	return webMercatorR * lon * math.Pi / 180, webMercatorR * math.Log(math.Tan(math.Pi/4+phi/2))
}
