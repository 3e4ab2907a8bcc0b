package transport

import (
	"testing"

	"syncsim/netsim"
)

// fanOut is one sender host whose 100 Gbps NIC queue holds 256 KB, a
// switch, and 8 receivers on their own 100 Gbps links (switch ports
// unlimited, marking at K = 65): the sender's NIC is the only bottleneck.
func fanOut(flowCtl bool) (*netsim.Network, *netsim.Host, []*netsim.Host, *netsim.Port) {
	net := netsim.NewNetwork(netsim.New(1))
	sw := addSwitch(net, "sw")
	src := net.AddHost("src")
	nic, _ := net.Connect(src.ID(), sw.ID(), 100*netsim.Gbps, netsim.Microsecond, netsim.NewFIFO(256000), nil)
	var dsts []*netsim.Host
	for i := 0; i < 8; i++ {
		d := net.AddHost("dst")
		net.Connect(sw.ID(), d.ID(), 100*netsim.Gbps, netsim.Microsecond, newECNQueue(0, 65), nil)
		dsts = append(dsts, d)
	}
	net.BuildRoutes()
	src.SetNICFlowControl(flowCtl)
	return net, src, dsts, nic
}

// TestHostWithEightFlows: one host with 8 long-lived DCTCP flows to 8
// destinations. With NIC flow control (and TCP small queues) it drops
// nothing and the flows share the NIC fairly at line rate; with a
// drop-tail NIC, the earlier model, slow start overruns the host's own
// queue.
func TestHostWithEightFlows(t *testing.T) {
	const warm, end = 2 * netsim.Millisecond, 12 * netsim.Millisecond
	for _, fc := range []bool{true, false} {
		net, src, dsts, nic := fanOut(fc)
		st := NewStack(net, DefaultConfig())
		var flows []*Flow
		for _, d := range dsts {
			flows = append(flows, st.Start(src.ID(), d.ID(), FlowOpts{}, nil))
		}
		net.Sim.Run(warm)
		at := make([]netsim.Bytes, len(flows))
		for i, f := range flows {
			at[i] = f.Delivered()
		}
		net.Sim.Run(end)
		var rates []float64
		var sum float64
		for i, f := range flows {
			r := float64(f.Delivered()-at[i]) * 8 / (end - warm).Seconds() / 1e9
			rates = append(rates, r)
			sum += r
		}
		if err := net.CheckConservation(); err != nil {
			t.Fatal(err)
		}
		t.Logf("flow control %v: goodput %.2f Gbit/s, Jain %.5f, NIC drops %d, deferred %d", fc, sum, jain(rates), nic.Drops, src.NICStats().Deferred)
		if !fc {
			if nic.Drops == 0 {
				t.Errorf("drop-tail NIC: no drops at the sender's own NIC (the test cannot tell the models apart)")
			}
			continue
		}
		if nic.Drops != 0 || net.Stats().Dropped != 0 {
			t.Errorf("NIC drops %d, network drops %d; want none", nic.Drops, net.Stats().Dropped)
		}
		// Line rate: 100 Gbit/s of 1500-byte segments carrying 1460 B.
		if line := 100 * 1460.0 / 1500; sum < 0.98*line || sum > line*1.001 {
			t.Errorf("goodput %.2f Gbit/s, want within 2%% of line rate %.2f", sum, line)
		}
		if j := jain(rates); j < 0.999 {
			t.Errorf("Jain's index %.5f over %v Gbit/s, want >= 0.999", j, rates)
		}
		for _, f := range flows {
			if f.Timeouts != 0 || f.Retransmits != 0 {
				t.Errorf("flow %d: %d timeouts, %d retransmits", f.ID, f.Timeouts, f.Retransmits)
			}
			if f.inHost > st.cfg.TSQBytes+f.st.cfg.MSS+f.st.cfg.HeaderBytes {
				t.Errorf("flow %d holds %d B in its host, above TCP small queues' %d", f.ID, f.inHost, st.cfg.TSQBytes)
			}
		}
	}
}

// TestTSQLimit checks the small-queues limit by hand: 1 ms at the pacing
// rate, at least two segments, at most the cap.
func TestTSQLimit(t *testing.T) {
	const seg, capB = 1500, 1 << 20
	for _, c := range []struct {
		name           string
		cwnd, ssthresh netsim.Bytes
		srtt           netsim.Time
		want           netsim.Bytes
	}{
		// 100 KB over 10 us in slow start: 2 x 10 GB/s = 20 GB/s, /1024 = 19.5 MB: the cap.
		{"datacenter slow start", 100000, 1 << 40, 10 * netsim.Microsecond, capB},
		// 15 KB over 100 ms after slow start: 1.2 x 150 KB/s = 180 KB/s, /1024 = 175 B: two segments.
		{"wan", 15000, 10000, 100 * netsim.Millisecond, 2 * seg},
		// 1 MB over 10 ms in congestion avoidance: 120 MB/s /1024 = 117187 B.
		{"middle", 1000000, 1, 10 * netsim.Millisecond, 117187},
		{"no sample", 15000, 1 << 40, 0, capB},
	} {
		if got := TSQLimit(c.cwnd, c.ssthresh, c.srtt, seg, capB); got != c.want {
			t.Errorf("%s: limit %d B, want %d", c.name, got, c.want)
		}
	}
}
