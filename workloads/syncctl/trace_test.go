package syncctl

import (
	"reflect"
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// TestAnalyticTrace integrates Eq. 2 over a measured trace by hand. The
// trace's rows (Gbit/s, out of order in the file, with a header and a
// comment) override worker 1's initial 9: 2 from 0 s, 1 from 0.7 s, 8
// from 1.2 s; worker 0 stays at 8. v = 0.5 GB moves 2 x 8v = 8 Gbit
// (CostApprox, alpha = 0). Both compute 0.5 s: the all reduce
// launched at 0.5 s moves 0.4 Gbit by 0.7 s, 0.5 Gbit by 1.2 s, and the
// remaining 7.1 Gbit at 8 Gbit/s (0.8875 s): it ends at 2.0875 s, 1.5875 s
// after its launch. The cluster sees the epochs change at 0.7 and 1.2 s.
func TestAnalyticTrace(t *testing.T) {
	rows, err := training.ReadSeries(strings.NewReader("time_s,worker,gbps\n1.2, 1, 8\n# a comment\n0.7,1,1\n0,1,2\n"), 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := training.NewBWTrace([]float64{8, 9}, rows)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Epochs() != 3 || tr.Start(1) != 0.7 || tr.Start(2) != 1.2 || !reflect.DeepEqual(tr.Epoch(0), []float64{8, 2}) {
		t.Fatalf("trace epochs %d, starts %v %v, epoch 0 %v", tr.Epochs(), tr.Start(1), tr.Start(2), tr.Epoch(0))
	}
	var seen []netsim.Time
	cl, err := NewCluster(netsim.New(1), Config{
		Schedule: Trace(tr), ModelBytes: 0.5e9, Cost: CostApprox, MaxIters: 1, Duration: 10 * netsim.Second,
		Compute:     []training.Dist{training.Constant{T: 0.5}},
		OnBandwidth: func(e int, bw []float64) { seen = append(seen, 0) },
	}, AllReduce{})
	if err != nil {
		t.Fatal(err)
	}
	m := cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	if abs(m.AvgSyncTime-1.5875) > 1e-9 || m.TotalSync != 1 {
		t.Errorf("%+v; want one sync of 1.5875 s", m)
	}
	if len(seen) != 2 || cl.Epoch() != 2 || cl.BW(1) != 8e9 {
		t.Errorf("%d changes seen, epoch %d, w1 at %v; want 2, 2, 8e9", len(seen), cl.Epoch(), cl.BW(1))
	}
}

// TestReadSeriesErrors: bad lines are refused with their line number.
func TestReadSeriesErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0,0,1,2\n", "line 1: 4 fields"},
		{"0,5,1\n", "line 1: \"5\" is not a worker"},
		{"-1,0,1\n", "line 1: time"},
		{"0,0,1\n1,0,0\n", "line 2: value"},
		{"# nothing\n", "no rows"},
	} {
		if _, err := training.ReadSeries(strings.NewReader(tc.in), 1, 2); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.in, err, tc.want)
		}
	}
}
