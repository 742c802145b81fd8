package outdir

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// mountPoints are the process's mount points. st_dev alone misses a bind
// mount of the same filesystem, which a rename cannot move either.
// Unreadable (no /proc): none, and the st_dev comparison stands alone.
func mountPoints() map[string]bool {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	mounts := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// "36 35 98:0 /root /mount/point options ... - fstype source opts"
		fields := strings.Fields(sc.Text())
		if len(fields) > 4 {
			mounts[unescapeMount(fields[4])] = true
		}
	}
	return mounts
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space, \011,
// \012, \134).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
