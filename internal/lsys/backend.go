package lsys

// NewDeriver (backend_cuda.go, backend_nocuda.go) picks the derivation
// backend for a device: the CUDA backend on a device opened by internal/gpu,
// the CPU backend otherwise. Both derive the same string for every system,
// seed and step count.
