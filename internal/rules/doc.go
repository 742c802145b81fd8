// Package rules runs rule-based simulations over many independent states at
// once: a small language (docs/rules-language.md) declares a state layout and
// rules; Compile turns a rule file into bytecode that the CPU interpreter
// (rules/bytecode) and the CUDA interpreter kernel (cuda/rules.cu) both execute, after
// Köster, Groß and Krüger, "Massively Parallel Rule-Based Interpreter
// Execution on GPUs using Thread Compaction".
package rules
