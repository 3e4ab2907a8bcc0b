// Package experiments is syncsim's experiment harness: what an experiment
// is (a named Experiment with a typed parameter schema, declared metrics
// and a Run function for one parameter point and seed), the Registry a
// program fills, parameter parsing and grids (Params, Axis, Expand), the
// Runner that executes a grid's (point, trial) runs in parallel and hands
// their outcomes back in grid order, and the outputs (tidy CSV, time-series
// files, summaries, resuming a CSV).
//
// The harness knows nothing of networks, protocols or workloads, and
// imports none of them. The experiments themselves are plug-ins that live
// in the scenario families under scenarios/ (network, ina, hostsync,
// mixed); each family exports a Register function that adds its
// experiments to a Registry, and cmd/syncsim calls every family's
// Register explicitly when it starts. Package exptest helps test them.
package experiments

import (
	"math"

	"syncsim/internal/timeline"
)

// Metric declares one number an experiment reports.
type Metric struct {
	Name string // snake_case, unit in the name where not obvious
	Unit string // printed by describe ("ms", "Gbps", "packets", "")
	Help string
}

// Run is one (point, trial) of an experiment: a single seeded simulation.
type Run struct {
	Exp    *Experiment
	Params Params
	Seed   uint64 // base seed + trial
	Trial  int
	// Check asks the run to verify its books (packet and byte
	// conservation, no leaked aggregators) and fail if they do not balance.
	Check bool
	// Series asks the run to collect time series into Result.Series.
	Series bool
	// Trace asks the run to record its jobs' timelines into Result.Trace
	// (experiments whose workers compute layer by layer; others leave it
	// nil).
	Trace bool
	// Threads is how many threads the run's simulation uses (the
	// parallel engine; 1 unless the experiment has Threads set).
	Threads int
	// EngineProfile asks a parallel run to record its windows and leave
	// a report of them in Engine.
	EngineProfile bool
	// Concurrent is how many runs execute at once, this one included (0
	// counts as 1): the parallel engine's threads spin between windows
	// only while the runs' threads fit the machine's cores.
	Concurrent int
	// Engine is the parallel engine's report of the run (with
	// EngineProfile), text for people.
	Engine string
	// FCTFile, when set, is the file the run writes its flows to in the
	// HPCC branch's fct.txt layout if it has such flows and its fct_out
	// parameter is empty: the command's FILE.fct.txt beside its CSV,
	// already named for the run's point and trial.
	FCTFile string

	engineReport func() string

	mon      *monitor          // set by the Runner: cancellation, progress, stall
	resolved map[string]string // automatic parameters and what they resolved to
	books    []Book            // books checked

	// seriesDir, when set, is where OpenSeries streams series files;
	// point is the run's point, which names them.
	seriesDir string
	point     int
	streams   []*SeriesWriter
}

// Resolved records what an automatic parameter value (Param.Auto, such as
// warmup_ms=-1) resolved to in this run; the CSV and the run table show
// this value instead of the automatic one.
func (r *Run) Resolved(name string, value float64) {
	if r.resolved == nil {
		r.resolved = map[string]string{}
	}
	r.resolved[name] = formatFloat(value)
}

// ResolvedValues returns the automatic parameters the run resolved.
func (r *Run) ResolvedValues() map[string]string { return r.resolved }

// Book records a book the run checked (with Check set) and found
// balanced, for --check to print.
func (r *Run) Book(b Book) { r.books = append(r.books, b) }

// Books returns the books the run checked.
func (r *Run) Books() []Book { return r.books }

// Book is one conservation account a run checked: its name ("packets"),
// the identity that held ("sent = delivered + dropped + in_flight") and
// the totals of its terms.
type Book struct {
	Name  string
	Rule  string
	Terms []Term
}

// Term is one named total of a Book.
type Term struct {
	Name  string
	Value float64
}

// Result holds the metrics of one run.
type Result struct {
	// Metrics has one value per declared Metric; NaN marks a value that is
	// undefined for this run (for example a percentile of no flows).
	Metrics map[string]float64
	// Events is the number of simulator events processed.
	Events uint64
	// Series are optional time series, written only when asked for:
	// those a run built in memory, and those it wrote with OpenSeries
	// when no series directory was given.
	Series []Series
	// Trace is the jobs' timelines, recorded only when Run.Trace asks.
	Trace *timeline.Log

	// streamed lists the series OpenSeries wrote to the series
	// directory, for the manifest.
	streamed []SeriesRecord
}

// Series is a table of numbers over time, written as its own CSV file.
type Series struct {
	Name    string // file stem, e.g. "queue"
	Columns []string
	Rows    [][]float64

	// stream, when set, is the writer that streamed the series to its
	// file (SeriesWriter.Series); Rows is then empty.
	stream *SeriesWriter
}

// Experiment is a named, parameterised scenario.
type Experiment struct {
	Name    string // kebab-case
	Summary string // one line for `list`
	Doc     string // paragraph for `describe`: definitions and the paper it reproduces
	Params  []Param
	Metrics []Metric
	// Common names the parameters most users change, at most MaxCommon,
	// in the order describe lists them on its one-screen summary
	// (describe --full lists every parameter); empty lists them all.
	Common []string
	// Headline names the metrics that answer the experiment's question,
	// at most MaxHeadline: those describe's summary shows and summarise
	// reports when no --metric is given; empty means every metric.
	Headline []string
	Run      func(r *Run) (*Result, error)
	// Validate, when set, checks one parameter point beyond what each
	// parameter's declaration can (rules between parameters, files to
	// read) without simulating; the command line runs it at every point
	// of a grid before it opens any output.
	Validate func(ps Params) error
	// Threads marks an experiment that runs on the parallel engine: its
	// packet network is partitioned at every thread count (Run.Threads
	// only sets how many threads run the partitions, never the results).
	// Experiments without it run on the sequential engine and refuse
	// Threads > 1.
	Threads bool
	// Engine, when set, is the name of the experiment's engine parameter
	// (EngineParam): a run whose value is EnginePartitioned runs on the
	// parallel engine, partitioned at every thread count; the default,
	// EngineSequential, keeps the sequential engine and refuses
	// Threads > 1. For models whose results on the parallel engine differ
	// from the sequential engine's beyond ties (state shared across
	// partitions, folded at barriers), so that the sequential results
	// stay the default.
	Engine string
	// Cost, when set, is the experiment's model of what a run costs
	// (events and CPU), which --dry-run prints; without it --dry-run says
	// it has no estimate.
	Cost *Cost
}

// NewResult returns a Result whose declared metrics are all NaN, so a run
// that forgets one reports it as undefined rather than as zero.
func (e *Experiment) NewResult() *Result {
	m := make(map[string]float64, len(e.Metrics))
	for _, x := range e.Metrics {
		m[x.Name] = math.NaN()
	}
	return &Result{Metrics: m}
}

// Param returns the declaration of the named parameter.
func (e *Experiment) Param(name string) (Param, bool) {
	for _, p := range e.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// SetEngineReport registers f to write Engine once the run's simulation
// is over (the parallel engine's profile).
func (r *Run) SetEngineReport(f func() string) { r.engineReport = f }
