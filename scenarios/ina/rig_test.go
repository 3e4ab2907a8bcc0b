package ina

import (
	"math"
	"strings"
	"testing"

	"syncsim/experiments"
)

// TestINAWarmupShiftsJobsOnly checks that the warm-up is excluded from
// every metric: without background the network is empty during the
// warm-up, so starting the jobs 5 ms later must leave every job metric
// (iteration times, throughput, the links' utilisation, retransmissions)
// exactly as with no warm-up. A metric whose window opened at t = 0 (or
// an iteration time counted from it) would shrink or grow by the 5 ms.
func TestINAWarmupShiftsJobsOnly(t *testing.T) {
	for _, c := range []struct{ exp, warm string }{{"ina-leafspine", "5"}, {"ina-testbed", "7.5"}} {
		base := tinyLeafSpine
		if c.exp == "ina-testbed" {
			base = tinyTestbed
		}
		a := runINA(t, c.exp, 3, with(base, "load=0", "bg_warmup_ms=0")...)
		b := runINA(t, c.exp, 3, with(base, "load=0", "bg_warmup_ms="+c.warm)...)
		for _, k := range []string{"ajct_ms", "jct_max_ms", "ajct_done_ms", "agg_tput_gbps", "uplink_util", "downlink_util", "iter_rtts",
			"retransmits", "worker_timeouts", "overflow_pkts", "switch_agg_frac", "drops", "jobs_done"} {
			if a[k] != b[k] || math.IsNaN(a[k]) {
				t.Errorf("%s: %s = %v without warm-up, %v after %s ms", c.exp, k, a[k], b[k], c.warm)
			}
		}
		if !(a["uplink_util"] > 0) {
			t.Errorf("%s: the jobs' traffic left uplink_util %v", c.exp, a["uplink_util"])
		}
	}
}

// TestINALoadBasisRefusedBeforeTheRun checks Validate: on the paper's 2:1
// fabric a host-basis load above 127/(2 x 112) = 0.567 offers the uplinks
// more than their capacity and is refused with one line naming the way
// out, while the fabric basis takes any load; skip_iters must leave an
// iteration to measure.
func TestINALoadBasisRefusedBeforeTheRun(t *testing.T) {
	e := lookup(t, "ina-leafspine")
	for _, c := range []struct {
		sets []string
		want string // "" for accepted
	}{
		{[]string{"load=0.8"}, ""},
		{[]string{"load=0.5", "load_basis=host"}, ""},
		{[]string{"load=0.56", "load_basis=host"}, ""},
		{[]string{"load=0.6", "load_basis=host"}, "load_basis=fabric"},
		{[]string{"load=0.8", "load_basis=host"}, "uplink"},
		// 2 leaves x 4 hosts over 4 spines: non-blocking, the NICs bind.
		{[]string{"spines=4", "leaves=2", "hosts_per_leaf=4", "workers=3", "load=1", "load_basis=host"}, ""},
		// Idle hosts: 128 - 2 x 13 = 102, up to 16 on a leaf:
		// 16 x 86/101 / 8 = 1.70, so 0.6 is refused as with every host.
		{[]string{"jobs=2", "bg_hosts=idle", "load=0.6", "load_basis=host"}, "load_basis=fabric"},
		{[]string{"iterations=2", "skip_iters=2"}, "skip_iters"},
	} {
		ps, err := e.Resolve(c.sets)
		if err != nil {
			t.Fatal(err)
		}
		err = e.Validate(ps)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v refused: %v", c.sets, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%v: err = %v, want one line naming %q", c.sets, err, c.want)
		}
	}
}

// TestINALeafSpineHostLoad checks the resolved host-basis load of a run:
// tinyLeafSpine is 2 spines x 2 leaves x 4 hosts at 10 Gbps, all-to-all:
// up = 4 x 4/7 x 10/20 = 8/7, so fabric-basis 0.3 is host-basis 0.2625.
func TestINALeafSpineHostLoad(t *testing.T) {
	m := runINA(t, "ina-leafspine", 1, with(tinyLeafSpine, "load=0.3", "run_length=quick")...)
	if got := m["host_load"]; math.Abs(got-0.2625) > 1e-12 {
		t.Errorf("host_load = %v, want 0.3 x 7/8 = 0.2625", got)
	}
	m = runINA(t, "ina-leafspine", 1, with(tinyLeafSpine, "load=0.3", "load_basis=host", "run_length=quick")...)
	if got := m["host_load"]; got != 0.3 {
		t.Errorf("host basis: host_load = %v, want 0.3", got)
	}
}

// TestINARunLengthResolved checks that the automatic parameters are
// reported as what they resolved to (gradient_scale not, as model=custom
// does not use it).
func TestINARunLengthResolved(t *testing.T) {
	e := lookup(t, "ina-testbed")
	ps, err := e.Resolve(with(tinyTestbed, "iterations=-1", "load=0.3"))
	if err != nil {
		t.Fatal(err)
	}
	r := &experiments.Run{Exp: e, Params: ps, Seed: 1, Check: true}
	if _, err := e.Run(r); err != nil {
		t.Fatal(err)
	}
	got := r.ResolvedValues()
	want := map[string]string{"iterations": "4", "skip_iters": "1", "bg_warmup_ms": "40", "gradient_scale": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("resolved %s = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}
