package experiments

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Axis is one dimension of a sweep grid: a parameter and the canonical
// values it takes, in the order given.
type Axis struct {
	Name   string
	Values []string
}

// ParseAxis parses a --vary specification "key=v1,v2,..." against e's
// schema. For integer and real parameters an item may also be an
// inclusive range "start:stop:step" (step > 0), expanded in increasing
// order, so "load=0.1:0.5:0.2" is "load=0.1,0.3,0.5". Every value is
// validated and canonicalised with ParseValue; an empty value or a value
// listed twice (after canonicalisation: 0 and -0, 1000 and 1e3) is an
// error.
func ParseAxis(e *Experiment, spec string) (Axis, error) {
	k, list, ok := strings.Cut(spec, "=")
	if !ok || k == "" || strings.TrimSpace(list) == "" {
		return Axis{}, fmt.Errorf("malformed --vary %q: want key=v1,v2,...", spec)
	}
	if k != strings.TrimSpace(k) {
		return Axis{}, fmt.Errorf("malformed --vary %q: a space around the name", spec)
	}
	p, ok := e.Param(k)
	if !ok {
		return Axis{}, e.unknownParam(k)
	}
	var items []string
	for _, raw := range strings.Split(list, ",") {
		if strings.TrimSpace(raw) == "" {
			return Axis{}, fmt.Errorf("malformed --vary %q: empty value in the list", spec)
		}
		if raw != strings.TrimSpace(raw) {
			return Axis{}, fmt.Errorf("malformed --vary %q: a space around the value %q (write the list without spaces)", spec, strings.TrimSpace(raw))
		}
		if strings.Contains(raw, ":") && (p.Kind == Int || p.Kind == Float) {
			r, err := expandRange(k, raw, MaxGridPoints-len(items))
			if err != nil {
				return Axis{}, err
			}
			items = append(items, r...)
			continue
		}
		items = append(items, raw)
	}
	ax := Axis{Name: k}
	seen := map[string]bool{}
	for _, raw := range items {
		v, err := e.ParseValue(k, raw)
		if err != nil {
			return Axis{}, err
		}
		if seen[v] {
			return Axis{}, fmt.Errorf("--vary %s lists the value %s twice", k, v)
		}
		seen[v] = true
		ax.Values = append(ax.Values, v)
	}
	return ax, nil
}

