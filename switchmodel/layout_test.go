package switchmodel

import (
	"testing"
	"unsafe"
)

// TestPortQueueLayout pins the cache-line layout the per-packet path
// relies on: the queue is a whole number of 64-byte lines (so the
// allocator's size class keeps every queue line-aligned), and the fields
// every packet touches lie in its first four lines.
func TestPortQueueLayout(t *testing.T) {
	var q PortQueue
	if sz := unsafe.Sizeof(q); sz%64 != 0 {
		t.Errorf("PortQueue is %d bytes, not a whole number of cache lines", sz)
	}
	if unsafe.Sizeof(q.cfg) > 64 {
		t.Errorf("QueueConfig is %d bytes, more than one line", unsafe.Sizeof(q.cfg))
	}
	if end := unsafe.Offsetof(q.avg) + unsafe.Sizeof(q.avg); end > 4*64 {
		t.Errorf("the hot fields end at byte %d, beyond the fourth line", end)
	}
}
