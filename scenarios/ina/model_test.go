package ina

import (
	"math"
	"sort"
	"testing"

	"syncsim/experiments"
)

func runINAModelWith(t *testing.T, sets ...string) map[string]float64 {
	t.Helper()
	e := Model()
	ps, err := e.Resolve(sets)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.Metrics
}

// TestINAModelSawtooth: the simulated AWD sawtooth peaks where the
// Sec. III-C analysis puts it (AWD* + 1 = eta (M + BDP)/N + 1, so that
// R_max = N (AWD* + 1), Eq. 7), and its amplitude and period have the
// model's order of magnitude (the simulated beta is an EWMA over RTT
// rounds, not the sqrt(2/AWD*) of the DCTCP approximation, and comes out
// about half of it).
func TestINAModelSawtooth(t *testing.T) {
	for _, sets := range [][]string{{"jobs=2", "aggregators=1024", "gradient_mb=2"}, {"jobs=4"}} {
		m := runINAModelWith(t, sets...)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%v %s = %v", sets, k, m[k])
		}
		if math.IsNaN(m["sim_awd_peak"]) || m["sim_awd_cuts"] < 5 {
			t.Fatalf("%v: no AWD sawtooth: %v cuts per job", sets, m["sim_awd_cuts"])
		}
		if peak, want := m["sim_awd_peak"], m["model_awd_star"]+1; math.Abs(peak-want) > 0.05*want {
			t.Errorf("%v: AWD peaks at %v, model AWD*+1 = %v", sets, peak, want)
		}
		if r, want := m["sim_rmax"], m["model_rmax"]; math.Abs(r-want) > 0.05*want {
			t.Errorf("%v: R_max %v, model %v", sets, r, want)
		}
		if s, want := m["sim_s_pkts"], m["model_s_pkts"]; s < want/4 || s > 2*want {
			t.Errorf("%v: amplitude S %v, model %v", sets, s, want)
		}
		if p, want := m["sim_t_rounds"], m["model_t_rounds"]; p < want/4 || p > 4*want {
			t.Errorf("%v: period %v rounds, model %v", sets, p, want)
		}
		// Eq. 4 and 6 with the simulated beta in place of the model's
		// sqrt(2/AWD*) predict the simulated amplitude and period: the
		// gap between model and simulation is beta's approximation alone.
		pred := (m["model_awd_star"] + 1) * m["sim_beta"] / 2
		if s := m["sim_s_pkts"]; math.Abs(s-pred) > 0.06*pred {
			t.Errorf("%v: amplitude S %v, Eq. 4 with the simulated beta %v gives %v", sets, s, m["sim_beta"], pred)
		}
		if p := m["sim_t_rounds"]; math.Abs(p-pred) > 0.06*pred {
			t.Errorf("%v: period %v rounds, Eq. 6 with the simulated beta gives %v", sets, p, pred)
		}
		if m["sim_occupancy_max"] > m["model_rmax"]*1.05 {
			t.Errorf("%v: occupancy reached %v, above R_max %v", sets, m["sim_occupancy_max"], m["model_rmax"])
		}
	}
}
