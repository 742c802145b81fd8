//go:build unix

package output

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// checkDescriptor checks that descriptor fd of this process can take an
// output, and returns what it refers to.
func checkDescriptor(path string, fd int) (fs.FileInfo, error) {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return nil, badTarget(path, "descriptor %d is not open", fd)
	}
	if fl&unix.O_ACCMODE == unix.O_RDONLY {
		return nil, badTarget(path, "descriptor %d is open for reading only", fd)
	}
	proc := fmt.Sprintf("/proc/self/fd/%d", fd)
	// The Go runtime's own descriptors (epoll, eventfd) sit just above the
	// standard ones: a /dev/fd/N the caller never opened may name one.
	if body, err := os.Readlink(proc); err == nil && strings.HasPrefix(body, "anon_inode:") {
		return nil, badTarget(path, "descriptor %d was not opened for procgen (%s)", fd, body)
	}
	fi, err := os.Stat(proc)
	if err != nil {
		return nil, badTarget(path, "descriptor %d: %v", fd, unwrapPathError(err))
	}
	// The Go runtime opens /dev/null read-write in place of a standard
	// descriptor that was closed when the process started (>&-), so writes
	// would vanish with success. A shell's >/dev/null opens it write-only.
	if fd <= 2 && fl&unix.O_ACCMODE == unix.O_RDWR && isNullDevice(fi) {
		return nil, badTarget(path, "descriptor %d (%s) was closed when procgen started", fd, stdName(fd))
	}
	return fi, nil
}

// openDescriptor is a duplicate of descriptor fd: it shares the open file
// description, so writes land at its offset (or at the end with O_APPEND)
// and the caller's descriptor stays open when the duplicate is closed.
func openDescriptor(path string, fd int) (*os.File, error) {
	d, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, fmt.Errorf("descriptor %d: %w", fd, err)
	}
	return os.NewFile(uintptr(d), path), nil
}

// fileDescriptor is the descriptor behind f.
func fileDescriptor(f *os.File) (int, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	fd := -1
	if rc.Control(func(u uintptr) { fd = int(u) }) != nil {
		return 0, false
	}
	return fd, fd >= 0
}
