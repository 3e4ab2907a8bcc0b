package experiments

import (
	"fmt"
	"strings"
	"testing"
)

// TestBriefDeclarations: Common and Headline must name declared
// parameters and metrics, each once, no more than a screen holds; the
// summary lists them in their order, or everything when they are empty.
func TestBriefDeclarations(t *testing.T) {
	with := func(common, headline []string) *Experiment {
		e := testExp()
		e.Metrics = []Metric{{Name: "goodput_gbps"}, {Name: "drops"}, {Name: "jain"}}
		e.Common, e.Headline = common, headline
		return e
	}
	for _, tc := range []struct {
		name             string
		common, headline []string
		err              string
	}{
		{"fine", []string{"load", "senders"}, []string{"drops"}, ""},
		{"empty", nil, nil, ""},
		{"unknown parameter", []string{"sender"}, nil, `common parameter "sender"`},
		{"a metric as a parameter", []string{"drops"}, nil, `common parameter "drops"`},
		{"twice", []string{"load", "load"}, nil, `common parameter "load"`},
		{"unknown metric", nil, []string{"goodput"}, `headline metric "goodput"`},
		{"metric twice", nil, []string{"jain", "jain"}, `headline metric "jain"`},
		{"too many", []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}, nil, "more than 10"},
	} {
		err := with(tc.common, tc.headline).validate()
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
		}
	}
	// An experiment with more parameters (or metrics) than the summary
	// holds must choose.
	big := with(nil, nil)
	for i := range MaxCommon {
		big.Params = append(big.Params, IntParam(fmt.Sprintf("p%d", i), 1, 0, 2, "h"))
	}
	if err := big.validate(); err == nil || !strings.Contains(err.Error(), "name the at most 10 most users change in Common") {
		t.Errorf("14 parameters, no Common: err = %v", err)
	}
	for i := range MaxHeadline {
		big.Metrics = append(big.Metrics, Metric{Name: fmt.Sprintf("m%d", i)})
	}
	big.Common = []string{"p1"}
	if err := big.validate(); err == nil || !strings.Contains(err.Error(), "in Headline") {
		t.Errorf("11 metrics, no Headline: err = %v", err)
	}
	e := with([]string{"transport", "senders"}, []string{"jain", "goodput_gbps"})
	var got []string
	for _, p := range e.CommonParams() {
		got = append(got, p.Name)
	}
	for _, m := range e.HeadlineMetrics() {
		got = append(got, m.Name)
	}
	if strings.Join(got, " ") != "transport senders jain goodput_gbps" {
		t.Errorf("summary lists %v", got)
	}
	if e := with(nil, nil); len(e.CommonParams()) != 4 || len(e.HeadlineMetrics()) != 3 {
		t.Errorf("without declarations the summary lists %d parameters and %d metrics, want all", len(e.CommonParams()), len(e.HeadlineMetrics()))
	}
}
