package netsim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// starParts builds a star of n hosts on one router, 1 us links, cut
// into one partition per host (the router with host 0) at the given
// threads.
func starParts(t *testing.T, n, threads int) (*Sim, []*Host) {
	t.Helper()
	s := New(11)
	net := NewNetwork(s)
	r := &prouter{}
	net.AddNode(r, KindSwitch, "r")
	var hs []*Host
	for i := 0; i < n; i++ {
		h := net.AddHost(fmt.Sprint(i))
		net.Connect(h.ID(), r.ID(), Gbps, Microsecond, nil, nil)
		hs = append(hs, h)
	}
	if _, err := net.Partition(net.AutoPartition(1)); err != nil {
		t.Fatal(err)
	}
	if len(s.Partitions()) != n {
		t.Fatalf("%d partitions, want %d", len(s.Partitions()), n)
	}
	if err := s.SetThreads(threads); err != nil {
		t.Fatal(err)
	}
	return s, hs
}

// gossip is one partition's state in the Post test: it fires local
// ticks, posts messages to random partitions at random times no earlier
// than its clock plus the lookahead, and logs what it receives.
type gossip struct {
	s     *Sim
	all   []*gossip
	rng   *rand.Rand
	log   strings.Builder
	sent  int
	got   int
	limit int
}

func (g *gossip) HandleEvent(ev Event) {
	if g.sent >= g.limit {
		return
	}
	g.sent++
	dst := g.all[g.rng.IntN(len(g.all))]
	// Bursts of messages at the same instant, so that ties happen.
	at := g.s.Now() + g.s.par.lookahead + Time(g.rng.IntN(3))*100*Nanosecond
	seq, from := g.sent, g.s.Partition()
	g.s.Post(dst.s.Partition(), at, func() {
		if dst.s.Now() != at {
			panic(fmt.Sprintf("message for %v ran at %v", at, dst.s.Now()))
		}
		dst.got++
		fmt.Fprintf(&dst.log, "%d from %d #%d\n", at, from, seq)
	})
	g.s.Schedule(g.s.Now()+Time(g.rng.IntN(700))*Nanosecond, g, 0, nil, 0)
}

// ticker is a Feeder: events at random times from one stream, each on a
// random partition, logged there.
type ticker struct {
	parts []*Sim
	logs  []*strings.Builder
	rng   *rand.Rand
	next  Time
	left  int
}

func (k *ticker) Next() Time { return k.next }

func (k *ticker) Feed(end Time) {
	for k.next < end {
		at, p, n := k.next, k.rng.IntN(len(k.parts)), k.left
		s, log := k.parts[p], k.logs[p]
		s.Schedule(at, HandlerFunc(func(Event) { fmt.Fprintf(log, "%d tick %d\n", s.Now(), n) }), 0, nil, 0)
		if k.left--; k.left == 0 {
			k.next = Never
			return
		}
		// Long gaps too, so the network idles between ticks.
		k.next += Time(k.rng.ExpFloat64() * float64(3*Microsecond))
	}
}

// postRun runs gossip and a ticker on a 5-partition star and returns the
// partitions' logs, the messages sent and received, and the events.
func postRun(t *testing.T, threads int) (string, int, int, uint64) {
	s, _ := starParts(t, 5, threads)
	var gs []*gossip
	for _, p := range s.Partitions() {
		gs = append(gs, &gossip{s: p, rng: s.Rand(fmt.Sprint("gossip/", p.Partition())), limit: 300})
	}
	var logs []*strings.Builder
	for _, g := range gs {
		g.all = gs
		g.s.Schedule(Time(g.rng.IntN(500))*Nanosecond, g, 0, nil, 0)
		logs = append(logs, &g.log)
	}
	s.AddFeeder(&ticker{parts: s.Partitions(), logs: logs, rng: s.Rand("ticker"), next: 50 * Nanosecond, left: 400})
	s.Run(Never)
	var out strings.Builder
	sent, got := 0, 0
	for i, g := range gs {
		fmt.Fprintf(&out, "partition %d\n%s", i, g.log.String())
		sent += g.sent
		got += g.got
	}
	return out.String(), sent, got, s.Events()
}

// TestPostAndFeederByteIdentical: messages between partitions run at
// their time on their partition, none is lost, a feeder's events all
// fire (also across idle stretches), and the logs are the same at 1, 2,
// 3 and 8 threads.
func TestPostAndFeederByteIdentical(t *testing.T) {
	ref, sent, got, ev := postRun(t, 1)
	if sent != 5*300 || got != sent || strings.Count(ref, " tick ") != 400 {
		t.Fatalf("sent %d, received %d, ticks %d", sent, got, strings.Count(ref, " tick "))
	}
	for _, n := range []int{2, 3, 8} {
		out, _, _, e := postRun(t, n)
		if out != ref || e != ev {
			t.Fatalf("threads=%d differs from threads=1: digest %s vs %s, events %d vs %d", n, digest(out), digest(ref), e, ev)
		}
	}
}

// TestPostRules: inside a window a message earlier than the clock plus
// the lookahead panics; between windows Post schedules at once; an
// unpartitioned Sim runs the function itself; a bad partition panics.
func TestPostRules(t *testing.T) {
	s, hs := starParts(t, 2, 1)
	ran := ""
	s.Post(1, 3*Microsecond, func() { ran += fmt.Sprintf("set-up at %d;", hs[1].Sim().Now()) })
	s.Run(Never)
	hs[0].Sim().Schedule(4*Microsecond, HandlerFunc(func(Event) {
		hs[0].Sim().Post(1, 5*Microsecond-1, func() {})
	}), 0, nil, 0)
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "now + lookahead") {
				t.Fatalf("early Post inside a window: recovered %v", r)
			}
		}()
		s.Run(Never)
	}()
	for _, bad := range []int{-1, 2} {
		func() {
			defer func() {
				if recover() == nil {
					t.Fatalf("Post to partition %d did not panic", bad)
				}
			}()
			s.Post(bad, 5*Microsecond, func() {})
		}()
	}
	u := New(1)
	u.Post(0, 7, func() { ran += fmt.Sprintf("unpartitioned at %d", u.Now()) })
	u.Run(Never)
	if want := "set-up at 3000000;unpartitioned at 7"; ran != want {
		t.Fatalf("ran %q, want %q", ran, want)
	}
}
