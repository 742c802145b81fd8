//go:build cuda

// Function pointers into libcuda.so.1, resolved once by pg_load. The _v2 names
// are the ones cuda.h maps the plain names to; we bind those explicitly.
#include "driver_cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pg_result (*p_cuInit)(unsigned);
static pg_result (*p_cuDriverGetVersion)(int *);
static pg_result (*p_cuDeviceGetCount)(int *);
static pg_result (*p_cuDeviceGet)(pg_device *, int);
static pg_result (*p_cuDeviceGetName)(char *, int, pg_device);
static pg_result (*p_cuDeviceGetAttribute)(int *, int, pg_device);
static pg_result (*p_cuDeviceTotalMem)(size_t *, pg_device);
static pg_result (*p_cuDevicePrimaryCtxRetain)(pg_context *, pg_device);
static pg_result (*p_cuDevicePrimaryCtxRelease)(pg_device);
static pg_result (*p_cuCtxSetCurrent)(pg_context);
static pg_result (*p_cuCtxSynchronize)(void);
static pg_result (*p_cuModuleLoadData)(pg_module *, const void *);
static pg_result (*p_cuModuleUnload)(pg_module);
static pg_result (*p_cuModuleGetFunction)(pg_function *, pg_module, const char *);
static pg_result (*p_cuFuncSetAttribute)(pg_function, int, int);
static pg_result (*p_cuFuncGetAttribute)(int *, int, pg_function);
static pg_result (*p_cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, pg_function, int, size_t);
static pg_result (*p_cuMemAlloc)(pg_deviceptr *, size_t);
static pg_result (*p_cuMemFree)(pg_deviceptr);
static pg_result (*p_cuMemGetInfo)(size_t *, size_t *);
static pg_result (*p_cuMemAllocHost)(void **, size_t);
static pg_result (*p_cuMemFreeHost)(void *);
static pg_result (*p_cuMemcpyHtoD)(pg_deviceptr, const void *, size_t);
static pg_result (*p_cuMemcpyDtoH)(void *, pg_deviceptr, size_t);
static pg_result (*p_cuMemcpyDtoD)(pg_deviceptr, pg_deviceptr, size_t);
static pg_result (*p_cuMemcpyHtoDAsync)(pg_deviceptr, const void *, size_t, pg_stream);
static pg_result (*p_cuMemcpyDtoHAsync)(void *, pg_deviceptr, size_t, pg_stream);
static pg_result (*p_cuMemcpyPeer)(pg_deviceptr, pg_context, pg_deviceptr, pg_context, size_t);
static pg_result (*p_cuMemsetD8)(pg_deviceptr, unsigned char, size_t);
static pg_result (*p_cuMemsetD32)(pg_deviceptr, unsigned int, size_t);
static pg_result (*p_cuMemsetD8Async)(pg_deviceptr, unsigned char, size_t, pg_stream);
static pg_result (*p_cuStreamCreate)(pg_stream *, unsigned);
static pg_result (*p_cuStreamDestroy)(pg_stream);
static pg_result (*p_cuStreamCreateWithPriority)(pg_stream *, unsigned, int);
static pg_result (*p_cuCtxGetStreamPriorityRange)(int *, int *);
static pg_result (*p_cuStreamWaitEvent)(pg_stream, pg_event, unsigned);
static pg_result (*p_cuLaunchKernel)(pg_function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
				     unsigned, pg_stream, void **, void **);
static pg_result (*p_cuEventCreate)(pg_event *, unsigned);
static pg_result (*p_cuEventRecord)(pg_event, pg_stream);
static pg_result (*p_cuEventSynchronize)(pg_event);
static pg_result (*p_cuEventElapsedTime)(float *, pg_event, pg_event);
static pg_result (*p_cuEventDestroy)(pg_event);
static pg_result (*p_cuLinkCreate)(unsigned, int *, void **, void **);
static pg_result (*p_cuLinkAddData)(void *, int, void *, size_t, const char *, unsigned, int *, void **);
static pg_result (*p_cuLinkComplete)(void *, void **, size_t *);
static pg_result (*p_cuLinkDestroy)(void *);
static pg_result (*p_cuGetErrorName)(pg_result, const char **);
static pg_result (*p_cuGetErrorString)(pg_result, const char **);

