package timeline

import "sort"

// Collective is one synchronisation span of a worker with its exposed
// part.
type Collective struct {
	Worker     int
	Iter       int
	Bucket     int
	Start, End int64
	// Exposed is the part of [Start, End) during which the worker's
	// compute was idle: communication not hidden behind compute.
	Exposed int64
}

// Exposed returns the worker's synchronisations, each with the part of it
// not covered by the worker's compute spans (forward and backward, which
// never overlap one another: one compute stream per worker). Two
// synchronisations in flight at once (INA buckets pipelined) can both
// count the same idle interval as theirs; the idle time of the worker is
// their union, not their sum.
func Exposed(worker int, spans []Span) []Collective {
	var compute []Span
	var out []Collective
	for _, s := range spans {
		if s.Kind == Sync {
			out = append(out, Collective{Worker: worker, Iter: s.Iter, Bucket: s.Bucket, Start: s.Start, End: s.End})
		} else if s.End > s.Start {
			compute = append(compute, s)
		}
	}
	sort.Slice(compute, func(i, j int) bool { return compute[i].Start < compute[j].Start })
	for i := range out {
		c := &out[i]
		covered := int64(0)
		// The first compute span that may end after c starts: compute
		// spans do not overlap, so their ends increase with their starts.
		k := sort.Search(len(compute), func(j int) bool { return compute[j].End > c.Start })
		for ; k < len(compute) && compute[k].Start < c.End; k++ {
			covered += min(compute[k].End, c.End) - max(compute[k].Start, c.Start)
		}
		c.Exposed = (c.End - c.Start) - covered
	}
	return out
}
