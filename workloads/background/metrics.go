package background

import "math"

// Metric is one named result value, in the shape experiments declare and
// report metrics: snake_case name with the unit in it where it is not
// obvious.
type Metric struct {
	Name, Unit, Help string
	Value            float64
}

// MetricSchema lists the metrics Summary.Metrics reports for the given
// buckets (nil means DefaultBuckets), every name starting with prefix (for
// example "bg_"), with NaN values. Declare these in an experiment.
func MetricSchema(prefix string, buckets []Bucket) []Metric {
	if buckets == nil {
		buckets = DefaultBuckets()
	}
	s := &Summary{All: emptyGroup("all")}
	for _, b := range buckets {
		g := emptyGroup(b.Name)
		g.Lo, g.Hi = b.Lo, b.Hi
		s.Buckets = append(s.Buckets, g)
	}
	s.OfferedLoad = math.NaN()
	return s.Metrics(prefix)
}

func emptyGroup(name string) Group {
	return Group{Name: name, FCT: NewDist(nil), Slowdown: NewDist(nil)}
}

// Metrics flattens the summary into named values, in a fixed order:
// flows_started, flows_done, offered_load, then fct_{mean,p50,p95,p99}_us and
// slowdown_{mean,p50,p95,p99} over all flows, then <bucket>_flows_done and
// the same eight FCT and slowdown values for each bucket. Undefined values
// (no completed flow) are NaN.
func (s *Summary) Metrics(prefix string) []Metric {
	out := []Metric{
		{prefix + "flows_started", "flows", "background flows started in the measurement window", float64(s.All.Started)},
		{prefix + "flows_done", "flows", "of those, flows completed by the end of the run", float64(s.All.Done)},
		{prefix + "offered_load", "", "measured offered load: bytes started in the window / (window * aggregate NIC capacity)", s.OfferedLoad},
	}
	out = appendGroup(out, prefix, "", "all background flows", s.All)
	for _, g := range s.Buckets {
		out = append(out, Metric{prefix + g.Name + "_flows_done", "flows", "completed background flows in size bucket " + g.Name, float64(g.Done)})
		out = appendGroup(out, prefix, g.Name+"_", "background flows in size bucket "+g.Name, g)
	}
	return out
}

func appendGroup(out []Metric, prefix, name, what string, g Group) []Metric {
	us := func(v float64) float64 { return v * 1e6 }
	return append(out,
		Metric{prefix + name + "fct_mean_us", "us", "mean FCT of " + what, us(g.FCT.Mean)},
		Metric{prefix + name + "fct_p50_us", "us", "median FCT of " + what, us(g.FCT.P50)},
		Metric{prefix + name + "fct_p95_us", "us", "95th-percentile FCT of " + what, us(g.FCT.P95)},
		Metric{prefix + name + "fct_p99_us", "us", "99th-percentile FCT of " + what, us(g.FCT.P99)},
		Metric{prefix + name + "slowdown_mean", "", "mean slowdown (FCT / ideal FCT) of " + what, g.Slowdown.Mean},
		Metric{prefix + name + "slowdown_p50", "", "median slowdown of " + what, g.Slowdown.P50},
		Metric{prefix + name + "slowdown_p95", "", "95th-percentile slowdown of " + what, g.Slowdown.P95},
		Metric{prefix + name + "slowdown_p99", "", "99th-percentile slowdown of " + what, g.Slowdown.P99},
	)
}
