package plotting

import (
	"fmt"
	"strings"
)

// Kind is the kind of figure.
type Kind string

// The kinds of figure.
const (
	// Line draws the median over trials at each x as a line with markers,
	// over a translucent band from the minimum to the maximum.
	Line Kind = "line"
	// Bar draws the median as a bar with whiskers from the minimum to the
	// maximum; x is categorical and series are grouped side by side.
	Bar Kind = "bar"
	// Box draws the quartiles of the trials as a box with the median
	// marked and whiskers to the minimum and maximum.
	Box Kind = "box"
)

// Kinds lists the kinds in the order help texts show them.
var Kinds = []Kind{Line, Bar, Box}

// ParseKind parses "line", "bar" or "box"; the empty string is the
// default kind, chosen when the figure is built (see Spec.Kind).
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if s == string(k) {
			return k, nil
		}
	}
	if s == "" {
		return "", nil
	}
	return "", fmt.Errorf("unknown plot kind %q (kinds: line, bar, box)", s)
}

// Filter keeps the rows whose parameter Param has one of Values.
type Filter struct {
	Param  string
	Values []string
}

// String returns the filter as written on the command line.
func (f Filter) String() string { return f.Param + "=" + strings.Join(f.Values, ",") }

// ParseFilter parses "param=value" or "param=v1,v2,...".
func ParseFilter(s string) (Filter, error) {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" || strings.TrimSpace(v) == "" {
		return Filter{}, fmt.Errorf("--where %q: expected param=value or param=v1,v2,...", s)
	}
	f := Filter{Param: k}
	for _, x := range strings.Split(v, ",") {
		x = strings.TrimSpace(x)
		if x == "" {
			return Filter{}, fmt.Errorf("--where %q: empty value in the list", s)
		}
		f.Values = append(f.Values, x)
	}
	return f, nil
}

// Spec says what to draw.
type Spec struct {
	// X is the parameter on the horizontal axis.
	X string
	// Y is the metric on the vertical axis.
	Y string
	// Series, if set, is a parameter with one line, bar colour or box
	// colour per value, named in the legend.
	Series string
	// Facet, if set, is a parameter with one panel per value.
	Facet string
	// Kind is line, bar or box; empty means line when every x value is a
	// number and bar otherwise.
	Kind Kind
	// Where keeps only the rows that pass every filter. Filters on
	// different parameters must all hold; the values of one filter are
	// alternatives.
	Where []Filter
	// LogX and LogY draw the axis on a logarithmic scale; every value on
	// it must then be positive.
	LogX, LogY bool
	// YMin and YMax, when set (not NaN; the zero Spec leaves them 0 and
	// YRange false), fix the y axis instead of fitting the data; lines and
	// bands are clipped to it.
	YMin, YMax float64
	YRange     bool
	// Title replaces the default title (the experiment and the filters).
	Title string
	// Units gives the unit of a metric as its experiment declares it; it
	// overrides the unit read from the column name (see LabelUnit), which
	// labels the columns it does not list.
	Units map[string]string
}