// expandRange expands "start:stop:step" into its values, start + i*step
// for i = 0, 1, ... while not beyond stop (with a relative tolerance of
// 1e-9 steps, so 0.1:0.5:0.2 ends at 0.5 despite rounding), at most room
// of them. Values are rounded to 12 significant digits, which removes the
// binary residue of i*step (0.30000000000000004 becomes 0.3).
func expandRange(key, item string, room int) ([]string, error) {
	parts := strings.Split(item, ":")
	bad := func(why string) ([]string, error) {
		return nil, fmt.Errorf("%s=%q: %s; a range is start:stop:step with step > 0 and start <= stop", key, item, why)
	}
	if len(parts) != 3 {
		return bad("malformed range")
	}
	var f [3]float64
	for i, s := range parts {
		s = strings.TrimSpace(s)
		if !decimalReal.MatchString(s) {
			return bad(fmt.Sprintf("%q is not a finite number", s))
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(v, 0) {
			return bad(fmt.Sprintf("%q is not a finite number", s))
		}
		f[i] = v
	}
	start, stop, step := f[0], f[1], f[2]
	if !(step > 0) || start > stop {
		return bad("empty range")
	}
	n := math.Floor((stop-start)/step+1e-9) + 1
	if n > float64(room) || n > MaxGridPoints {
		return bad(fmt.Sprintf("more than %d values", MaxGridPoints))
	}
	out := make([]string, int(n))
	for i := range out {
		out[i] = strconv.FormatFloat(start+float64(i)*step, 'g', 12, 64)
	}
	return out, nil
}

// MaxGridPoints bounds the number of points of a grid, so a typo in a
// --vary list cannot start a sweep that never ends.
const MaxGridPoints = 1_000_000

// Points is an ordered set of parameter points: a Grid, or a PointList.
type Points interface {
	Len() int
	Point(i int) Params
}

// PointList is a fixed list of points.
type PointList []Params

// Len returns the number of points.
func (l PointList) Len() int { return len(l) }

// Point returns point i.
func (l PointList) Point(i int) Params { return l[i] }

// Grid is the cartesian product of axes over a base point, first axis
// outermost (it changes slowest). Points are computed when asked for, so
// a grid of a million points costs its axes, not a million Params.
type Grid struct {
	exp  *Experiment
	base Params
	axes []Axis
	idx  []int // index in exp.Params of each axis
	n    int
}

// NewGrid returns the grid of axes over base. Every axis must name a
// distinct parameter of the experiment, hold canonical values, and the
// product of the axis lengths may not exceed MaxGridPoints.
func NewGrid(base Params, axes []Axis) (*Grid, error) {
	e := base.exp
	g := &Grid{exp: e, base: base, axes: axes, n: 1}
	seen := map[string]bool{}
	for _, ax := range axes {
		if seen[ax.Name] {
			return nil, fmt.Errorf("parameter %s is varied twice; list all its values in one --vary %s=v1,v2,...", ax.Name, ax.Name)
		}
		seen[ax.Name] = true
		i := -1
		for j, p := range e.Params {
			if p.Name == ax.Name {
				i = j
			}
		}
		if i < 0 {
			return nil, e.unknownParam(ax.Name)
		}
		if len(ax.Values) == 0 {
			return nil, fmt.Errorf("--vary %s has no values", ax.Name)
		}
		for _, v := range ax.Values {
			if c, err := e.ParseValue(ax.Name, v); err != nil {
				return nil, err
			} else if c != v {
				return nil, fmt.Errorf("--vary %s: value %q is not canonical (%q)", ax.Name, v, c)
			}
		}
		g.idx = append(g.idx, i)
		if g.n *= len(ax.Values); g.n > MaxGridPoints {
			return nil, fmt.Errorf("the grid has more than %d points; split the sweep", MaxGridPoints)
		}
	}
	return g, nil
}

// Len returns the number of points.
func (g *Grid) Len() int { return g.n }

// Point returns point i (0 <= i < Len) in grid order.
func (g *Grid) Point(i int) Params {
	out := Params{exp: g.exp, text: append([]string(nil), g.base.text...)}
	for a := len(g.axes) - 1; a >= 0; a-- {
		vs := g.axes[a].Values
		out.text[g.idx[a]] = vs[i%len(vs)]
		i /= len(vs)
	}
	return out
}

// Base returns the point the axes vary.
func (g *Grid) Base() Params { return g.base }

// Axes returns the axes, first (outermost) first.
func (g *Grid) Axes() []Axis { return g.axes }

// Experiment returns the experiment of the grid.
func (g *Grid) Experiment() *Experiment { return g.exp }

// Find returns the index of the point whose canonical values are values
// (in schema order). A value may differ from the grid's where the grid
// holds an automatic value of that parameter (Param.Auto), since a CSV
// shows what the run resolved it to; an exact match is preferred.
func (g *Grid) Find(values []string) (int, bool) {
	ps := g.exp.Params
	if len(values) != len(ps) {
		return 0, false
	}
	varied := make([]bool, len(ps))
	for _, i := range g.idx {
		varied[i] = true
	}
	for i, p := range ps {
		if !varied[i] && values[i] != g.base.text[i] && !p.IsAuto(g.base.text[i]) {
			return 0, false
		}
	}
	index := 0
	for a, i := range g.idx {
		found := -1
		for k, v := range g.axes[a].Values {
			if v == values[i] {
				found = k
				break
			}
			if found < 0 && ps[i].IsAuto(v) {
				found = k
			}
		}
		if found < 0 {
			return 0, false
		}
		index = index*len(g.axes[a].Values) + found
	}
	return index, true
}

// Mismatch names the first parameter whose value in values (schema
// order) is not one the grid has, for messages such as "--resume: the
// file's rows have load=0.3, this sweep has 0.5".
func (g *Grid) Mismatch(values []string) string {
	ps := g.exp.Params
	if len(values) != len(ps) {
		return fmt.Sprintf("%d parameter columns for %d parameters", len(values), len(ps))
	}
	axisOf := map[int]int{}
	for a, i := range g.idx {
		axisOf[i] = a
	}
	for i, p := range ps {
		if a, ok := axisOf[i]; ok {
			found := false
			for _, v := range g.axes[a].Values {
				if v == values[i] || p.IsAuto(v) {
					found = true
				}
			}
			if !found {
				return fmt.Sprintf("%s=%s, which this sweep does not vary over (--vary %s=%s)", p.Name, values[i], p.Name, strings.Join(g.axes[a].Values, ","))
			}
			continue
		}
		if values[i] != g.base.text[i] && !p.IsAuto(g.base.text[i]) {
			return fmt.Sprintf("%s=%s where this sweep has %s=%s", p.Name, values[i], p.Name, g.base.text[i])
		}
	}
	return ""
}

// Expand resolves --set overrides and --vary axes into a grid. It is an
// error to vary a parameter twice or to both set and vary it. With no
// axes the grid is the single base point.
func Expand(e *Experiment, sets, varies []string) (*Grid, error) {
	base, err := e.Resolve(sets)
	if err != nil {
		return nil, err
	}
	setKeys := map[string]bool{}
	for _, s := range sets {
		k, _, _ := strings.Cut(s, "=")
		setKeys[strings.TrimSpace(k)] = true
	}
	var axes []Axis
	for _, spec := range varies {
		ax, err := ParseAxis(e, spec)
		if err != nil {
			return nil, err
		}
		if setKeys[ax.Name] {
			return nil, fmt.Errorf("parameter %s is both set and varied; use one of --set and --vary", ax.Name)
		}
		axes = append(axes, ax)
	}
	return NewGrid(base, axes)
}

// AxisNames returns the names of the axes, for labelling points.
func AxisNames(axes []Axis) []string {
	out := make([]string, len(axes))
	for i, a := range axes {
		out[i] = a.Name
	}
	return out
}

// CheckRelevance refuses parameters given explicitly (set or varied,
// named in given) that have no effect anywhere in the grid: their
// condition (Param.Only) holds at no point, as trace_file without
// trace=file.
func (g *Grid) CheckRelevance(given []string) error {
	for _, name := range given {
		p, ok := g.exp.Param(name)
		if !ok || p.Only == nil {
			continue
		}
		if !g.anywhere(p.Only) {
			var here []string
			for c := p.Only; c != nil; c = c.Or {
				cur := g.base.Text(c.Param)
				for _, ax := range g.axes {
					if ax.Name == c.Param {
						cur = strings.Join(ax.Values, ",")
					}
				}
				here = append(here, c.Param+"="+cur)
			}
			return fmt.Errorf("%s has no effect unless %s (here %s); drop it or set %s", name, p.Only, strings.Join(here, ", "), p.Only)
		}
	}
	return nil
}

// anywhere reports whether c holds at some point of the grid. Each of
// its alternatives (c, c.Or, ...) reads one parameter, so it suffices to
// look at that parameter's axis (or at the base when it is not varied).
func (g *Grid) anywhere(c *Condition) bool {
	for ; c != nil; c = c.Or {
		one := *c
		one.Or = nil
		if g.anywhereOne(&one) {
			return true
		}
	}
	return false
}

// anywhereOne is anywhere for a condition on one parameter.
func (g *Grid) anywhereOne(c *Condition) bool {
	for _, ax := range g.axes {
		if ax.Name == c.Param {
			for _, v := range ax.Values {
				ps, err := g.exp.With(g.base, ax.Name, v)
				if err == nil && c.Holds(ps) {
					return true
				}
			}
			return false
		}
	}
	return c.Holds(g.base)
}

// Validate runs the experiment's own cross-parameter checks
// (Experiment.Validate) at every point of the grid, so that a sweep is
// refused before it writes anything rather than when it reaches the bad
// point. Points that differ only in parameters the checks cannot see are
// not told apart; the grid is walked once.
func (g *Grid) Validate() error {
	if g.exp.Validate == nil {
		return nil
	}
	for i := 0; i < g.n; i++ {
		ps := g.Point(i)
		if err := g.exp.Validate(ps); err != nil {
			if len(g.axes) == 0 {
				return err
			}
			return fmt.Errorf("point %d (%s): %w", i, g.label(ps), err)
		}
	}
	return nil
}

// label formats the varied parameters of ps, or every parameter when
// nothing is varied.
func (g *Grid) label(ps Params) string {
	keys := AxisNames(g.axes)
	if len(keys) == 0 {
		for _, p := range g.exp.Params {
			keys = append(keys, p.Name)
		}
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + ps.Text(k)
	}
	return strings.Join(parts, " ")
}

// AxisSpecs returns the --vary specifications of axes ("n=1,2,3").
func AxisSpecs(axes []Axis) []string {
	out := make([]string, len(axes))
	for i, a := range axes {
		out[i] = a.Name + "=" + strings.Join(a.Values, ",")
	}
	return out
}
