package output

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON atomically writes v as indented JSON followed by a newline.
func WriteJSON(path string, v any) error {
	return WriteFile(path, func(w io.Writer) error { return encodeJSON(w, v) })
}

// EncodeJSON writes v to w as JSON indented by two spaces, with a trailing
// newline so the output is a well-formed text file and diffs cleanly.
func EncodeJSON(w io.Writer, v any) error {
	if err := encodeJSON(w, v); err != nil {
		return fmt.Errorf("output: encode json: %w", err)
	}
	return nil
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// The files are read by people and tools, never embedded in HTML, so
	// "<", ">" and "&" (common in rule strings) stay readable.
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
