package inagg

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// lossyQueue drops each arriving packet with probability p (seeded), then
// defers to the wrapped queue.
type lossyQueue struct {
	netsim.Queue
	p       float64
	rng     *rand.Rand
	dropped int
}

func (q *lossyQueue) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	if q.rng.Float64() < q.p {
		q.dropped++
		return false
	}
	return q.Queue.Enqueue(p, now)
}

// lossyStar is a star whose every port (host NICs and switch ports) drops
// packets with probability p.
func lossyStar(t testing.TB, workers int, p float64, agg AggregatorConfig, seed uint64) (*star, []*lossyQueue) {
	t.Helper()
	sim := netsim.New(seed)
	net := netsim.NewNetwork(sim)
	sw := switchmodel.Add(net, "sw")
	s := &star{net: net, sw: sw}
	var qs []*lossyQueue
	add := func(name string) *netsim.Host {
		h := net.AddHost(name)
		up := &lossyQueue{Queue: netsim.NewFIFO(0), p: p, rng: sim.Rand("loss/up/" + name)}
		down := &lossyQueue{Queue: switchmodel.NewQueue(sim, switchmodel.QueueConfig{}), p: p, rng: sim.Rand("loss/down/" + name)}
		net.Connect(h.ID(), sw.ID(), 100*netsim.Gbps, 2*netsim.Microsecond, up, down)
		qs = append(qs, up, down)
		return h
	}
	for i := 0; i < workers; i++ {
		s.workers = append(s.workers, add(fmt.Sprintf("w%d", i)))
	}
	s.ps = add("ps")
	net.BuildRoutes()
	if agg.Memory == 0 {
		agg = DefaultAggregatorConfig()
	}
	a, err := NewAggregator(sw, agg)
	if err != nil {
		t.Fatal(err)
	}
	s.agg = a
	return s, qs
}

func TestProtocolsRecoverFromLoss(t *testing.T) {
	mems := []struct {
		name string
		mem  netsim.Bytes
	}{
		{"large-memory", 10 * netsim.MiB},
		{"tiny-memory", 8 * AggregatorBytes}, // constant collisions and overflow to the PS
	}
	// SwitchML runs with the client's pool (the default) and with one BDP.
	names := append(ProtocolNames(), "switchml-bdp-pool")
	for _, name := range names {
		for _, m := range mems {
			if strings.HasPrefix(name, "switchml") && m.name == "tiny-memory" {
				continue // a SwitchML pool must fit; covered by TestSwitchMLPoolMustFit
			}
			t.Run(name+"/"+m.name, func(t *testing.T) {
				p, pname := DefaultParams(), name
				if name == "switchml-bdp-pool" {
					pname, p.SwitchMLPool = "switchml", 0
				}
				proto, _ := ParseProtocol(pname)
				cfg := DefaultAggregatorConfig()
				cfg.Memory = m.mem
				cfg.BDPPackets = 64
				s, qs := lossyStar(t, 5, 0.01, cfg, 11)
				j := s.job(t, JobConfig{ID: 1, Protocol: proto, Gradient: 100 * netsim.Kilobyte, Iterations: 3, Params: &p})
				dropped, ws := runLossy(t, s, qs, j)
				t.Logf("dropped %d, AJCT %v, %+v, ps %+v", dropped, j.AJCT(), ws, j.PSStats())
			})
		}
	}
}

// TestATPThreadsRecoverFromLoss runs ATP's thread layouts through 1% loss
// on every port, with ample and with tiny aggregator memory: one window,
// the client's 12 x 100, small windows that fast retransmit and time out
// often, and fixed windows. Every result must arrive exactly right, no
// aggregator may leak and every packet must be accounted for.
func TestATPThreadsRecoverFromLoss(t *testing.T) {
	for _, tc := range []struct {
		name            string
		threads, window int
		cc              bool
	}{
		{"1x100", 1, 100, true},
		{"12x100", 12, 100, true},
		{"5x3", 5, 3, true},
		{"12x100-fixed", 12, 100, false},
	} {
		for _, mem := range []netsim.Bytes{10 * netsim.MiB, 8 * AggregatorBytes} {
			t.Run(fmt.Sprintf("%s/%dB", tc.name, mem), func(t *testing.T) {
				cfg := DefaultAggregatorConfig()
				cfg.Memory = mem
				s, qs := lossyStar(t, 5, 0.01, cfg, 13)
				p := DefaultParams()
				p.ATPThreads, p.ATPThreadWindow, p.ATPCC = tc.threads, tc.window, tc.cc
				j := s.job(t, JobConfig{ID: 2, Protocol: ATP, Gradient: 200 * netsim.Kilobyte, Iterations: 3, Params: &p})
				dropped, ws := runLossy(t, s, qs, j)
				t.Logf("dropped %d, AJCT %v, %+v", dropped, j.AJCT(), ws)
			})
		}
	}
}

// runLossy runs a lossy star to the end and checks that packets were
// dropped, that they were retransmitted and that the books of j hold.
func runLossy(t *testing.T, s *star, qs []*lossyQueue, j *Job) (int, WorkerStats) {
	t.Helper()
	s.net.Sim.Run(10 * netsim.Second)
	dropped := 0
	for _, q := range qs {
		dropped += q.dropped
	}
	if dropped == 0 {
		t.Fatal("no packet was dropped; the test exercises nothing")
	}
	checkAll(t, s, j)
	ws := j.TotalWorkerStats()
	if ws.Retransmits == 0 {
		t.Fatalf("%d packets dropped but no retransmission", dropped)
	}
	return dropped, ws
}
