// Package gpu is procgen's only door to the GPU: device discovery, contexts,
// modules loaded from embedded fatbins, typed device buffers, kernel launches
// and the shared device primitives (scan, compaction, reduction).
//
// The default build is pure Go: Probe reports "built without CUDA" and Open
// fails with ErrUnavailable. Built with the `cuda` tag, the package dlopens
// libcuda.so.1 at run time and calls the CUDA driver API through function
// pointers, so the same binary starts on machines without a driver and the
// callers fall back to the CPU. No work happens at package initialisation.
//
// Every driver call for a device runs on one goroutine locked to its OS
// thread, because a CUDA context is current per thread.
//
// Kernels are launched only through declarations: a Kernel[P] names the
// family (cuda/<family>.cu) and the kernel, and P is a struct whose fields
// are the kernel's parameters in order (Ptr, int32, uint32, int64, uint64,
// float32, float64, or a nested struct of them). Kernel.Load gives a Func[P]
// whose Launch, LaunchOn and Queue take a P, so a launch site with a wrong
// count or type of arguments does not compile. Package kerneltest checks
// each declaration against the kernel's C declaration and the built PTX.
package gpu
