// Part of pga.cu (included there, after its defines): rigid transforms as Mat4 in mat.go, Go's Min and Max.
#pragma once

// ---- Transforms: 3x4 rows of a rigid 4x4, multiplied as Mat4.Mul does ----

// r = a·b, summing k = 0..3 in order as Go does (b's fourth row is 0 0 0 1).
__device__ void mat_mul(const double *a, const double *b, double *r) {
	double t[12];
#pragma unroll
	for (int i = 0; i < 3; i++) {
#pragma unroll
		for (int j = 0; j < 4; j++) {
			double s = a[i * 4] * b[j];
			s = s + a[i * 4 + 1] * b[4 + j];
			s = s + a[i * 4 + 2] * b[8 + j];
			s = s + a[i * 4 + 3] * (j == 3 ? 1.0 : 0.0);
			t[i * 4 + j] = s;
		}
	}
#pragma unroll
	for (int k = 0; k < 12; k++) r[k] = t[k];
}

__device__ void mat_ident(double *m) {
#pragma unroll
	for (int k = 0; k < 12; k++) m[k] = (k % 5 == 0) ? 1.0 : 0.0;
}

__device__ void mat_translation(double x, double y, double z, double *m) {
	mat_ident(m);
	m[3] = x;
	m[7] = y;
	m[11] = z;
}

// sincosDeg: exact at multiples of 90 degrees.
__device__ void sincos_deg(double deg, double *s, double *c) {
	double d = fmod(deg, 360.0);
	if (d < 0) d += 360;
	if (d == 0) { *s = 0; *c = 1; return; }
	if (d == 90) { *s = 1; *c = 0; return; }
	if (d == 180) { *s = 0; *c = -1; return; }
	if (d == 270) { *s = -1; *c = 0; return; }
	sincos(d * 3.141592653589793 / 180, s, c);
}

__device__ void mat_rot(int axis, double deg, double *m) {
	double s, c;
	sincos_deg(deg, &s, &c);
	mat_ident(m);
	if (axis == 0) { m[5] = c; m[6] = -s; m[9] = s; m[10] = c; }
	else if (axis == 1) { m[0] = c; m[2] = s; m[8] = -s; m[10] = c; }
	else { m[0] = c; m[1] = -s; m[4] = s; m[5] = c; }
}

// Rotation(x, y, z) = RotationZ(z)·RotationY(y)·RotationX(x), as mat.go.
__device__ void mat_rotation(double x, double y, double z, double *m) {
	double a[12], b[12];
	mat_rot(2, z, m);
	mat_rot(1, y, a);
	mat_mul(m, a, m);
	mat_rot(0, x, b);
	mat_mul(m, b, m);
}

// Go's math.Min and math.Max: NaN wins.
__device__ __forceinline__ double fmin_go(double a, double b) {
	if (isnan(a) || isnan(b)) return __longlong_as_double(0x7ff8000000000000ll);
	return a < b ? a : b;
}
__device__ __forceinline__ double fmax_go(double a, double b) {
	if (isnan(a) || isnan(b)) return __longlong_as_double(0x7ff8000000000000ll);
	return a > b ? a : b;
}

