package transport

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"syncsim/netsim"
)

// opener opens flows from its host at random times, sizes and
// destinations, from its own stream, on its host's Sim: on a partitioned
// network inside windows.
type opener struct {
	st    *Stack
	h     *netsim.Host
	hosts []*netsim.Host
	logs  []strings.Builder // per destination host, written where flows complete
	rng   *rand.Rand
	left  int
	flows *[]*Flow
}

func (o *opener) HandleEvent(netsim.Event) {
	if o.left == 0 {
		return
	}
	o.left--
	d := o.rng.IntN(len(o.hosts) - 1)
	if o.hosts[d] == o.h {
		d = len(o.hosts) - 1
	}
	log := &o.logs[d]
	size := netsim.Bytes(1 + o.rng.IntN(40_000))
	f := o.st.Start(o.h.ID(), o.hosts[d].ID(), FlowOpts{Size: size}, func(f *Flow) {
		fmt.Fprintf(log, "flow %d %d->%d %d bytes %d..%d\n", f.ID, f.Src, f.Dst, f.Size, f.Start, f.End)
	})
	*o.flows = append(*o.flows, f)
	sim := o.h.Sim()
	sim.Schedule(sim.Now()+netsim.Time(o.rng.ExpFloat64()*float64(2*netsim.Microsecond)), o, 0, nil, 0)
}

// postedRun opens flows inside the run on a leaf-spine (3 leaves of 2
// hosts, 2 spines, small ECN buffers so that some segments drop), on the
// parallel engine at the given threads (0: unpartitioned), and returns
// the completion logs, the flows and the hosts.
func postedRun(t *testing.T, threads int) (string, []*Flow, []*netsim.Host, *Stack) {
	t.Helper()
	net, hosts, cfg := smallLeafSpine(t, 5, 2, threads)
	sim := net.Sim
	st := NewStack(net, cfg)
	logs := make([]strings.Builder, len(hosts))
	var all []*Flow
	var ops []*opener
	for _, h := range hosts {
		o := &opener{st: st, h: h, hosts: hosts, logs: logs, rng: sim.Rand("opener/" + h.Name()), left: 25}
		// Each opener keeps its own list: it is written on its host's
		// partition only.
		o.flows = new([]*Flow)
		h.Sim().Schedule(netsim.Time(o.rng.IntN(1000))*netsim.Nanosecond, o, 0, nil, 0)
		ops = append(ops, o)
	}
	sim.Run(netsim.Never)
	var out strings.Builder
	for i := range logs {
		fmt.Fprintf(&out, "host %d\n%s", i, logs[i].String())
	}
	for _, o := range ops {
		all = append(all, *o.flows...)
	}
	return out.String(), all, hosts, st
}

// TestFlowsOpenedInWindows: flows opened inside the windows of a parallel
// run, most of them to other partitions, all complete with every byte,
// leave no endpoint registered, and give the same completions at 1, 2, 3
// and 8 threads; an unpartitioned run moves the same bytes.
func TestFlowsOpenedInWindows(t *testing.T) {
	ref, flows, hosts, st := postedRun(t, 1)
	var bytes netsim.Bytes
	posted := 0
	for _, f := range flows {
		if !f.Done() || f.Delivered() != f.Size {
			t.Fatalf("flow %d %d->%d: done %v, delivered %d of %d", f.ID, f.Src, f.Dst, f.Done(), f.Delivered(), f.Size)
		}
		if f.posted {
			posted++
		}
		bytes += f.Size
	}
	if len(flows) != 6*25 || posted < len(flows)/2 || st.Completed != uint64(len(flows)) || st.Retransmits == 0 {
		t.Fatalf("%d flows, %d to other partitions, %d completed, %d retransmits", len(flows), posted, st.Completed, st.Retransmits)
	}
	for _, h := range hosts {
		if n, byFlow := h.Endpoints(); n != 0 || byFlow != 0 {
			t.Fatalf("host %s keeps %d endpoints (%d by flow) after every flow closed", h.Name(), n, byFlow)
		}
	}
	for _, n := range []int{2, 3, 8} {
		got, _, _, _ := postedRun(t, n)
		if got != ref {
			t.Fatalf("threads=%d: completions differ from threads=1", n)
		}
	}
	_, seq, _, sst := postedRun(t, 0)
	var sbytes netsim.Bytes
	for _, f := range seq {
		sbytes += f.Size
	}
	if sbytes != bytes || sst.Completed != uint64(len(seq)) {
		t.Fatalf("unpartitioned: %d bytes in %d completed flows; partitioned %d bytes", sbytes, sst.Completed, bytes)
	}
}

// smallLeafSpine builds a leaf-spine of 3 leaves of 2 hosts and the given
// spines (10 Gbps, small ECN buffers so that some segments drop), on the
// parallel engine at the given threads (0: unpartitioned), and a DCTCP
// transport configuration with a 100 us minimum RTO for it.
func smallLeafSpine(t *testing.T, seed uint64, spines, threads int) (*netsim.Network, []*netsim.Host, Config) {
	t.Helper()
	sim := netsim.New(seed)
	net := netsim.NewNetwork(sim)
	var hosts []*netsim.Host
	var sps []*testSwitch
	for j := 0; j < spines; j++ {
		sps = append(sps, addSwitch(net, fmt.Sprint("spine", j)))
	}
	for l := 0; l < 3; l++ {
		leaf := addSwitch(net, fmt.Sprint("leaf", l))
		for i := 0; i < 2; i++ {
			h := net.AddHost(fmt.Sprintf("h%d.%d", l, i))
			net.Connect(h.ID(), leaf.ID(), 10*netsim.Gbps, netsim.Microsecond, newECNQueue(60_000, 20), newECNQueue(12_000, 5))
			hosts = append(hosts, h)
		}
		for _, sp := range sps {
			net.Connect(leaf.ID(), sp.ID(), 10*netsim.Gbps, 2*netsim.Microsecond, newECNQueue(12_000, 5), newECNQueue(12_000, 5))
		}
	}
	if threads > 0 {
		if _, err := net.Partition(net.AutoPartition(0)); err != nil {
			t.Fatal(err)
		}
		if err := sim.SetThreads(threads); err != nil {
			t.Fatal(err)
		}
	}
	cfg := DefaultConfig()
	cfg.CC = DCTCP
	cfg.MinRTO = 100 * netsim.Microsecond
	return net, hosts, cfg
}
