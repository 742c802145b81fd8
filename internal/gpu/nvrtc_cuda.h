//go:build cuda

// The slice of NVRTC (CUDA's run-time compiler) procgen uses, declared here
// rather than taken from nvrtc.h, which users' machines usually lack: the
// library is dlopen'ed at run time like libcuda.so.1 (see driver_cuda.h).
// Values match nvrtc.h (CUDA 11.2+).
#ifndef PROCGEN_NVRTC_CUDA_H
#define PROCGEN_NVRTC_CUDA_H

#include <stddef.h>

typedef int pg_nvrtc_result;     // nvrtcResult
typedef void *pg_nvrtc_program;  // nvrtcProgram

enum {
	PG_NVRTC_SUCCESS = 0,
	PG_NVRTC_ERROR_COMPILATION = 6,
	// Our own code for a call made before a library is loaded.
	PG_NVRTC_ERROR_NOT_LOADED = -1,
};

// pg_nvrtc_open dlopens path (a file path or a bare name for the normal
// search) and resolves every entry point. Returns 0 on success, 1 when dlopen
// fails, 2 when the library lacks a symbol (it is closed again); on failure
// the reason is written into err.
int pg_nvrtc_open(const char *path, char *err, int errlen);

pg_nvrtc_result pg_nvrtc_version(int *major, int *minor);
// headers and include_names are arrays of n NUL-terminated strings (NULL when n is 0).
pg_nvrtc_result pg_nvrtc_create(pg_nvrtc_program *p, const char *src, const char *name, int n,
				const char *const *headers, const char *const *include_names);
pg_nvrtc_result pg_nvrtc_compile(pg_nvrtc_program p, int nopts, const char *const *opts);
// Sizes include the trailing NUL that the Get calls write.
pg_nvrtc_result pg_nvrtc_ptx_size(pg_nvrtc_program p, size_t *n);
pg_nvrtc_result pg_nvrtc_ptx(pg_nvrtc_program p, char *ptx);
pg_nvrtc_result pg_nvrtc_log_size(pg_nvrtc_program p, size_t *n);
pg_nvrtc_result pg_nvrtc_log(pg_nvrtc_program p, char *log);
pg_nvrtc_result pg_nvrtc_destroy(pg_nvrtc_program *p);
const char *pg_nvrtc_error_string(pg_nvrtc_result r);

#endif
