// Package plotting draws figures from the tidy CSV files that syncsim's
// sweeps write: one row per (point, trial) with the columns
//
//	experiment, <parameters...>, trial, seed, <metrics...>
//
// A Spec names the parameter on the x axis, the metric on the y axis and,
// optionally, a parameter whose values become the series (one line or bar
// colour per value) and one whose values become facets (one panel per
// value, laid out in a grid). Every (facet, series, x) cell is summarised
// over its trials: lines show the median with a shaded min-max band, bars
// the median with min-max whiskers, boxes the quartiles with whiskers to
// the minimum and maximum. Non-finite values (NaN, Inf) are skipped and
// counted in a note under the figure.
//
// Rows are never pooled silently: a parameter that varies in the selected
// rows but is neither the x axis, the series nor the facet is an error
// that names it and its values, unless a Where filter fixes it.
//
// Axis labels carry the unit in the column name (see Label); the figure is
// written as SVG or PNG according to the output file's extension.
//
// The package is kept apart from the simulation packages because
// gonum.org/v1/plot is a large dependency; only cmd/syncsim imports it.
package plotting
