package imgdiff

// minRowsPerBand keeps bands of rows large enough that starting a goroutine
// is cheap next to the work it does. Every result is computed per row or
// combined in band order, so the numbers do not depend on how many bands
// there are.
const minRowsPerBand = 16
