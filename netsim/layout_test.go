package netsim

import (
	"testing"
	"unsafe"
)

// TestPortLinkLayout pins the cache-line layout of a port and its link
// (allocated together as a portLink): the port's per-packet fields in
// its first two lines, a planning port's in its third, the link's in one line starting on a line
// boundary, the whole a number of lines; and a packet's per-hop fields in
// its first 32 bytes, the part of a line every packet of a pool chunk
// starts (160-byte packets start at multiples of 32 bytes).
func TestPortLinkLayout(t *testing.T) {
	var pl portLink
	if sz := unsafe.Sizeof(pl); sz%64 != 0 {
		t.Errorf("portLink is %d bytes, not a whole number of cache lines", sz)
	}
	pt, l := &pl.port, &pl.link
	if end := unsafe.Offsetof(pt.tx) + unsafe.Sizeof(pt.tx); end > 128 {
		t.Errorf("the port's hot fields end at byte %d, beyond its second line", end)
	}
	if start, end := unsafe.Offsetof(pt.pq), unsafe.Offsetof(pt.nwait)+unsafe.Sizeof(pt.nwait); start < 128 || end > 192 {
		t.Errorf("a planning port's fields lie in bytes %d-%d, not in its third line", start, end)
	}
	off := uintptr(unsafe.Pointer(l)) - uintptr(unsafe.Pointer(&pl))
	if off%64 != 0 {
		t.Errorf("the link starts at byte %d of the portLink, not on a line", off)
	}
	if end := unsafe.Offsetof(l.fwd) + unsafe.Sizeof(l.fwd); end > 64 {
		t.Errorf("the link's hot fields end at byte %d, beyond its first line", end)
	}
	var p Packet
	if unsafe.Sizeof(p)%32 != 0 {
		t.Errorf("Packet is %d bytes, not a multiple of 32", unsafe.Sizeof(p))
	}
	for name, end := range map[string]uintptr{
		"Flow": unsafe.Offsetof(p.Flow) + 8, "Size": unsafe.Offsetof(p.Size) + 8, "Dst": unsafe.Offsetof(p.Dst) + 4,
		"Flags": unsafe.Offsetof(p.Flags) + 2, "Hops": unsafe.Offsetof(p.Hops) + 1, "Ring": unsafe.Offsetof(p.Ring) + 1,
	} {
		if end > 32 {
			t.Errorf("Packet.%s ends at byte %d, beyond the first 32", name, end)
		}
	}
}
