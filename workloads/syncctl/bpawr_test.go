package syncctl

import (
	"reflect"
	"testing"
)

// table predictor: probability by worker ID, independent of time.
func table(p map[int]float64) Predictor {
	return func(w int, _, _ float64) float64 { return p[w] }
}

func sIDs(s []Training) []int {
	out := []int{}
	for _, x := range s {
		out = append(out, x.ID)
	}
	return out
}

func TestPredictWorkersStrict(t *testing.T) {
	s := []Training{{4, 8, 0.1}, {5, 1.5, 0.2}, {6, 9.5, 0.3}, {7, 2, 0.4}}
	var seen []float64
	pred := func(w int, elapsed, dt float64) float64 { seen = append(seen, elapsed+dt); return 0.5 }
	c := PredictWorkers(s, 0.05, 2, pred)
	want := []Candidate{{4, 8, 0.5}, {6, 9.5, 0.5}} // 2 is not > 2
	if !reflect.DeepEqual(c, want) {
		t.Errorf("C = %v, want %v", c, want)
	}
	if !reflect.DeepEqual(seen, []float64{0.15000000000000002, 0.35}) {
		t.Errorf("predictor asked at t_i+dt = %v", seen)
	}
	if CalcExpectedNewWorkerNum(c) != 1 || CalcExpectedBW(c) != 8.75 {
		t.Errorf("k = %v, b = %v; want 1, 8.75", CalcExpectedNewWorkerNum(c), CalcExpectedBW(c))
	}
	if CalcExpectedBW([]Candidate{{1, 5, 0}}) != 0 {
		t.Error("CalcExpectedBW with zero total probability: want 0")
	}
}

func TestPredictors(t *testing.T) {
	// F uniform on [0, 2]: Eq. 4 gives F(t+dt); the conditional divides.
	cdf := func(int) func(float64) float64 {
		return func(x float64) float64 { return min(max(x/2, 0), 1) }
	}
	if got := Eq4(cdf)(0, 1, 0.5); got != 0.75 {
		t.Errorf("Eq4 = %v, want F(1.5) = 0.75", got)
	}
	if got := Conditional(cdf)(0, 1, 0.5); got != 0.5 {
		t.Errorf("Conditional = %v, want (0.75-0.5)/(1-0.5) = 0.5", got)
	}
	if got := Conditional(cdf)(0, 3, 0.5); got != 1 {
		t.Errorf("Conditional overdue = %v, want 1", got)
	}
}

func TestBPAWR(t *testing.T) {
	// v = 1/16 byte so 2*8v = 1 and t_X = 1/min_g b - 1/min_g* b.
	const v = 1.0 / 16
	g := []Member{{1, 10}, {2, 9}, {3, 2}}
	s := func() []Training {
		return []Training{{4, 8, 0}, {5, 1.5, 0}, {6, 9.5, 0}, {7, 2, 0}}
	}
	probs := table(map[int]float64{4: 0.6, 5: 0.9, 6: 0.5, 7: 0.9})
	cases := []struct {
		name     string
		g        []Member
		prm      BPAWRParams
		pred     Predictor
		decision Decision
		delta    []int
		k        int
		tx       float64
		rest     []int
	}{
		{
			// C = {4: 0.6, 6: 0.5} (5 and 7 not faster than b = 2),
			// k = floor(1.1) = 1 at (0.6*8+0.5*9.5)/1.1; BAG of
			// [10, 9, 8.68, 2] seeds 10, 9, 8.68 and drops 2:
			// g* = {1, 2, V}, g_delta = {3}, t_X = 1/2 - 1/8.68 = 0.3848.
			name: "wait and replace", g: g,
			prm:  BPAWRParams{P: 2, Eta: 0.3, Theta: 1, Dt: 0.1, ModelBytes: v},
			pred: probs, decision: WaitReplace, delta: []int{3}, k: 1,
			tx: 0.5 - 1.1/9.55, rest: []int{5, 7},
		},
		{
			// theta*dt = 0.4 > 0.3848: launch; S still loses C (line 7).
			name: "not worth it", g: g,
			prm:  BPAWRParams{P: 2, Eta: 0.3, Theta: 4, Dt: 0.1, ModelBytes: v},
			pred: probs, decision: Launch, k: 1, tx: 0.5 - 1.1/9.55, rest: []int{5, 7},
		},
		{
			// sum p = 0.9: k = 0, g* = g, t_X = 0: launch.
			name: "no expected arrival", g: g,
			prm:  BPAWRParams{P: 2, Eta: 0.3, Theta: 1, Dt: 0.1, ModelBytes: v},
			pred: table(map[int]float64{4: 0.4, 6: 0.5}), decision: Launch, k: 0, tx: 0, rest: []int{5, 7},
		},
		{
			// t_X = 0 and theta*dt = 0: the strict ">" launches.
			name: "zero threshold tie", g: g,
			prm:  BPAWRParams{P: 2, Eta: 0.3, Theta: 0, Dt: 0.1, ModelBytes: v},
			pred: table(nil), decision: Launch, k: 0, tx: 0, rest: []int{5, 7},
		},
		{
			// len(g) = 1 < p = 2: hold, S untouched (lines 2-3).
			name: "hold", g: g[:1],
			prm:  BPAWRParams{P: 2, Eta: 0.3, Theta: 1, Dt: 0.1, ModelBytes: v},
			pred: probs, decision: Hold, rest: []int{4, 5, 6, 7},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, rest := BPAWR(s(), c.g, c.prm, c.pred)
			if res.Decision != c.decision || res.K != c.k || abs(res.TX-c.tx) > 1e-12 {
				t.Errorf("decision %v k %d tx %v; want %v %d %v", res.Decision, res.K, res.TX, c.decision, c.k, c.tx)
			}
			var d []int
			for _, m := range res.Delta {
				d = append(d, m.ID)
			}
			if !reflect.DeepEqual(d, c.delta) {
				t.Errorf("delta %v, want %v", d, c.delta)
			}
			if got := sIDs(rest); !reflect.DeepEqual(got, c.rest) {
				t.Errorf("S after = %v, want %v", got, c.rest)
			}
		})
	}
}

// TestBPAWRThresholdTie: t_X exactly theta*dt does not wait (line 16 is
// strict); a hair less of theta does.
func TestBPAWRThresholdTie(t *testing.T) {
	g := []Member{{1, 8}, {2, 8}, {3, 2}}
	s := []Training{{4, 4, 0}}
	pred := table(map[int]float64{4: 1})
	// L = [8, 8, 4(V), 2]; seeds 8, 8, 4; b* = 2.8; 2 drops:
	// t_X = 1/2 - 1/4 = 0.25.
	for _, c := range []struct {
		theta float64
		want  Decision
	}{{1, Launch}, {0.99, WaitReplace}} {
		res, _ := BPAWR(append([]Training(nil), s...), g, BPAWRParams{P: 2, Eta: 0.3, Theta: c.theta, Dt: 0.25, ModelBytes: 1.0 / 16}, pred)
		if res.TX != 0.25 || res.Decision != c.want {
			t.Errorf("theta %v: tx %v decision %v, want 0.25 %v", c.theta, res.TX, res.Decision, c.want)
		}
	}
}
