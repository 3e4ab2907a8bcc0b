package netsim

import "testing"

// TestEventMix counts each kind of event on a path whose events are known:
// three packets sent at once from a through a router to b, at one rate on
// both links. At a's port the second and third wait, so they start by
// event (2 starts); each reaches the router just as its port frees, so
// they go out at once there (no start); every packet arrives at the end of
// two links at distinct times (6 arrivals); one timer (1 other).
func TestEventMix(t *testing.T) {
	s, net, a, b, k, ep := throughRouter(10*Gbps, nil)
	fired := false
	s.AfterFunc(Microsecond, func() { fired = true })
	sendN(net, a, b.ID(), ep, 3, 1500, 1)
	s.Run(Never)
	if len(k.times) != 3 || !fired {
		t.Fatalf("delivered %d packets, timer fired %v", len(k.times), fired)
	}
	arrivals, starts, others := s.EventMix()
	if arrivals != 6 || starts != 2 || others != 1 {
		t.Errorf("event mix %d arrivals, %d starts, %d others; want 6, 2, 1", arrivals, starts, others)
	}
	if n := arrivals + starts + others; n != s.Events() {
		t.Errorf("the mix sums to %d events, Events says %d", n, s.Events())
	}
}
