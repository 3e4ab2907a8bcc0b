package background

import (
	"bytes"
	"testing"

	"syncsim/netsim"
)

// TestNodeIP checks third.cc's node_id_to_ip by hand (11.0.x.1 for x <
// 256, the next byte above) and that ip_to_node_id inverts it.
func TestNodeIP(t *testing.T) {
	for id, want := range map[int]uint32{0: 0x0b000001, 1: 0x0b000101, 255: 0x0b00ff01, 256: 0x0b010001, 1000: 0x0b03e801} {
		if got := NodeIP(id); got != want {
			t.Errorf("NodeIP(%d) = %08x, want %08x", id, got, want)
		}
	}
	for id := 0; id < 1<<16; id++ {
		if got := IPNode(NodeIP(id)); got != id {
			t.Fatalf("IPNode(NodeIP(%d)) = %d", id, got)
		}
	}
}

// TestIdealFCT works qp_finish's standalone FCT by hand on a path of
// mixed rates: host 100 Gbps 1 us, two 40 Gbps 2 us links, host 100 Gbps
// 1 us; 3000 B with 1000 B payloads and 48 B headers:
// base RTT 2 x 6000 + (80 + 200 + 200 + 80) = 12560 ns; 3 packets, 3144 B
// at the slowest 40 Gbps = 628.8, rounded down: 13188 ns.
func TestIdealFCT(t *testing.T) {
	hops := []Hop{
		{Delay: netsim.Microsecond, Rate: 100 * netsim.Gbps}, {Delay: 2 * netsim.Microsecond, Rate: 40 * netsim.Gbps},
		{Delay: 2 * netsim.Microsecond, Rate: 40 * netsim.Gbps}, {Delay: netsim.Microsecond, Rate: 100 * netsim.Gbps},
	}
	if got := IdealFCT(hops, 3000, 1000, 48); got != 13188 {
		t.Errorf("IdealFCT = %d ns, want 13188", got)
	}
	// One byte is one packet: 12560 + (1 + 48) x 8 / 40 = 9.8 -> 9.
	if got := IdealFCT(hops, 1, 1000, 48); got != 12569 {
		t.Errorf("IdealFCT(1 B) = %d ns, want 12569", got)
	}
}

// TestFCTLines: source ports count every flow of a source in start order
// (one never acknowledged included, as third.cc numbers them at start),
// lines come in acknowledgement order, and the layout is qp_finish's.
func TestFCTLines(t *testing.T) {
	hosts := []netsim.NodeID{7, 8, 9}
	m := IndexHostMap(hosts)
	us := netsim.Microsecond
	recs := []*FlowRecord{
		{Flow: Flow{ID: 0, Src: 7, Dst: 8, Size: 10, Start: 1 * us}, Acked: 50 * us, AckedDone: true, DPort: 100},
		{Flow: Flow{ID: 1, Src: 7, Dst: 9, Size: 20, Start: 2 * us}, DPort: 100}, // never acknowledged
		{Flow: Flow{ID: 2, Src: 7, Dst: 8, Size: 30, Start: 3 * us}, Acked: 10 * us, AckedDone: true, DPort: 200},
		{Flow: Flow{ID: 3, Src: 9, Dst: 7, Size: 40, Start: 3 * us}, Acked: 10 * us, AckedDone: true, DPort: 100},
	}
	lines, err := FCTLines(recs, m, func(r *FlowRecord) int64 { return int64(r.Size) * 100 })
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteFCT(&b, lines); err != nil {
		t.Fatal(err)
	}
	const want = "0b000001 0b000101 10002 200 30 3000 7000 3000\n" +
		"0b000201 0b000001 10000 100 40 3000 7000 4000\n" +
		"0b000001 0b000101 10000 100 10 1000 49000 1000\n"
	if b.String() != want {
		t.Errorf("fct.txt:\n%s\nwant:\n%s", b.String(), want)
	}
}
