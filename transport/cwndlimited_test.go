package transport

import (
	"testing"

	"syncsim/netsim"
)

// TestWindowGrowsOnlyWhenItLimits sends messages on a persistent connection
// over a cable with a long delay (no loss, no marks) and checks RFC 7661's
// rule: the window grows only while it limits the sender. Messages of two
// segments, each posted when the receiver holds the previous one (so at
// most four segments are in flight, less than half the ten-segment initial
// window), leave the window at ten segments however many round trips they
// take; a message larger than the window grows it by slow start.
func TestWindowGrowsOnlyWhenItLimits(t *testing.T) {
	cfg := DefaultConfig()
	mss := cfg.MSS
	iw := netsim.Bytes(cfg.InitCwndPkts) * mss
	net, a, b := pair(10*netsim.Gbps, 100*netsim.Microsecond, nil)
	st := NewStack(net, cfg)
	p := st.Persistent()
	small := 2 * mss
	var sendSmall func(k int)
	sendSmall = func(k int) {
		if k == 0 {
			return
		}
		p.Send(a.ID(), b.ID(), small, netsim.BulkOpts{}, func() { sendSmall(k - 1) })
	}
	sendSmall(20)
	net.Sim.Run(netsim.Never)
	f := p.Conn(a.ID(), b.ID()).Flow()
	if f.Cwnd() != iw {
		t.Fatalf("after 20 application-limited messages of 2 segments the window is %d B, want the initial %d B", f.Cwnd(), iw)
	}
	p.Send(a.ID(), b.ID(), 100*mss, netsim.BulkOpts{}, nil)
	net.Sim.Run(netsim.Never)
	if f.Cwnd() <= 2*iw {
		t.Fatalf("a 100-segment message left the window at %d B: slow start did not grow it", f.Cwnd())
	}
}
