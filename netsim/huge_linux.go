package netsim

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of an x86-64 and arm64 transparent huge page.
const hugePage = 2 << 20

// adviseHuge asks Linux to back the whole 2 MB pages inside [ptr, ptr+n)
// with transparent huge pages (madvise MADV_HUGEPAGE), which systems
// configured with transparent_hugepage=madvise grant only on request.
// One huge page replaces 512 small ones in the address translation
// caches, so the random accesses of a large run miss them far less. It
// is advice: where it is refused or the range holds no whole huge page,
// nothing changes, results least of all.
func adviseHuge(ptr unsafe.Pointer, n uintptr) {
	start := (uintptr(ptr) + hugePage - 1) &^ (hugePage - 1)
	end := (uintptr(ptr) + n) &^ (hugePage - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(ptr, start-uintptr(ptr))), end-start)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
