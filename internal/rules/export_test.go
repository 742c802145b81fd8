package rules

// SplitCPU is the batch backend with each state's rules forced over parts
// goroutines, ranges split down to minSplit indices, for tests outside the
// package (split_board_test.go compiles Golly notations, whose package
// imports this one).
func SplitCPU(parts, minSplit int) CPU {
	return CPU{Path: PathBatch, parts: parts, minSplit: minSplit}
}
