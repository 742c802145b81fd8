package rules

// The two backends: CPU (cpu.go, the reference, every state on one goroutine,
// all cores) and, in builds with the cuda tag, CUDA (cuda.go: the bytecode
// interpreter kernels of cuda/rules.cu). NewEngine (backend_cuda.go,
// backend_nocuda.go) picks one for a device.
var _ Engine = CPU{}
