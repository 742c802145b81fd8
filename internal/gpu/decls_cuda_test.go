//go:build cuda

package gpu

// pg_selftest_hash is launched only by tests.
type hashArgs struct {
	seed uint64
	out  Ptr
	n    uint64
}

var selftestHash = Kernel[hashArgs]{"selftest", "pg_selftest_hash"}

// KernelDecls is every kernel this package declares, for kerneltest (in
// the external test package: kerneltest imports gpu).
func KernelDecls() []KernelDecl {
	decls := []KernelDecl{scanExclusiveU32, compactU32, selftestArgs, selftestHash}
	for _, name := range reduceNames() {
		p, f := reduceKernels(name)
		decls = append(decls, p, f)
	}
	return decls
}
