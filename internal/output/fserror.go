package output

import (
	"errors"
	"fmt"
	"io/fs"
)

// DescribeFSError is err from the file system as a message names it after
// its path: "no such file", "permission denied", or the system's own
// reason, without the operation and path a *fs.PathError repeats.
func DescribeFSError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("no such file")
		case errors.Is(err, fs.ErrPermission):
			return fmt.Errorf("permission denied")
		}
		return pe.Err
	}
	return err
}
