package netsim

import "testing"

// TestDescPacksFields checks that a descriptor's three words give back
// every field at its extremes, that marking and counting a hop change
// only their own bits, and that Body writes Flags and Hops back.
func TestDescPacksFields(t *testing.T) {
	s := New(1)
	p := s.Packets().Get()
	p.Flow, p.Size, p.Dst = 1<<63|5, 1<<31-1, NodeID(1<<31-1)
	p.Flags, p.Hops, p.Kind = FlagECT|FlagAECN, 254, 255
	d := p.Desc()
	if d.Flow != p.Flow || d.Size() != 1<<31-1 || d.Bytes() != p.Size || d.Dst() != p.Dst ||
		d.Flags() != FlagECT|FlagAECN || d.Hops() != 254 || d.Kind() != 255 || d.ref() != p.ref {
		t.Fatalf("descriptor %+v does not give back the packet's fields", d)
	}
	d.SetFlags(FlagCE)
	d.AddHop()
	if d.Flags() != FlagECT|FlagAECN|FlagCE || d.Hops() != 255 || d.Kind() != 255 || d.Dst() != p.Dst || d.Size() != 1<<31-1 {
		t.Fatalf("after a mark and a hop: flags %b, hops %d, kind %d, dst %d, size %d", d.Flags(), d.Hops(), d.Kind(), d.Dst(), d.Size())
	}
	d.AddHop() // a uint8 count wraps, as Packet.Hops does, without touching Kind
	if d.Hops() != 0 || d.Kind() != 255 {
		t.Fatalf("hops %d, kind %d after wrapping, want 0 and 255", d.Hops(), d.Kind())
	}
	if b := s.Packets().Body(&d); b != p || b.Flags != FlagECT|FlagAECN|FlagCE || b.Hops != 0 || b.Kind != 255 {
		t.Fatalf("body written back: flags %b, hops %d", b.Flags, b.Hops)
	}
	p.Dst = -1 // a negative NodeID survives the packing
	if d := p.Desc(); d.Dst() != -1 {
		t.Fatalf("Dst %d, want -1", d.Dst())
	}
}
