// Package ptx generates CUDA kernels for one rule set: Generate turns a
// compiled bytecode.Program into PTX text whose kernels do what the
// interpreter kernels of cuda/rules.cu do (the same schedules, layouts,
// firing order, snapshot and pending writes, fault encodings and stability
// detection), with the program's code inlined as straight-line PTX.
//
// It writes text and nothing else: it does not load modules, launch
// kernels or read results back (the CUDA engine in package rules does, and
// falls back to the interpreter kernels where Generate refuses a program).
// The types both kinds of kernel share live here (Schedule, Layout, the
// launch shapes, PadWords, NeedsWide and the fault encodings' doc), and
// rules aliases them. Its tests run the generated kernels in the emulator
// of rules/ptx/ptxtest and assemble them with ptxas; the tests comparing
// them with the CPU engine are in rules.
package ptx
