package forest

// The two backends: CPU (cpu.go, every method in float64 on all cores) and,
// in builds with the cuda tag, CUDA (cuda.go: the exact and fft methods on a
// GPU; multires runs on the CPU). NewEngine (backend_cuda.go,
// backend_nocuda.go) picks one for a device.
var _ Engine = CPU{}
