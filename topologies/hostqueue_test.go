package topologies

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

func TestHostNICsDoNotMark(t *testing.T) {
	net := newNet(1)
	q := switchmodel.QueueConfig{Buffer: 100 * netsim.Kilobyte, ECNPackets: 2, RED: &switchmodel.REDConfig{MinBytes: 1, MaxBytes: 2, MaxP: 1, Weight: 1}}
	f, err := Star(net, 3, 10*netsim.Gbps, us, q)
	if err != nil {
		t.Fatal(err)
	}
	sinks(f)
	// Two senders burst 20 ECT packets each into their NICs; both bursts
	// meet at the switch port towards h2.
	for _, h := range f.Hosts[:2] {
		for i := 0; i < 20; i++ {
			p := net.Sim.Packets().Get()
			p.Dst, p.Size, p.Flags = f.Hosts[2].ID(), 1000, netsim.FlagECT
			h.Send(p)
		}
	}
	net.Sim.Run(netsim.Never)
	nic := f.QueueBetween(f.Hosts[0].ID(), f.Edge[0].ID())
	if nic.MaxPackets < 10 || nic.Marked != 0 || nic.Config() != HostQueue(q) {
		t.Fatalf("NIC queue reached %d packets, marked %d, config %+v", nic.MaxPackets, nic.Marked, nic.Config())
	}
	if nic.Config().Buffer != q.Buffer {
		t.Fatalf("NIC buffer %d, want the configured %d", nic.Config().Buffer, q.Buffer)
	}
	if sw := f.QueueBetween(f.Edge[0].ID(), f.Hosts[2].ID()); sw.Marked == 0 {
		t.Fatal("switch port did not mark")
	}
	mustConserve(t, net)
}

func TestSetHostQueues(t *testing.T) {
	net := newNet(1)
	f, err := Star(net, 2, netsim.Gbps, us, q0)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetHostQueues(switchmodel.QueueConfig{Buffer: -1}); err == nil {
		t.Error("bad config accepted")
	}
	if err := f.SetHostQueues(switchmodel.QueueConfig{Shared: switchmodel.NewSharedBuffer(10, 1)}); err == nil {
		t.Error("shared buffer on a NIC accepted")
	}
	if err := f.SetHostQueues(switchmodel.QueueConfig{}); err != nil {
		t.Fatal(err)
	}
	sinks(f)
	// With an unlimited NIC buffer, a 200 KB burst (twice q0's buffer)
	// is not dropped at the NIC.
	for i := 0; i < 200; i++ {
		sendOne(f, f.Hosts[0], f.Hosts[1].ID(), 1000, 1)
	}
	if err := f.SetHostQueues(switchmodel.QueueConfig{}); err == nil {
		t.Error("queues replaced under traffic")
	}
	net.Sim.Run(netsim.Never)
	if st := net.Stats(); st.Dropped != 0 || st.Delivered != 200 {
		t.Fatalf("books %+v, want 200 delivered", st)
	}
	mustConserve(t, net)
}

// orderSink records the payload of every packet in arrival order.
type orderSink struct {
	net      *netsim.Network
	payloads []netsim.Bytes
}

func (k *orderSink) Receive(p *netsim.Packet) {
	k.payloads = append(k.payloads, p.Payload)
	k.net.Sim.Packets().Put(p)
}

// TestHostNICControlFirst queues ten data packets and then a pure ACK in a
// host's NIC. With the default host queues the ACK leaves right after the
// packet already on the wire, so it is the second arrival; with plain FIFO
// NICs (SetHostQueues without ControlFirst) it arrives last.
func TestHostNICControlFirst(t *testing.T) {
	tests := []struct {
		name   string
		set    *switchmodel.QueueConfig
		ackPos int
	}{
		{"default NIC: control first", nil, 1},
		{"FIFO NIC", &switchmodel.QueueConfig{Buffer: q0.Buffer}, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net := newNet(1)
			f, err := Star(net, 2, netsim.Gbps, us, q0)
			if err != nil {
				t.Fatal(err)
			}
			nic := f.QueueBetween(f.Hosts[0].ID(), f.Edge[0].ID())
			if c := nic.Config(); !c.ControlFirst || c.ControlBuffer != q0.Buffer || c.Buffer != q0.Buffer {
				t.Fatalf("default NIC config %+v", c)
			}
			if tc.set != nil {
				if err := f.SetHostQueues(*tc.set); err != nil {
					t.Fatal(err)
				}
			}
			k := &orderSink{net: net}
			f.Hosts[1].Register(k)
			for i := 0; i < 10; i++ {
				sendOne(f, f.Hosts[0], f.Hosts[1].ID(), 1000, 1)
			}
			ack := net.Sim.Packets().Get()
			ack.Dst, ack.Size, ack.Flow = f.Hosts[1].ID(), 40, 2
			f.Hosts[0].Send(ack)
			net.Sim.Run(netsim.Never)
			if len(k.payloads) != 11 {
				t.Fatalf("%d arrivals, want 11", len(k.payloads))
			}
			for i, pl := range k.payloads {
				if (pl == 0) != (i == tc.ackPos) {
					t.Fatalf("arrival order %v: want the ACK at position %d", k.payloads, tc.ackPos)
				}
			}
			mustConserve(t, net)
		})
	}
}
