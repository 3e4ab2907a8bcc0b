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
// listed twice is an error.
func ParseAxis(e *Experiment, spec string) (Axis, error) {
	k, list, ok := strings.Cut(spec, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" || strings.TrimSpace(list) == "" {
		return Axis{}, fmt.Errorf("malformed --vary %q: want key=v1,v2,...", spec)
	}
	if _, ok := e.Param(k); !ok {
		return Axis{}, e.unknownParam(k)
	}
	p, _ := e.Param(k)
	var items []string
	for _, raw := range strings.Split(list, ",") {
		if strings.TrimSpace(raw) == "" {
			return Axis{}, fmt.Errorf("malformed --vary %q: empty value in the list", spec)
		}
		if strings.Contains(raw, ":") && (p.Kind == Int || p.Kind == Float) {
			r, err := expandRange(k, raw)
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
// 1e-9 steps, so 0.1:0.5:0.2 ends at 0.5 despite rounding). Values are
// rounded to 12 significant digits, which removes the binary residue of
// i*step (0.30000000000000004 becomes 0.3).
func expandRange(key, item string) ([]string, error) {
	parts := strings.Split(item, ":")
	bad := func(why string) ([]string, error) {
		return nil, fmt.Errorf("%s=%q: %s; a range is start:stop:step with step > 0 and start <= stop", key, item, why)
	}
	if len(parts) != 3 {
		return bad("malformed range")
	}
	var f [3]float64
	for i, s := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return bad(fmt.Sprintf("%q is not a finite number", s))
		}
		f[i] = v
	}
	start, stop, step := f[0], f[1], f[2]
	if !(step > 0) || start > stop {
		return bad("empty range")
	}
	n := math.Floor((stop-start)/step+1e-9) + 1
	if n > MaxGridPoints {
		return bad(fmt.Sprintf("more than %d values", MaxGridPoints))
	}
	out := make([]string, int(n))
	for i := range out {
		out[i] = strconv.FormatFloat(start+float64(i)*step, 'g', 12, 64)
	}
	return out, nil
}

// Expand resolves --set overrides and --vary axes into the points of a
// grid: the cartesian product of the axes over the resolved base point,
// first axis outermost (it changes slowest). It is an error to vary a
// parameter twice or to both set and vary it. With no axes the grid is the
// single base point.
func Expand(e *Experiment, sets, varies []string) ([]Params, []Axis, error) {
	base, err := e.Resolve(sets)
	if err != nil {
		return nil, nil, err
	}
	setKeys := map[string]bool{}
	for _, s := range sets {
		k, _, _ := strings.Cut(s, "=")
		setKeys[strings.TrimSpace(k)] = true
	}
	var axes []Axis
	varied := map[string]bool{}
	for _, spec := range varies {
		ax, err := ParseAxis(e, spec)
		if err != nil {
			return nil, nil, err
		}
		if varied[ax.Name] {
			return nil, nil, fmt.Errorf("parameter %s is varied twice; list all its values in one --vary %s=v1,v2,...", ax.Name, ax.Name)
		}
		if setKeys[ax.Name] {
			return nil, nil, fmt.Errorf("parameter %s is both set and varied; use one of --set and --vary", ax.Name)
		}
		varied[ax.Name] = true
		axes = append(axes, ax)
	}
	n := 1
	for _, ax := range axes {
		if n *= len(ax.Values); n > MaxGridPoints {
			return nil, nil, fmt.Errorf("the grid has more than %d points; split the sweep", MaxGridPoints)
		}
	}
	pts, err := Grid(e, base, axes)
	return pts, axes, err
}

// MaxGridPoints bounds the number of points Expand builds, so a typo in a
// --vary list cannot exhaust memory.
const MaxGridPoints = 1_000_000

// Grid returns the cartesian product of axes over base, first axis
// outermost.
func Grid(e *Experiment, base Params, axes []Axis) ([]Params, error) {
	pts := []Params{base}
	for _, ax := range axes {
		next := make([]Params, 0, len(pts)*len(ax.Values))
		for _, p := range pts {
			for _, v := range ax.Values {
				q, err := e.With(p, ax.Name, v)
				if err != nil {
					return nil, err
				}
				next = append(next, q)
			}
		}
		pts = next
	}
	return pts, nil
}

// AxisNames returns the names of the axes, for labelling points.
func AxisNames(axes []Axis) []string {
	out := make([]string, len(axes))
	for i, a := range axes {
		out[i] = a.Name
	}
	return out
}
