package turtle

// The backends: CPU everywhere, CUDA in builds with the cuda tag (cuda.go).
// NewInterpreter (backend_cuda.go, backend_nocuda.go) picks one for a device.
var _ Interpreter = CPU{}
