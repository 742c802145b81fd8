package rules

// Go mirrors of the structures in cuda/rules_types.cuh. Field order, types
// and sizes must match; TestRulesGPUTypesMatchHeader compiles the header
// with the host C++ compiler and compares every size, offset and opcode.

// gpuField is RulesField.
type gpuField struct {
	Off, Size int32
}

// gpuRule is RulesRule.
type gpuRule struct {
	Lo, Hi, CondPC, BodyPC       int32
	SnapMask, PendMask, AtomMask uint32
	Pad0                         int32
}

// gpuArgs is RulesArgs (built inside the kernels from their scalar parameters).
type gpuArgs struct {
	NStates, Words, NRules, NCode, NFields, Step0, NSteps, NRegs int32
}
