package syntax

// Bytes parsing a system costs, measured (go1.26, linux/amd64) on axioms of
// 1 to 4 MB and rounded up: a module without parameters is a source byte
// and costs 24 bytes parsed (in a slice grown by doubling), 32 compiled and
// about 48 in the derivation's first string; a parameter's expression
// costs its bytes over again. 4 MB of "F+F-" peaked at 536 MB, of
// "F(1.5)+(2)" at 551 MB.
const (
	parseBytesPerByte = 160
	parseBaseBytes    = 16 << 20
)

// ParseMemory is the peak memory of parsing a source of size bytes, up to
// the first string of its derivation: a check made before the file is read
// (a 20 MB axiom took 6.5 GB before modules without parameters shrank from
// 112 bytes to 24).
func ParseMemory(size int64) float64 {
	return parseBaseBytes + float64(max(size, 0))*parseBytesPerByte
}
