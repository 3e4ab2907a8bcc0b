package switchmodel

import (
	"testing"
	"unsafe"
)

// TestPortQueueLayout pins the cache-line layout the per-packet path
// relies on: the queue is a whole number of 64-byte lines (so the
// allocator's size class keeps every queue line-aligned), and the fields
// a plain queue touches for every packet lie in its first three lines:
// the data band with the thresholds, the occupancy with its time
// integrals, the counters and maxima.
func TestPortQueueLayout(t *testing.T) {
	var q PortQueue
	if sz := unsafe.Sizeof(q); sz%64 != 0 {
		t.Errorf("PortQueue is %d bytes, not a whole number of cache lines", sz)
	}
	lines := map[string][2]uintptr{
		"data":       {unsafe.Offsetof(q.data), unsafe.Sizeof(q.data)},
		"buffer":     {unsafe.Offsetof(q.buffer), 8},
		"ecnPkts":    {unsafe.Offsetof(q.ecnPkts), 4},
		"mode":       {unsafe.Offsetof(q.mode), 1},
		"ecnBytes":   {unsafe.Offsetof(q.ecnBytes), 8},
		"avg":        {unsafe.Offsetof(q.avg), unsafe.Sizeof(q.avg)},
		"series":     {unsafe.Offsetof(q.series), 8},
		"MaxPackets": {unsafe.Offsetof(q.MaxPackets), 8},
	}
	for name, r := range lines {
		if end := r[0] + r[1]; end > 3*64 {
			t.Errorf("%s ends at byte %d, beyond the third line", name, end)
		}
	}
	if off := unsafe.Offsetof(q.data); off != 0 || unsafe.Offsetof(q.ecnPkts)+4 > 64 {
		t.Errorf("the data band and its thresholds are not the first line")
	}
}
