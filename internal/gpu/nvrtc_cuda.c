//go:build cuda

// Function pointers into libnvrtc, resolved once by pg_nvrtc_open.
#include "nvrtc_cuda.h"

#include <dlfcn.h>
#include <stdio.h>

static pg_nvrtc_result (*p_nvrtcVersion)(int *, int *);
static pg_nvrtc_result (*p_nvrtcCreateProgram)(pg_nvrtc_program *, const char *, const char *, int,
					       const char *const *, const char *const *);
static pg_nvrtc_result (*p_nvrtcCompileProgram)(pg_nvrtc_program, int, const char *const *);
static pg_nvrtc_result (*p_nvrtcGetPTXSize)(pg_nvrtc_program, size_t *);
static pg_nvrtc_result (*p_nvrtcGetPTX)(pg_nvrtc_program, char *);
static pg_nvrtc_result (*p_nvrtcGetProgramLogSize)(pg_nvrtc_program, size_t *);
static pg_nvrtc_result (*p_nvrtcGetProgramLog)(pg_nvrtc_program, char *);
static pg_nvrtc_result (*p_nvrtcDestroyProgram)(pg_nvrtc_program *);
static const char *(*p_nvrtcGetErrorString)(pg_nvrtc_result);

static void *lib;

// Every pointer is set only after all symbols resolved, so a half-bound
// library never leaves callable pointers behind (CALL checks them).
#define RESOLVE(var, sym)                                                        \
	void *var = dlsym(h, sym);                                               \
	if (!var) {                                                              \
		snprintf(err, errlen, "%s lacks %s (not an NVRTC library?)", path, sym); \
		dlclose(h);                                                      \
		return 2;                                                        \
	}

int pg_nvrtc_open(const char *path, char *err, int errlen) {
	if (lib) return 0;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen failed");
		return 1;
	}
	RESOLVE(version, "nvrtcVersion");
	RESOLVE(create, "nvrtcCreateProgram");
	RESOLVE(compile, "nvrtcCompileProgram");
	RESOLVE(ptx_size, "nvrtcGetPTXSize");
	RESOLVE(ptx, "nvrtcGetPTX");
	RESOLVE(log_size, "nvrtcGetProgramLogSize");
	RESOLVE(log, "nvrtcGetProgramLog");
	RESOLVE(destroy, "nvrtcDestroyProgram");
	RESOLVE(error_string, "nvrtcGetErrorString");
	*(void **)(&p_nvrtcVersion) = version;
	*(void **)(&p_nvrtcCreateProgram) = create;
	*(void **)(&p_nvrtcCompileProgram) = compile;
	*(void **)(&p_nvrtcGetPTXSize) = ptx_size;
	*(void **)(&p_nvrtcGetPTX) = ptx;
	*(void **)(&p_nvrtcGetProgramLogSize) = log_size;
	*(void **)(&p_nvrtcGetProgramLog) = log;
	*(void **)(&p_nvrtcDestroyProgram) = destroy;
	*(void **)(&p_nvrtcGetErrorString) = error_string;
	lib = h;
	return 0;
}

#define CALL(fn, ...) ((fn) ? (fn)(__VA_ARGS__) : PG_NVRTC_ERROR_NOT_LOADED)

pg_nvrtc_result pg_nvrtc_version(int *major, int *minor) { return CALL(p_nvrtcVersion, major, minor); }
pg_nvrtc_result pg_nvrtc_create(pg_nvrtc_program *p, const char *src, const char *name, int n,
				const char *const *headers, const char *const *include_names) {
	return CALL(p_nvrtcCreateProgram, p, src, name, n, headers, include_names);
}
pg_nvrtc_result pg_nvrtc_compile(pg_nvrtc_program p, int nopts, const char *const *opts) {
	return CALL(p_nvrtcCompileProgram, p, nopts, opts);
}
pg_nvrtc_result pg_nvrtc_ptx_size(pg_nvrtc_program p, size_t *n) { return CALL(p_nvrtcGetPTXSize, p, n); }
pg_nvrtc_result pg_nvrtc_ptx(pg_nvrtc_program p, char *ptx) { return CALL(p_nvrtcGetPTX, p, ptx); }
pg_nvrtc_result pg_nvrtc_log_size(pg_nvrtc_program p, size_t *n) { return CALL(p_nvrtcGetProgramLogSize, p, n); }
pg_nvrtc_result pg_nvrtc_log(pg_nvrtc_program p, char *log) { return CALL(p_nvrtcGetProgramLog, p, log); }
pg_nvrtc_result pg_nvrtc_destroy(pg_nvrtc_program *p) { return CALL(p_nvrtcDestroyProgram, p); }

const char *pg_nvrtc_error_string(pg_nvrtc_result r) {
	const char *s = NULL;
	if (r == PG_NVRTC_ERROR_NOT_LOADED) return "NVRTC is not loaded";
	if (p_nvrtcGetErrorString) s = p_nvrtcGetErrorString(r);
	return s ? s : "unrecognized NVRTC error code";
}
