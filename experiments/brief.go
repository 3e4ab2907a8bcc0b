package experiments

import (
	"fmt"
	"slices"
)

// The most names Experiment.Common and Experiment.Headline may hold: what
// fits describe's one-screen summary beside the experiment's lead
// paragraph.
const (
	MaxCommon   = 10
	MaxHeadline = 8
)

// CommonParams returns the parameters Common names, in its order, or
// every parameter when Common is empty.
func (e *Experiment) CommonParams() []Param {
	if len(e.Common) == 0 {
		return e.Params
	}
	out := make([]Param, 0, len(e.Common))
	for _, n := range e.Common {
		if p, ok := e.Param(n); ok {
			out = append(out, p)
		}
	}
	return out
}

// HeadlineMetrics returns the metrics Headline names, in its order, or
// every metric when Headline is empty.
func (e *Experiment) HeadlineMetrics() []Metric {
	if len(e.Headline) == 0 {
		return e.Metrics
	}
	out := make([]Metric, 0, len(e.Headline))
	for _, n := range e.Headline {
		for _, m := range e.Metrics {
			if m.Name == n {
				out = append(out, m)
			}
		}
	}
	return out
}

// validateBrief checks Common and Headline: declared names, each once,
// no more than the summary holds; an experiment with more parameters or
// metrics than that must choose which the summary shows.
func (e *Experiment) validateBrief() error {
	if len(e.Common) == 0 && len(e.Params) > MaxCommon {
		return fmt.Errorf("experiment %s has %d parameters: name the at most %d most users change in Common, which describe's summary lists", e.Name, len(e.Params), MaxCommon)
	}
	if len(e.Headline) == 0 && len(e.Metrics) > MaxHeadline {
		return fmt.Errorf("experiment %s has %d metrics: name the at most %d that answer its question in Headline, which describe's summary lists and summarise reports by default", e.Name, len(e.Metrics), MaxHeadline)
	}
	if len(e.Common) > MaxCommon {
		return fmt.Errorf("experiment %s names %d common parameters, more than %d", e.Name, len(e.Common), MaxCommon)
	}
	if len(e.Headline) > MaxHeadline {
		return fmt.Errorf("experiment %s names %d headline metrics, more than %d", e.Name, len(e.Headline), MaxHeadline)
	}
	for i, n := range e.Common {
		if _, ok := e.Param(n); !ok || slices.Contains(e.Common[:i], n) {
			return fmt.Errorf("experiment %s: common parameter %q is not a parameter, or is named twice", e.Name, n)
		}
	}
	for i, n := range e.Headline {
		if !slices.ContainsFunc(e.Metrics, func(m Metric) bool { return m.Name == n }) || slices.Contains(e.Headline[:i], n) {
			return fmt.Errorf("experiment %s: headline metric %q is not a metric, or is named twice", e.Name, n)
		}
	}
	return nil
}
