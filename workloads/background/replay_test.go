package background

import (
	"strings"
	"testing"

	"syncsim/netsim"
)

// TestReplayStartsEveryFlow: a replay starts each flow at its time with
// its hosts and size (several at one instant included), draws nothing
// from the random streams, and keeps the records RecordFlows asks for,
// completions and acknowledgements from the engine's callbacks.
func TestReplayStartsEveryFlow(t *testing.T) {
	hosts := hostIDs(4)
	replay := []Replay{
		{Src: hosts[0], Dst: hosts[1], Size: 100, Start: 5 * netsim.Microsecond},
		{Src: hosts[2], Dst: hosts[3], Size: 1, Start: 5 * netsim.Microsecond, DPort: 200, Priority: 1},
		{Src: hosts[3], Dst: hosts[0], Size: 1 << 20, Start: netsim.Millisecond},
	}
	sim := netsim.New(1)
	b := &ackBulk{instantBulk: &instantBulk{}}
	g, err := New(sim, b, Config{Replay: replay, Hosts: hosts, HostRate: netsim.Gbps, Stop: netsim.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.RecordFlows(); err != nil {
		t.Fatal(err)
	}
	g.Start()
	sim.Run(netsim.Second)
	if g.Started() != len(replay) || len(g.Flows()) != len(replay) {
		t.Fatalf("started %d, %d records; want %d", g.Started(), len(g.Flows()), len(replay))
	}
	for i, f := range g.Flows() {
		r := replay[i]
		if f.Src != r.Src || f.Dst != r.Dst || f.Size != r.Size || f.Start != r.Start || !f.Done {
			t.Errorf("flow %d: %+v, want %+v", i, f, r)
		}
		rec := g.Records()[i]
		if !rec.Done || !rec.AckedDone || rec.Acked != r.Start || rec.DPort != r.DPort || rec.Priority != r.Priority {
			t.Errorf("record %d: %+v", i, rec)
		}
	}
	if g.Records()[0].DPort != 0 || g.Records()[1].DPort != 200 {
		t.Errorf("ports %d, %d; want the replay's 0 and 200", g.Records()[0].DPort, g.Records()[1].DPort)
	}
	// The generator's streams are untouched: their next draws are a
	// fresh stream's first.
	for name, r := range map[string]interface{ Uint64() uint64 }{StreamArrivals: g.arrivals, StreamSizes: g.sizes, StreamPairs: g.pairs} {
		if a, b := r.Uint64(), netsim.Stream(1, name).Uint64(); a != b {
			t.Errorf("stream %s was drawn from", name)
		}
	}
}

// ackBulk is instantBulk that also acknowledges at once.
type ackBulk struct{ *instantBulk }

func (b *ackBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	b.instantBulk.Send(src, dst, size, opts, done)
	if opts.Acked != nil {
		opts.Acked()
	}
}

// TestReplayRejectsBadFlows: a replay with a flow from a host to itself, of
// no bytes, out of order or at or after Stop is refused.
func TestReplayRejectsBadFlows(t *testing.T) {
	h := hostIDs(2)
	for _, c := range []struct {
		r    []Replay
		want string
	}{
		{[]Replay{{Src: h[0], Dst: h[0], Size: 1}}, "to itself"},
		{[]Replay{{Src: h[0], Dst: h[1]}}, "size 0"},
		{[]Replay{{Src: h[0], Dst: h[1], Size: 1, Start: 2}, {Src: h[1], Dst: h[0], Size: 1, Start: 1}}, "before"},
		{[]Replay{{Src: h[0], Dst: h[1], Size: 1, Start: netsim.Second}}, "not before stop"},
	} {
		_, err := New(netsim.New(1), &instantBulk{}, Config{Replay: c.r, Hosts: h, HostRate: netsim.Gbps, Stop: netsim.Second})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want an error with %q", c.r, err, c.want)
		}
	}
}
