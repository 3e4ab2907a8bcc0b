package inagg

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// star is W workers and a PS on one aggregating switch.
type star struct {
	net     *netsim.Network
	sw      *switchmodel.Switch
	agg     *Aggregator
	workers []*netsim.Host
	ps      *netsim.Host
	down    []*switchmodel.PortQueue // switch->host queues, workers then PS
}

type starCfg struct {
	workers int
	rate    netsim.Rate
	delay   netsim.Time
	queue   switchmodel.QueueConfig
	agg     AggregatorConfig
	seed    uint64
	// slowRate, if set, is the link rate of the last worker (a straggler).
	slowRate netsim.Rate
}

func newStar(t testing.TB, c starCfg) *star {
	t.Helper()
	if c.rate == 0 {
		c.rate = 100 * netsim.Gbps
	}
	if c.delay == 0 {
		c.delay = 2 * netsim.Microsecond
	}
	if c.agg.Memory == 0 {
		c.agg = DefaultAggregatorConfig()
	}
	sim := netsim.New(c.seed + 1)
	net := netsim.NewNetwork(sim)
	sw := switchmodel.Add(net, "sw")
	s := &star{net: net, sw: sw}
	add := func(name string, rate netsim.Rate) *netsim.Host {
		h := net.AddHost(name)
		q := switchmodel.NewQueue(sim, c.queue)
		net.Connect(h.ID(), sw.ID(), rate, c.delay, nil, q)
		s.down = append(s.down, q)
		return h
	}
	for i := 0; i < c.workers; i++ {
		r := c.rate
		if i == c.workers-1 && c.slowRate > 0 {
			r = c.slowRate
		}
		s.workers = append(s.workers, add("w", r))
	}
	s.ps = add("ps", c.rate)
	net.BuildRoutes()
	agg, err := NewAggregator(sw, c.agg)
	if err != nil {
		t.Fatal(err)
	}
	s.agg = agg
	return s
}

// job adds and starts a job on the star.
func (s *star) job(t testing.TB, cfg JobConfig) *Job {
	t.Helper()
	if cfg.Workers == nil {
		cfg.Workers = s.workers
	}
	if cfg.PS == nil {
		cfg.PS = s.ps
	}
	if cfg.Switch == nil {
		cfg.Switch = s.agg
	}
	j, err := NewJob(s.net, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	return j
}

// checkAll verifies the jobs' books, the switch's leaks and packet
// conservation after a run.
func checkAll(t testing.TB, s *star, jobs ...*Job) {
	t.Helper()
	checkBooks(t, s.net, s.agg, jobs...)
}

// checkBooks checks every job's sums, that agg holds no aggregator of a
// finished job, packet conservation on net and the packet pool.
func checkBooks(t testing.TB, net *netsim.Network, agg *Aggregator, jobs ...*Job) {
	t.Helper()
	for _, j := range jobs {
		if err := j.Check(); err != nil {
			t.Fatal(err)
		}
	}
	if err := agg.CheckLeaks(); err != nil {
		t.Fatal(err)
	}
	if err := net.CheckConservation(); err != nil {
		t.Fatal(err)
	}
	if live, fl := net.Sim.Packets().Live(), net.InFlight(); live != int64(fl) {
		t.Fatalf("packet pool: %d live packets but %d in flight", live, fl)
	}
}
