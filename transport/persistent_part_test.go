package transport

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"syncsim/netsim"
)

// poster posts messages on persistent connections from its host to random
// other hosts at random times, from its own stream, on its host's Sim: on
// a partitioned network inside windows. Each done logs the message on
// its destination's log (written on the destination's partition).
type poster struct {
	p     *Persistent
	h     *netsim.Host
	idx   int
	hosts []*netsim.Host
	logs  []strings.Builder
	rng   *rand.Rand
	seq   int
	left  int
}

func (o *poster) HandleEvent(netsim.Event) {
	if o.left == 0 {
		return
	}
	o.left--
	d := o.rng.IntN(len(o.hosts) - 1)
	if d >= o.idx {
		d++
	}
	log := &o.logs[d]
	size := netsim.Bytes(o.rng.IntN(30_000)) // zero-size messages too
	lat := netsim.Time(o.rng.IntN(3)) * netsim.Microsecond
	o.seq++
	seq, sim := o.seq, o.h.Sim()
	o.p.Send(o.h.ID(), o.hosts[d].ID(), size, netsim.BulkOpts{StartLatency: lat}, func() {
		fmt.Fprintf(log, "%d->%d #%d %d B done %d\n", o.idx, d, seq, size, o.hosts[d].Sim().Now())
	})
	sim.Schedule(sim.Now()+netsim.Time(o.rng.ExpFloat64()*float64(3*netsim.Microsecond)), o, 0, nil, 0)
}

// persistentRun posts messages on a leaf-spine of 3 leaves of 2 hosts
// (spines spines) on the parallel engine at the given threads (0:
// unpartitioned) and returns the done logs and the Persistent.
func persistentRun(t *testing.T, threads, spines, per int) (string, *Persistent) {
	t.Helper()
	net, hosts, cfg := smallLeafSpine(t, 7, spines, threads)
	sim := net.Sim
	p := NewStack(net, cfg).Persistent()
	logs := make([]strings.Builder, len(hosts))
	for i, h := range hosts {
		o := &poster{p: p, h: h, idx: i, hosts: hosts, logs: logs, rng: sim.Rand("poster/" + h.Name()), left: per}
		h.Sim().Schedule(netsim.Time(o.rng.IntN(1000))*netsim.Nanosecond, o, 0, nil, 0)
	}
	sim.Run(netsim.Never)
	var out strings.Builder
	for i := range logs {
		fmt.Fprintf(&out, "host %d\n%s", i, logs[i].String())
	}
	return out.String(), p
}

// TestPersistentPartitioned: messages posted inside the windows of a
// parallel run on connections crossing partitions all complete, their
// dones run on the receiver in the order posted per pair, the folded
// counters balance, and the logs are the same at 1, 2, 3 and 8 threads.
func TestPersistentPartitioned(t *testing.T) {
	ref, p := persistentRun(t, 1, 2, 30)
	if p.Messages != 6*30 || p.Done != p.Messages {
		t.Fatalf("messages %d, done %d; want %d each", p.Messages, p.Done, 6*30)
	}
	cross := 0
	for _, c := range p.Conns() {
		if c.Queued() != 0 {
			t.Fatalf("connection %d->%d keeps %d messages", c.Flow().Src, c.Flow().Dst, c.Queued())
		}
		if c.cross {
			cross++
		}
	}
	if cross == 0 {
		t.Fatal("no connection crosses partitions")
	}
	// FIFO per pair: each pair's message numbers rise in its log.
	last := map[string]int{}
	for _, line := range strings.Split(ref, "\n") {
		var a, b, seq int
		if n, _ := fmt.Sscanf(line, "%d->%d #%d", &a, &b, &seq); n == 3 {
			k := fmt.Sprint(a, b)
			if seq <= last[k] {
				t.Fatalf("pair %s: message %d done after %d", k, seq, last[k])
			}
			last[k] = seq
		}
	}
	for _, n := range []int{2, 3, 8} {
		if got, _ := persistentRun(t, n, 2, 30); got != ref {
			t.Fatalf("threads=%d: dones differ from threads=1", n)
		}
	}
}

// pairRun posts msgs messages from a host of one leaf to a host of
// another (one spine, a single path) inside the run, each when the one
// before it is done, and returns the dones' log.
func pairRun(t *testing.T, partitioned bool, msgs int) string {
	t.Helper()
	sim := netsim.New(3)
	net := netsim.NewNetwork(sim)
	spine := addSwitch(net, "spine")
	var hosts []*netsim.Host
	for l := 0; l < 2; l++ {
		leaf := addSwitch(net, fmt.Sprint("leaf", l))
		h := net.AddHost(fmt.Sprint("h", l))
		net.Connect(h.ID(), leaf.ID(), 10*netsim.Gbps, netsim.Microsecond, newECNQueue(60_000, 20), newECNQueue(60_000, 20))
		net.Connect(leaf.ID(), spine.ID(), 10*netsim.Gbps, 2*netsim.Microsecond, newECNQueue(60_000, 20), newECNQueue(60_000, 20))
		hosts = append(hosts, h)
	}
	if partitioned {
		if _, err := net.Partition(net.AutoPartition(0)); err != nil {
			t.Fatal(err)
		}
		if hosts[0].Sim() == hosts[1].Sim() {
			t.Fatal("the two hosts share a partition")
		}
	}
	p := NewStack(net, DefaultConfig()).Persistent()
	var log strings.Builder
	var send func(k int)
	send = func(k int) {
		size := netsim.Bytes(10_000 * (k + 1))
		// Two messages at once: the second's done follows the first's.
		for m := 0; m < 2; m++ {
			p.Send(hosts[0].ID(), hosts[1].ID(), size, netsim.BulkOpts{StartLatency: netsim.Time(m) * netsim.Microsecond}, func() {
				fmt.Fprintf(&log, "#%d.%d done %d\n", k, m, hosts[1].Sim().Now())
				if m == 1 && k+1 < msgs {
					// From the receiver's partition: the next pair starts
					// at the sender by a message (as a credit would).
					s1 := hosts[1].Sim()
					s1.Post(hosts[0].Sim().Partition(), s1.Now()+2*netsim.Microsecond, func() { send(k + 1) })
				}
			})
		}
	}
	hosts[0].Sim().AfterFunc(0, func() { send(0) })
	sim.Run(netsim.Never)
	if p.Done != uint64(2*msgs) {
		t.Fatalf("%d of %d messages done", p.Done, 2*msgs)
	}
	return log.String()
}

// TestPersistentPartitionedInstants: on a single path with nothing else
// on it, the dones run at the same instants as on an unpartitioned
// network: handing each message's done to the receiver's partition one
// lookahead after it was posted changes nothing.
func TestPersistentPartitionedInstants(t *testing.T) {
	seq := pairRun(t, false, 6)
	if par := pairRun(t, true, 6); par != seq || strings.Count(seq, "done") != 12 {
		t.Fatalf("partitioned dones differ from unpartitioned:\n%s\n---\n%s", par, seq)
	}
}
