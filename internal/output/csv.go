package output

import (
	"encoding/csv"
	"fmt"
	"io"
)

// WriteCSV atomically writes a CSV file: header (if not nil) then every
// record that rows passes to emit. Records stream straight to the file, so a
// large grid never has to be held in memory as strings. When a header is
// given, every record must have as many fields, because a ragged table is
// always a bug in the caller and most CSV readers reject it.
func WriteCSV(path string, header []string, rows func(emit func(record []string) error) error) error {
	return WriteFile(path, func(w io.Writer) error { return encodeCSV(w, header, rows) })
}

// WriteCSVRecords is WriteCSV for records already in memory.
func WriteCSVRecords(path string, header []string, records [][]string) error {
	return WriteCSV(path, header, recordsFunc(records))
}

// EncodeCSV writes the same CSV as WriteCSV to w.
func EncodeCSV(w io.Writer, header []string, rows func(emit func(record []string) error) error) error {
	if err := encodeCSV(w, header, rows); err != nil {
		return fmt.Errorf("output: encode csv: %w", err)
	}
	return nil
}

func recordsFunc(records [][]string) func(emit func([]string) error) error {
	return func(emit func([]string) error) error {
		for _, r := range records {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
}

func encodeCSV(w io.Writer, header []string, rows func(emit func(record []string) error) error) error {
	cw := csv.NewWriter(w)
	if header != nil {
		if err := cw.Write(header); err != nil {
			return err
		}
	}
	n := 0
	emit := func(record []string) error {
		n++
		if header != nil && len(record) != len(header) {
			return fmt.Errorf("csv: record %d has %d fields, header has %d", n, len(record), len(header))
		}
		return cw.Write(record)
	}
	if err := rows(emit); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}