static void *lib;

#define BIND(ptr, sym)                                                                   \
	do {                                                                             \
		*(void **)(&ptr) = dlsym(lib, sym);                                      \
		if (!ptr) {                                                              \
			snprintf(err, errlen, "libcuda.so.1 lacks %s (driver too old?)", sym); \
			return 2;                                                        \
		}                                                                        \
	} while (0)

int pg_load(char *err, int errlen) {
	if (lib) return 0;
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen libcuda.so.1 failed");
		return 1;
	}
	lib = h;
	BIND(p_cuInit, "cuInit");
	BIND(p_cuDriverGetVersion, "cuDriverGetVersion");
	BIND(p_cuDeviceGetCount, "cuDeviceGetCount");
	BIND(p_cuDeviceGet, "cuDeviceGet");
	BIND(p_cuDeviceGetName, "cuDeviceGetName");
	BIND(p_cuDeviceGetAttribute, "cuDeviceGetAttribute");
	BIND(p_cuDeviceTotalMem, "cuDeviceTotalMem_v2");
	BIND(p_cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
	BIND(p_cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
	BIND(p_cuCtxSetCurrent, "cuCtxSetCurrent");
	BIND(p_cuCtxSynchronize, "cuCtxSynchronize");
	BIND(p_cuModuleLoadData, "cuModuleLoadData");
	BIND(p_cuModuleUnload, "cuModuleUnload");
	BIND(p_cuModuleGetFunction, "cuModuleGetFunction");
	BIND(p_cuFuncSetAttribute, "cuFuncSetAttribute");
	BIND(p_cuFuncGetAttribute, "cuFuncGetAttribute");
	BIND(p_cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
	BIND(p_cuMemAlloc, "cuMemAlloc_v2");
	BIND(p_cuMemFree, "cuMemFree_v2");
	BIND(p_cuMemGetInfo, "cuMemGetInfo_v2");
	BIND(p_cuMemAllocHost, "cuMemAllocHost_v2");
	BIND(p_cuMemFreeHost, "cuMemFreeHost");
	BIND(p_cuMemcpyHtoD, "cuMemcpyHtoD_v2");
	BIND(p_cuMemcpyDtoH, "cuMemcpyDtoH_v2");
	BIND(p_cuMemcpyDtoD, "cuMemcpyDtoD_v2");
	BIND(p_cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
	BIND(p_cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
	BIND(p_cuMemcpyPeer, "cuMemcpyPeer");
	BIND(p_cuMemsetD8, "cuMemsetD8_v2");
	BIND(p_cuMemsetD32, "cuMemsetD32_v2");
	BIND(p_cuMemsetD8Async, "cuMemsetD8Async");
	BIND(p_cuStreamCreate, "cuStreamCreate");
	BIND(p_cuStreamDestroy, "cuStreamDestroy_v2");
	BIND(p_cuStreamCreateWithPriority, "cuStreamCreateWithPriority");
	BIND(p_cuCtxGetStreamPriorityRange, "cuCtxGetStreamPriorityRange");
	BIND(p_cuStreamWaitEvent, "cuStreamWaitEvent");
	BIND(p_cuLaunchKernel, "cuLaunchKernel");
	BIND(p_cuEventCreate, "cuEventCreate");
	BIND(p_cuEventRecord, "cuEventRecord");
	BIND(p_cuEventSynchronize, "cuEventSynchronize");
	BIND(p_cuEventElapsedTime, "cuEventElapsedTime");
	BIND(p_cuEventDestroy, "cuEventDestroy_v2");
	BIND(p_cuLinkCreate, "cuLinkCreate_v2");
	BIND(p_cuLinkAddData, "cuLinkAddData_v2");
	BIND(p_cuLinkComplete, "cuLinkComplete");
	BIND(p_cuLinkDestroy, "cuLinkDestroy");
	BIND(p_cuGetErrorName, "cuGetErrorName");
	BIND(p_cuGetErrorString, "cuGetErrorString");
	return 0;
}

#define CALL(fn, ...) ((fn) ? (fn)(__VA_ARGS__) : PG_ERROR_NOT_LOADED)

pg_result pg_init(void) { return CALL(p_cuInit, 0); }
pg_result pg_driver_version(int *v) { return CALL(p_cuDriverGetVersion, v); }
pg_result pg_device_count(int *n) { return CALL(p_cuDeviceGetCount, n); }
pg_result pg_device_get(pg_device *d, int ordinal) { return CALL(p_cuDeviceGet, d, ordinal); }
pg_result pg_device_name(char *name, int len, pg_device d) { return CALL(p_cuDeviceGetName, name, len, d); }
pg_result pg_device_attr(int *v, int attr, pg_device d) { return CALL(p_cuDeviceGetAttribute, v, attr, d); }
pg_result pg_device_total_mem(size_t *bytes, pg_device d) { return CALL(p_cuDeviceTotalMem, bytes, d); }
pg_result pg_primary_ctx_retain(pg_context *ctx, pg_device d) { return CALL(p_cuDevicePrimaryCtxRetain, ctx, d); }
pg_result pg_primary_ctx_release(pg_device d) { return CALL(p_cuDevicePrimaryCtxRelease, d); }
pg_result pg_ctx_set_current(pg_context ctx) { return CALL(p_cuCtxSetCurrent, ctx); }
pg_result pg_ctx_synchronize(void) { return p_cuCtxSynchronize ? p_cuCtxSynchronize() : PG_ERROR_NOT_LOADED; }
pg_result pg_module_load_data(pg_module *m, const void *image) { return CALL(p_cuModuleLoadData, m, image); }
pg_result pg_jit_ptx(const char *ptx, size_t len, void **cubin, size_t *cubin_len) {
	if (!p_cuLinkCreate) return PG_ERROR_NOT_LOADED;
	void *state = NULL, *out = NULL;
	size_t n = 0;
	pg_result r = p_cuLinkCreate(0, NULL, NULL, &state);
	if (r != PG_SUCCESS) return r;
	r = p_cuLinkAddData(state, 1 /* CU_JIT_INPUT_PTX */, (void *)ptx, len, "procgen.ptx", 0, NULL, NULL);
	if (r == PG_SUCCESS) r = p_cuLinkComplete(state, &out, &n);
	if (r == PG_SUCCESS) {
		*cubin = malloc(n);
		if (*cubin) {
			memcpy(*cubin, out, n);
			*cubin_len = n;
		} else {
			r = 2; // CUDA_ERROR_OUT_OF_MEMORY
		}
	}
	p_cuLinkDestroy(state);
	return r;
}
pg_result pg_module_unload(pg_module m) { return CALL(p_cuModuleUnload, m); }
pg_result pg_module_get_function(pg_function *f, pg_module m, const char *name) {
	return CALL(p_cuModuleGetFunction, f, m, name);
}
pg_result pg_func_set_attr(pg_function f, int attr, int value) { return CALL(p_cuFuncSetAttribute, f, attr, value); }
pg_result pg_func_get_attr(int *value, int attr, pg_function f) { return CALL(p_cuFuncGetAttribute, value, attr, f); }
pg_result pg_occupancy(int *blocks, pg_function f, int block_size, size_t dyn_shared) {
	return CALL(p_cuOccupancyMaxActiveBlocksPerMultiprocessor, blocks, f, block_size, dyn_shared);
}
pg_result pg_mem_alloc(pg_deviceptr *p, size_t bytes) { return CALL(p_cuMemAlloc, p, bytes); }
pg_result pg_mem_free(pg_deviceptr p) { return CALL(p_cuMemFree, p); }
pg_result pg_mem_get_info(size_t *f, size_t *t) { return CALL(p_cuMemGetInfo, f, t); }
pg_result pg_mem_alloc_host(void **p, size_t bytes) { return CALL(p_cuMemAllocHost, p, bytes); }
pg_result pg_mem_free_host(void *p) { return CALL(p_cuMemFreeHost, p); }
pg_result pg_memcpy_htod(pg_deviceptr dst, const void *src, size_t n) { return CALL(p_cuMemcpyHtoD, dst, src, n); }
pg_result pg_memcpy_dtoh(void *dst, pg_deviceptr src, size_t n) { return CALL(p_cuMemcpyDtoH, dst, src, n); }
pg_result pg_memcpy_dtod(pg_deviceptr dst, pg_deviceptr src, size_t n) { return CALL(p_cuMemcpyDtoD, dst, src, n); }
pg_result pg_memcpy_htod_async(pg_deviceptr dst, const void *src, size_t n, pg_stream s) {
	return CALL(p_cuMemcpyHtoDAsync, dst, src, n, s);
}
pg_result pg_memcpy_dtoh_async(void *dst, pg_deviceptr src, size_t n, pg_stream s) {
	return CALL(p_cuMemcpyDtoHAsync, dst, src, n, s);
}
pg_result pg_memcpy_peer(pg_deviceptr dst, pg_context dctx, pg_deviceptr src, pg_context sctx, size_t n) {
	return CALL(p_cuMemcpyPeer, dst, dctx, src, sctx, n);
}
pg_result pg_memset_d8(pg_deviceptr p, unsigned char v, size_t n) { return CALL(p_cuMemsetD8, p, v, n); }
pg_result pg_memset_d32(pg_deviceptr p, unsigned int v, size_t n) { return CALL(p_cuMemsetD32, p, v, n); }
pg_result pg_memset_d8_async(pg_deviceptr p, unsigned char v, size_t n, pg_stream s) {
	return CALL(p_cuMemsetD8Async, p, v, n, s);
}
pg_result pg_stream_create(pg_stream *s) { return CALL(p_cuStreamCreate, s, 0 /* CU_STREAM_DEFAULT */); }
pg_result pg_stream_destroy(pg_stream s) { return CALL(p_cuStreamDestroy, s); }
pg_result pg_stream_create_priority(pg_stream *s, int priority) {
	return CALL(p_cuStreamCreateWithPriority, s, 0 /* CU_STREAM_DEFAULT */, priority);
}
pg_result pg_stream_priority_range(int *least, int *greatest) {
	return CALL(p_cuCtxGetStreamPriorityRange, least, greatest);
}
pg_result pg_stream_wait_event(pg_stream s, pg_event e) { return CALL(p_cuStreamWaitEvent, s, e, 0); }

pg_result pg_launch(pg_function f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		    unsigned shared, unsigned long long *args, int nargs, pg_stream s) {
	void *params[PG_MAX_ARGS];
	if (nargs < 0 || nargs > PG_MAX_ARGS) return 1; // CUDA_ERROR_INVALID_VALUE
	for (int i = 0; i < nargs; i++) params[i] = &args[i];
	return CALL(p_cuLaunchKernel, f, gx, gy, gz, bx, by, bz, shared, s, params, NULL);
}

pg_result pg_event_create(pg_event *e) { return CALL(p_cuEventCreate, e, 0); }
pg_result pg_event_record(pg_event e, pg_stream s) { return CALL(p_cuEventRecord, e, s); }
pg_result pg_event_synchronize(pg_event e) { return CALL(p_cuEventSynchronize, e); }
pg_result pg_event_elapsed(float *ms, pg_event a, pg_event b) { return CALL(p_cuEventElapsedTime, ms, a, b); }
pg_result pg_event_destroy(pg_event e) { return CALL(p_cuEventDestroy, e); }

const char *pg_error_name(pg_result r) {
	const char *s = NULL;
	if (r == PG_ERROR_NOT_LOADED) return "PG_ERROR_NOT_LOADED";
	if (!p_cuGetErrorName || p_cuGetErrorName(r, &s) != 0 || !s) return "CUDA_ERROR_UNKNOWN";
	return s;
}

const char *pg_error_string(pg_result r) {
	const char *s = NULL;
	if (r == PG_ERROR_NOT_LOADED) return "libcuda.so.1 is not loaded";
	if (!p_cuGetErrorString || p_cuGetErrorString(r, &s) != 0 || !s) return "unrecognized error code";
	return s;
}
