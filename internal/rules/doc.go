// Package rules runs rule-based simulations over many independent states at
// once: a small language (docs/rules-language.md) declares a state layout and
// rules; Compile turns a rule file into bytecode that the CPU interpreter
// (rules/bytecode) and the CUDA interpreter kernel (cuda/rules.cu) both execute, after
// Köster, Groß and Krüger, "Massively Parallel Rule-Based Interpreter
// Execution on GPUs using Thread Compaction".
//
// The parts live in sub-packages below rules, which imports them and never
// the reverse: rules/bytecode (the program model, instruction set and
// reference interpreter), rules/lang (the language front end; Compile here
// wraps it), rules/batch (the CPU engine's vectorising fast path) and
// rules/ptx (the PTX code generator, with the GPU's schedules, layouts and
// launch shapes, which rules aliases). rules itself holds the engines (CPU,
// CUDA, multi-device), states and their files, boards and recording.
// rules/progtest and rules/ptx/ptxtest are test support (random rule files,
// a PTX emulator) that only tests import.
package rules
