// Package ptxtest is test support for the PTX that rules/ptx generates: an
// emulator for the subset of PTX the generator emits (Parse, Kernel.Run)
// and Assemble, which hands a module to ptxas.
//
// The emulator exists so that the generated kernels' semantics are tested
// on machines without a GPU: every thread of a block runs until it reaches
// a barrier, a warp collective or the end; collectives resolve when every
// thread they need waits at them. Threads of a block run one after another
// between synchronisation points, which is one legal interleaving (the
// kernels' correctness may not depend on any other). It reads the
// generator's text and nothing else: it is no general PTX interpreter, and
// an instruction it does not know is an error of the run.
//
// Nothing in the program imports it, and it imports neither rules nor
// rules/ptx, so tests of both can use it. It takes float-to-int conversion
// from rules/bytecode, whose F2I is CUDA's cvt.rzi.
package ptxtest
