package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// screenLines is what describe's summary may take: one screen of a
// terminal.
const screenLines = 55

// TestDescribeFitsOneScreen: describe EXP prints at most one screen at
// 100 columns for every registered experiment: its lead, exactly the
// parameters it names as Common and the metrics it names as Headline
// (none of the others; every parameter when it names none), and where
// the rest is.
func TestDescribeFitsOneScreen(t *testing.T) {
	t.Setenv("COLUMNS", "")
	for _, e := range newRegistry().All() {
		out, _, code := runCLI(t, "describe", e.Name)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 0 || len(lines) > screenLines {
			t.Errorf("describe %s: exit %d, %d lines, want at most %d", e.Name, code, len(lines), screenLines)
		}
		if w := widest(out); w > defaultWidth {
			t.Errorf("describe %s: %d columns wide, want at most %d", e.Name, w, defaultWidth)
		}
		for _, p := range e.Params {
			shown := regexp.MustCompile(`(?m)^│ ` + regexp.QuoteMeta(p.Name) + ` `).MatchString(out)
			if want := len(e.Common) == 0 || slices.Contains(e.Common, p.Name); shown != want {
				t.Errorf("describe %s: parameter %s shown %v, want %v", e.Name, p.Name, shown, want)
			}
		}
		for _, m := range e.HeadlineMetrics() {
			if !regexp.MustCompile(`(?m)^│ ` + regexp.QuoteMeta(m.Name) + ` `).MatchString(out) {
				t.Errorf("describe %s: headline metric %s not shown", e.Name, m.Name)
			}
		}
		if len(e.Common) > 0 && !strings.Contains(out, "syncsim describe "+e.Name+" --full") {
			t.Errorf("describe %s does not say where the rest is", e.Name)
		}
		full, _, _ := runCLI(t, "describe", e.Name, "--full")
		if !strings.Contains(full, e.Params[len(e.Params)-1].Name) || len(strings.Split(full, "\n")) <= len(lines) {
			t.Errorf("describe %s --full is not the whole description", e.Name)
		}
	}
}

// TestTablesNeverBreakAName: at any width, in the summary and in
// --full, every parameter and metric name shown starts a row whole (a
// table's first cell, or a block's first line when the terminal is too
// narrow for the table), never cut across two lines.
func TestTablesNeverBreakAName(t *testing.T) {
	for _, cols := range []string{"40", "60", "80", "100", "200"} {
		t.Setenv("COLUMNS", cols)
		for _, exp := range []string{"sr-cluster", "ina-leafspine", "mixed-fabric", "dssync"} {
			e, _ := newRegistry().Lookup(exp)
			for _, args := range [][]string{{"describe", exp}, {"describe", exp, "--full"}} {
				out, _, code := runCLI(t, args...)
				if code != 0 {
					t.Fatalf("%v: exit %d", args, code)
				}
				names := append(append([]string(nil), e.Common...), e.Headline...)
				if len(args) == 3 {
					names = names[:0]
					for _, p := range e.Params {
						names = append(names, p.Name)
					}
					for _, m := range e.Metrics {
						names = append(names, m.Name)
					}
				}
				for _, n := range names {
					if !regexp.MustCompile(`(?m)^(│ )?` + regexp.QuoteMeta(n) + `( |$)`).MatchString(out) {
						t.Errorf("COLUMNS=%s %s: %s does not start a row whole", cols, strings.Join(args, " "), n)
					}
				}
			}
		}
	}
}

// widest is the width of the widest line of s.
func widest(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, textLen(l))
	}
	return w
}

// TestBriefHelp: describe's summary shortens a help to its first
// clause, less a closing parenthesis, within briefWidth characters.
func TestBriefHelp(t *testing.T) {
	for _, tc := range []struct{ help, want string }{
		{"rate of every cable, Gbit/s", "rate of every cable, Gbit/s"},
		{"workers per job (Fig. 12: 12-24)", "workers per job"},
		{"switch memory for aggregators, MiB (2^20 B); M = memory / 256 B", "switch memory for aggregators, MiB"},
		{"flow (max-min fluid) or packet (DCTCP; short runs)", "flow (max-min fluid) or packet"},
		{"AWD* = eta (M + BDP) / N", "AWD* = eta (M + BDP) / N"},
		{"CREW/OPR block weights: n-a from LP (2), e-d even", "CREW/OPR block weights: n-a from LP (2), e-d even"},
		{"one (two)", "one (two)"}, // a lone word keeps its parenthesis
		{"persistent stragglers: workers, chosen at random, that compute straggler_slowdown times longer",
			"persistent stragglers: workers, chosen at random, that ..."},
	} {
		if got := briefHelp(tc.help); got != tc.want {
			t.Errorf("briefHelp(%q) = %q, want %q", tc.help, got, tc.want)
		}
		if got := briefHelp(tc.help); textLen(got) > briefWidth+4 {
			t.Errorf("briefHelp(%q) is %d characters", tc.help, textLen(got))
		}
	}
}

// TestDescribeJSONMarksTheSummary: the schema says which parameters are
// common and which metrics headline, as describe's summary shows them.
func TestDescribeJSONMarksTheSummary(t *testing.T) {
	out, _, code := runCLI(t, "describe", "incast", "--format", "json")
	var s experimentSchema
	if err := json.Unmarshal([]byte(out), &s); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	e, _ := newRegistry().Lookup("incast")
	var common, headline []string
	for _, p := range s.Parameters {
		if p.Common {
			common = append(common, p.Name)
		}
	}
	for _, m := range s.Metrics {
		if m.Headline {
			headline = append(headline, m.Name)
		}
	}
	if len(common) != len(e.Common) || len(headline) != len(e.Headline) {
		t.Errorf("json marks %v and %v, want %v and %v", common, headline, e.Common, e.Headline)
	}
}
