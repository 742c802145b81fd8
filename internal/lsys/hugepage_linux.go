package lsys

import "syscall"

// adviseHugePages asks Linux to back b with transparent huge pages when the
// system leaves that to madvise (THP "madvise" mode, common on servers and
// VMs, where Go's heap never gets them). Derived strings are written once,
// front to back, right after allocation: with 4 KiB pages that first write
// is a page fault every 4 KiB, which costs more than the rewrite itself on
// virtual machines (measured on the 2-core development VM: 269 MB of fresh
// memory took 820 ms to touch in 4 KiB pages, 23 ms in huge pages). The
// advice is only a hint; errors are ignored. b must start on a page
// boundary, as every large Go allocation does.
func adviseHugePages(b []byte) {
	if len(b) >= hugeAdviceMin {
		_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	}
}
