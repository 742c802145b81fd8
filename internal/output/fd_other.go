//go:build !unix

package output

import (
	"errors"
	"io/fs"
	"os"
)

var errNoDescriptors = errors.New("descriptor paths are not supported on this system")

// Without /proc there are no descriptor paths: walkPath never reports one.
func checkDescriptor(path string, fd int) (fs.FileInfo, error) {
	return nil, badTarget(path, "%v", errNoDescriptors)
}

func openDescriptor(path string, fd int) (*os.File, error) { return nil, errNoDescriptors }

func fileDescriptor(f *os.File) (int, bool) { return 0, false }
