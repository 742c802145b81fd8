package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// physical is where a path leads, found the way the kernel's path walk finds
// it: one component at a time from the physical working directory, a
// symlink's body spliced in where the link was met and resolved against the
// directory that holds the link, ".." taken against the directory reached
// so far. A lexical filepath.Join/Clean of a link body would drop "sub/.."
// before knowing that sub is itself a link, and land somewhere else.
type physical struct {
	path string      // absolute, free of symlinks, "." and ".."
	fi   fs.FileInfo // Lstat of path; nil when nothing exists there yet
	fd   int         // >= 0: path is /proc/<this pid>/fd/N, descriptor N of this process
	// descriptor: the path leads into a process's descriptors (fd >= 0, or
	// refused), so the caller means a stream, not a file or directory.
	descriptor bool
	linked     bool // a symlink was followed on the way
}

// walkPath resolves path physically. A dangling final link resolves to the
// file it names (which a write then creates), as open(O_CREAT) does.
func walkPath(path string) (physical, error) {
	res := physical{fd: -1}
	vol := filepath.VolumeName(path)
	cur := vol + string(filepath.Separator)
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err == nil {
			// Getwd may answer $PWD, a logical path through links.
			wd, err = filepath.EvalSymlinks(wd)
		}
		if err != nil {
			return res, badTarget(path, "working directory: %v", unwrapPathError(err))
		}
		cur = wd
	}
	rest := components(path[len(vol):])
	for links := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		if c == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		if pid, ok := fdDir(cur); ok && isDigits(c) {
			return descriptorOf(path, cur, c, pid, rest)
		}
		next := filepath.Join(cur, c) // c is one plain name: Join only appends it
		if pid, ok := fdDir(next); ok && pid != os.Getpid() {
			// Said before the Lstat, which may be denied.
			res.descriptor = true
			return res, badTarget(path, "is in the descriptors of another process (pid %d); only procgen's own descriptors can be written", pid)
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) && len(rest) == 0:
			res.path = next
			return res, nil
		case errors.Is(err, fs.ErrNotExist):
			return res, badTarget(path, "directory %s does not exist", res.shown(path, next))
		case err != nil:
			return res, badTarget(path, "%v", unwrapPathError(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			if links++; links > maxLinks {
				return res, badTarget(path, "too many levels of symbolic links")
			}
			body, err := os.Readlink(next)
			if err != nil {
				return res, badTarget(path, "%v", unwrapPathError(err))
			}
			if filepath.IsAbs(body) {
				bv := filepath.VolumeName(body)
				cur, body = bv+string(filepath.Separator), body[len(bv):]
			}
			rest = append(components(body), rest...)
			res.linked = true
			continue
		case len(rest) > 0 && !fi.IsDir():
			return res, badTarget(path, "%s is not a directory", res.shown(path, next))
		}
		cur = next
	}
	// Ended on an existing name (the loop returned for a missing one) or on
	// a directory ("x/..", "/").
	fi, err := os.Lstat(cur)
	if err != nil {
		return res, badTarget(path, "%v", unwrapPathError(err))
	}
	res.path, res.fi = cur, fi
	return res, nil
}

// shown names a missing or non-directory component in an error: the user's
// own directory when no link was followed, else the physical one.
func (p physical) shown(path, phys string) string {
	if p.linked {
		return phys
	}
	return filepath.Dir(path)
}

// components splits a path into its names, dropping empty ones and ".".
func components(path string) []string {
	var out []string
	for _, c := range strings.Split(filepath.ToSlash(path), "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// fdDir says whether dir is a process's descriptor directory in procfs,
// /proc/PID/fd or /proc/PID/task/TID/fd, and whose. /dev/stdout, /dev/fd and
// /proc/self lead here through ordinary links; the entries inside are the
// kernel's magic links, which open the descriptor's file, not a path.
func fdDir(dir string) (int, bool) {
	parts := strings.Split(filepath.ToSlash(dir), "/")
	if len(parts) < 4 || parts[0] != "" || parts[1] != "proc" || parts[len(parts)-1] != "fd" {
		return 0, false
	}
	switch {
	case len(parts) == 4 && isDigits(parts[2]):
	case len(parts) == 6 && isDigits(parts[2]) && parts[3] == "task" && isDigits(parts[4]):
	default:
		return 0, false
	}
	pid, err := strconv.Atoi(parts[2])
	return pid, err == nil
}

func isDigits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// descriptorOf is the end of a walk that reached /proc/PID/fd/N.
func descriptorOf(path, dir, name string, pid int, rest []string) (physical, error) {
	res := physical{fd: -1, path: filepath.Join(dir, name), linked: true, descriptor: true}
	if pid != os.Getpid() {
		return res, badTarget(path, "is descriptor %s of another process (pid %d); only procgen's own descriptors can be written", name, pid)
	}
	if len(rest) > 0 {
		return res, badTarget(path, "a path below descriptor %s is not an output procgen can write", name)
	}
	res.fd, _ = strconv.Atoi(name)
	return res, nil
}
