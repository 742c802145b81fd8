// The slice of the CUDA driver API procgen uses, declared here rather than taken
// from cuda.h so that the cuda-tagged Go build needs only a C compiler: the
// library itself is dlopen'ed at run time. Values match cuda.h (CUDA 11.8+).
#ifndef PROCGEN_DRIVER_CUDA_H
#define PROCGEN_DRIVER_CUDA_H

#include <stddef.h>

typedef int pg_result;                   // CUresult
typedef int pg_device;                   // CUdevice
typedef void *pg_context;                // CUcontext
typedef void *pg_module;                 // CUmodule
typedef void *pg_function;               // CUfunction
typedef void *pg_event;                  // CUevent
typedef void *pg_stream;                 // CUstream; NULL is the legacy default stream
typedef unsigned long long pg_deviceptr; // CUdeviceptr

enum {
	PG_SUCCESS = 0,
	PG_ERROR_NOT_INITIALIZED = 3,
	PG_ERROR_INSUFFICIENT_DRIVER = 35,
	PG_ERROR_NO_DEVICE = 100,
	PG_ERROR_NO_BINARY_FOR_GPU = 209,
	// Our own codes for failures before the driver answers.
	PG_ERROR_NOT_LOADED = -1,
};

enum {
	PG_ATTR_CLOCK_RATE = 13,
	PG_ATTR_MULTIPROCESSOR_COUNT = 16,
	PG_ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37,
	PG_ATTR_L2_CACHE_SIZE = 38,
	PG_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
	PG_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
	PG_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
	PG_FUNC_ATTR_SHARED_SIZE_BYTES = 1,
	PG_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

// pg_load dlopens libcuda.so.1 and resolves every entry point. Returns 0 on
// success; otherwise writes the reason into err and returns non-zero.
int pg_load(char *err, int errlen);

pg_result pg_init(void);
pg_result pg_driver_version(int *v);
pg_result pg_device_count(int *n);
pg_result pg_device_get(pg_device *d, int ordinal);
pg_result pg_device_name(char *name, int len, pg_device d);
pg_result pg_device_attr(int *v, int attr, pg_device d);
pg_result pg_device_total_mem(size_t *bytes, pg_device d);
pg_result pg_primary_ctx_retain(pg_context *ctx, pg_device d);
pg_result pg_primary_ctx_release(pg_device d);
pg_result pg_ctx_set_current(pg_context ctx);
pg_result pg_ctx_synchronize(void);
pg_result pg_module_load_data(pg_module *m, const void *image);
pg_result pg_module_unload(pg_module m);
// pg_jit_ptx compiles NUL-terminated PTX (len includes the NUL) for the
// current context's device; *cubin is malloc'ed, the caller frees it.
pg_result pg_jit_ptx(const char *ptx, size_t len, void **cubin, size_t *cubin_len);
pg_result pg_module_get_function(pg_function *f, pg_module m, const char *name);
pg_result pg_func_set_attr(pg_function f, int attr, int value);
pg_result pg_func_get_attr(int *value, int attr, pg_function f);
// cuOccupancyMaxActiveBlocksPerMultiprocessor: blocks of block_size threads
// with dyn_shared bytes of dynamic shared memory resident on one SM.
pg_result pg_occupancy(int *blocks, pg_function f, int block_size, size_t dyn_shared);
pg_result pg_mem_alloc(pg_deviceptr *p, size_t bytes);
pg_result pg_mem_free(pg_deviceptr p);
pg_result pg_mem_get_info(size_t *free_bytes, size_t *total_bytes);
// Page-locked host memory (cuMemAllocHost): copies to and from it run at
// the bus's speed, where pageable memory goes through a driver buffer.
pg_result pg_mem_alloc_host(void **p, size_t bytes);
pg_result pg_mem_free_host(void *p);
pg_result pg_memcpy_htod(pg_deviceptr dst, const void *src, size_t bytes);
pg_result pg_memcpy_dtoh(void *dst, pg_deviceptr src, size_t bytes);
pg_result pg_memcpy_dtod(pg_deviceptr dst, pg_deviceptr src, size_t bytes);
// Copies queued on stream s that return at once; the host side must be
// page-locked memory (pg_mem_alloc_host) for them to be asynchronous.
pg_result pg_memcpy_htod_async(pg_deviceptr dst, const void *src, size_t bytes, pg_stream s);
pg_result pg_memcpy_dtoh_async(void *dst, pg_deviceptr src, size_t bytes, pg_stream s);
pg_result pg_memcpy_peer(pg_deviceptr dst, pg_context dst_ctx, pg_deviceptr src, pg_context src_ctx, size_t bytes);
pg_result pg_memset_d8(pg_deviceptr p, unsigned char v, size_t n);
pg_result pg_memset_d32(pg_deviceptr p, unsigned int v, size_t n);
pg_result pg_memset_d8_async(pg_deviceptr p, unsigned char v, size_t n, pg_stream s);
// pg_launch passes args[i] (each a 32- or 64-bit value stored in a 64-bit
// slot, little-endian) as the kernel's i-th parameter, queued on stream s.
pg_result pg_launch(pg_function f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
		    unsigned bz, unsigned shared, unsigned long long *args, int nargs, pg_stream s);
// pg_stream_create makes a blocking stream (CU_STREAM_DEFAULT): work on it
// still orders with anything queued on the legacy default stream.
pg_result pg_stream_create(pg_stream *s);
// pg_stream_create_priority makes a blocking stream of the given priority
// (lower numbers are more urgent; see pg_stream_priority_range).
pg_result pg_stream_create_priority(pg_stream *s, int priority);
pg_result pg_stream_priority_range(int *least, int *greatest);
pg_result pg_stream_destroy(pg_stream s);
// pg_stream_wait_event makes work queued on s after it wait for event e.
pg_result pg_stream_wait_event(pg_stream s, pg_event e);
pg_result pg_event_create(pg_event *e);
pg_result pg_event_record(pg_event e, pg_stream s);
pg_result pg_event_synchronize(pg_event e);
pg_result pg_event_elapsed(float *ms, pg_event start, pg_event end);
pg_result pg_event_destroy(pg_event e);
const char *pg_error_name(pg_result r);
const char *pg_error_string(pg_result r);

#define PG_MAX_ARGS 32

#endif
