package setup

import (
	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/transport"
)

// NewSim returns the simulation of run r: seeded with r.Seed and watched
// by the harness, which sees it every experiments.TickEvents events to
// stop it when the command is interrupted, show how far it is and end it
// if it stalls (see experiments.Run.Tick). Every scenario creates its Sim
// here.
func NewSim(r *experiments.Run) *netsim.Sim {
	sim := netsim.New(r.Seed)
	sim.SetMonitor(experiments.TickEvents, func(now netsim.Time, events uint64) bool {
		return r.Tick(now.Seconds(), events)
	})
	return sim
}

// RunWindow is Window for run r, which it also tells what an automatic
// warmup_ms resolved to, so the CSV shows the warm-up that was used.
func RunWindow(r *experiments.Run, durationMs float64) (warm, end netsim.Time, err error) {
	warm, end, err = Window(r.Params, durationMs)
	if err == nil && r.Params.Float("warmup_ms") < 0 {
		r.Resolved("warmup_ms", warm.Milliseconds())
	}
	return warm, end, err
}

// PacketBook is the packet conservation account of net, as CheckBooks
// verifies it.
func PacketBook(net *netsim.Network) experiments.Book {
	s := net.Stats()
	return experiments.Book{Name: "packets", Rule: "injected = delivered + dropped + in_flight", Terms: []experiments.Term{
		{Name: "injected", Value: float64(s.Injected)}, {Name: "delivered", Value: float64(s.Delivered)},
		{Name: "dropped", Value: float64(s.Dropped)}, {Name: "in_flight", Value: float64(net.InFlight())},
	}}
}

// ValidateWindow checks that the warm-up ends before duration_ms.
func ValidateWindow(ps experiments.Params) error {
	_, _, err := Window(ps, ps.Float("duration_ms"))
	return err
}

// WatchFlows tells the harness that the flows stack completes are the
// run's progress, up to the simulated time end.
func WatchFlows(r *experiments.Run, what string, stack *transport.Stack, end netsim.Time) {
	r.Watch(experiments.Watch{What: what, Until: end.Seconds(), Count: func() float64 { return float64(stack.Completed) }})
}
