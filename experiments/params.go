package experiments

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Kind is the type of a parameter.
type Kind int

// Parameter kinds.
const (
	Int Kind = iota
	Float
	Enum
	Bool
	Text
)

// String names the kind for describe.
func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Float:
		return "float"
	case Enum:
		return "enum"
	case Bool:
		return "bool"
	case Text:
		return "text"
	}
	return "unknown"
}

// Param declares one parameter of an experiment.
type Param struct {
	Name     string // snake_case, unit in the name (link_gbps, duration_ms)
	Kind     Kind
	Default  string   // textual default
	Min, Max float64  // inclusive range for Int and Float
	Choices  []string // allowed values for Enum
	Help     string
	// Special lists the values that mean something other than their
	// number ("0": no marking; "-1": chosen by the run). Every
	// experiment that has a parameter of the same name must give a value
	// it accepts the same meaning (the vocabulary test checks it).
	Special []Special
	// Old lists former names of the parameter; a setting that uses one is
	// refused with a message naming the current name.
	Old []string
	// OldValues maps former values of an Enum parameter to their current
	// spelling; a setting that uses one is refused, naming the new value.
	OldValues map[string]string
	// Aliases maps other spellings of an Enum parameter's values to the
	// choice they stand for; a setting that uses one is accepted as that
	// choice (topology=leafspine is topology=leaf-spine).
	Aliases map[string]string
	// ResolveFrom, when set, works out an automatic value (see AutoFrom)
	// from the point's other parameters alone, so every output of a run,
	// and the stand-in rows of a plan, show what it resolves to.
	ResolveFrom func(Params) string
	// Only, when set, is the condition under which the parameter has any
	// effect; setting it where the condition holds at no point of the
	// grid is an error (see CheckRelevance).
	Only *Condition
}

// Special is a parameter value with a meaning of its own.
type Special struct {
	Value   string // canonical text
	Meaning string // "no marking", "10% of duration_ms"
	// Auto marks a value that the run replaces by a value it works out
	// (reported with Run.Resolved); the CSV shows what it resolved to.
	Auto bool
}

// Condition says when a parameter matters: when Param has one of Values
// (canonical text) or, with no Values, when Param is positive (a number)
// or not empty (text, NonEmpty); or when Or holds.
type Condition struct {
	Param    string
	Values   []string
	NonEmpty bool
	// Or, if set, is a second condition under which the parameter matters
	// too (bg_load on sr-cluster's racks or on a topology_file).
	Or *Condition
}

// Holds reports whether the condition holds at the point ps.
func (c *Condition) Holds(ps Params) bool {
	if c.Or != nil && c.Or.Holds(ps) {
		return true
	}
	v := ps.Text(c.Param)
	switch {
	case c.NonEmpty:
		return strings.TrimSpace(v) != ""
	case len(c.Values) == 0:
		f, err := strconv.ParseFloat(v, 64)
		return err == nil && f > 0
	}
	for _, w := range c.Values {
		if v == w {
			return true
		}
	}
	return false
}

// String renders the condition as it reads in a message: "trace=file",
// "protocol=atp|pa-atp", "load>0", "topology=racks or topology_file set".
func (c *Condition) String() string {
	var s string
	switch {
	case c.NonEmpty:
		s = c.Param + " set"
	case len(c.Values) == 0:
		s = c.Param + ">0"
	default:
		s = c.Param + "=" + strings.Join(c.Values, "|")
	}
	if c.Or != nil {
		s += " or " + c.Or.String()
	}
	return s
}

// IntParam declares an integer parameter in [min, max].
func IntParam(name string, def, min, max int, help string) Param {
	return Param{Name: name, Kind: Int, Default: strconv.Itoa(def), Min: float64(min), Max: float64(max), Help: help}
}

// FloatParam declares a real parameter in [min, max].
func FloatParam(name string, def, min, max float64, help string) Param {
	return Param{Name: name, Kind: Float, Default: formatFloat(def), Min: min, Max: max, Help: help}
}

// EnumParam declares a parameter taking one of choices.
func EnumParam(name, def string, choices []string, help string) Param {
	return Param{Name: name, Kind: Enum, Default: def, Choices: choices, Help: help}
}

// BoolParam declares a true/false parameter.
func BoolParam(name string, def bool, help string) Param {
	return Param{Name: name, Kind: Bool, Default: strconv.FormatBool(def), Help: help}
}

// TextParam declares a free-text parameter (a file name, for example); it
// may be empty but may not contain a comma, which separates --vary values,
// nor a control character (a CSV row stays one line).
func TextParam(name, def, help string) Param {
	return Param{Name: name, Kind: Text, Default: def, Help: help}
}

// Means returns p with value declared special: it means meaning rather
// than its number (ecn_k_kb "0": "no marking").
func (p Param) Means(value, meaning string) Param {
	p.Special = append(append([]Special(nil), p.Special...), Special{Value: value, Meaning: meaning})
	return p
}

// Auto returns p with value declared automatic: the run works out the
// value to use (meaning says how) and reports it with Run.Resolved.
func (p Param) Auto(value, meaning string) Param {
	p.Special = append(append([]Special(nil), p.Special...), Special{Value: value, Meaning: meaning, Auto: true})
	return p
}

// AutoFrom returns p with value declared automatic and resolved by f
// from the point's parameters (rto_backoff=auto: each protocol's timer
// rule); outputs show f's value (Outcome.Value).
func (p Param) AutoFrom(value, meaning string, f func(Params) string) Param {
	p = p.Auto(value, meaning)
	p.ResolveFrom = f
	return p
}

// Was returns p with former names, which settings are refused under with
// a message naming p.
func (p Param) Was(old ...string) Param {
	p.Old = append(append([]string(nil), p.Old...), old...)
	return p
}

// WasValue returns p with a former spelling old of its value now.
func (p Param) WasValue(old, now string) Param {
	m := make(map[string]string, len(p.OldValues)+1)
	for k, v := range p.OldValues {
		m[k] = v
	}
	m[old] = now
	p.OldValues = m
	return p
}

// Alias returns p with another spelling alias of its choice now,
// accepted as now.
func (p Param) Alias(alias, now string) Param {
	m := make(map[string]string, len(p.Aliases)+1)
	for k, v := range p.Aliases {
		m[k] = v
	}
	m[alias] = now
	p.Aliases = m
	return p
}

// OnlyWhen returns p declared relevant only when param has one of values.
func (p Param) OnlyWhen(param string, values ...string) Param {
	p.Only = &Condition{Param: param, Values: values}
	return p
}

// OrWhenSet returns p declared relevant also when the text parameter
// param is not empty, besides its OnlyWhen condition (p must have one).
func (p Param) OrWhenSet(param string) Param {
	if p.Only == nil {
		panic("experiments: OrWhenSet on " + p.Name + " without an OnlyWhen condition")
	}
	c := *p.Only
	c.Or = &Condition{Param: param, NonEmpty: true}
	p.Only = &c
	return p
}

// OnlyWhenPositive returns p declared relevant only when param > 0.
func (p Param) OnlyWhenPositive(param string) Param {
	p.Only = &Condition{Param: param}
	return p
}

// special returns the declaration of a special value, if any.
func (p Param) special(value string) (Special, bool) {
	for _, s := range p.Special {
		if s.Value == value {
			return s, true
		}
	}
	return Special{}, false
}

// isSpecial reports whether value is one of p's special values, which
// are accepted even outside [Min, Max] (compute_ms in [0.001, 1e7] or -1).
func (p Param) isSpecial(value string) bool {
	_, ok := p.special(value)
	return ok
}

// IsAuto reports whether value is one the run resolves (see Auto).
func (p Param) IsAuto(value string) bool {
	s, ok := p.special(value)
	return ok && s.Auto
}

// Allowed describes the values the parameter accepts, for describe and
// for error messages.
func (p Param) Allowed() string {
	switch p.Kind {
	case Int:
		return fmt.Sprintf("integer in [%d, %d]", int64(p.Min), int64(p.Max)) + p.outside()
	case Float:
		return fmt.Sprintf("number in [%s, %s]", formatFloat(p.Min), formatFloat(p.Max)) + p.outside()
	case Enum:
		s := "one of " + strings.Join(p.Choices, "|")
		aliases := make([]string, 0, len(p.Aliases))
		for a, now := range p.Aliases {
			aliases = append(aliases, a+" for "+now)
		}
		if len(aliases) > 0 {
			sort.Strings(aliases)
			s += " (or " + strings.Join(aliases, ", ") + ")"
		}
		return s
	case Bool:
		return "true|false"
	case Text:
		return "any text without commas or control characters"
	}
	return ""
}

// outside lists the special values outside [Min, Max] (" or -1").
func (p Param) outside() string {
	var out []string
	for _, s := range p.Special {
		if v, err := strconv.ParseFloat(s.Value, 64); err == nil && (v < p.Min || v > p.Max) {
			out = append(out, s.Value)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " or " + strings.Join(out, " or ")
}

// Plain decimal numbers only: an optional sign, digits with an optional
// fraction, an optional exponent. Go's own literal forms (hexadecimal,
// digit separators, "Inf") are refused for reals as for integers, so a
// number means the same to syncsim as to pandas, R or a spreadsheet.
var (
	decimalInt  = regexp.MustCompile(`^[+-]?[0-9]+$`)
	decimalReal = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
)

// parse checks text against the declaration and returns its canonical form.
func (p Param) parse(text string) (string, error) {
	t := strings.TrimSpace(text)
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%s=%q: %s; allowed: %s", p.Name, text, why, p.Allowed())
	}
	if t != text {
		return bad(fmt.Sprintf("a space around the value (write %s=%s)", p.Name, t))
	}
	if (p.Kind == Int || p.Kind == Float) && strings.HasPrefix(t, "+") {
		return bad(fmt.Sprintf("a number is written without a + sign (write %s=%s)", p.Name, t[1:]))
	}
	switch p.Kind {
	case Int:
		if !decimalInt.MatchString(t) {
			return bad("not an integer")
		}
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return bad("out of range")
		}
		c := strconv.FormatInt(v, 10)
		if (float64(v) < p.Min || float64(v) > p.Max) && !p.isSpecial(c) {
			return bad("out of range")
		}
		return c, nil
	case Float:
		if !decimalReal.MatchString(t) {
			return bad("not a finite number")
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsInf(v, 0) {
			return bad("not a finite number")
		}
		if (v < p.Min || v > p.Max) && !p.isSpecial(formatFloat(v)) {
			return bad("out of range")
		}
		return formatFloat(v), nil
	case Enum:
		for _, c := range p.Choices {
			if t == c {
				return c, nil
			}
		}
		if now, ok := p.Aliases[t]; ok {
			return now, nil
		}
		if now, ok := p.OldValues[t]; ok {
			return "", fmt.Errorf("%s=%s was renamed %s=%s", p.Name, t, p.Name, now)
		}
		return bad("unknown value")
	case Bool:
		v, err := strconv.ParseBool(t)
		if err != nil {
			return bad("not a boolean")
		}
		return strconv.FormatBool(v), nil
	case Text:
		if strings.Contains(t, ",") {
			return bad("contains a comma")
		}
		if strings.ContainsFunc(t, unicode.IsControl) {
			return bad("contains a control character")
		}
		return t, nil
	}
	return bad("undeclared kind")
}

// formatFloat is the canonical text of a real parameter: the shortest
// decimal that reads back exactly, with -0 written 0 (so "0" and "-0"
// are one point of a grid).
func formatFloat(v float64) string {
	if v == 0 {
		v = 0 // drops the sign of -0
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Params are the validated values of one parameter point. They are
// immutable; With returns a modified copy.
type Params struct {
	exp  *Experiment
	text []string // canonical text, aligned with exp.Params
}

func (ps Params) index(name string, kind Kind) int {
	for i, p := range ps.exp.Params {
		if p.Name == name {
			if p.Kind != kind {
				panic(fmt.Sprintf("experiments: %s: parameter %s is %v, read as %v", ps.exp.Name, name, p.Kind, kind))
			}
			return i
		}
	}
	panic(fmt.Sprintf("experiments: %s has no parameter %s", ps.exp.Name, name))
}

// Int returns an integer parameter.
func (ps Params) Int(name string) int {
	v, _ := strconv.Atoi(ps.text[ps.index(name, Int)])
	return v
}

// Float returns a real parameter.
func (ps Params) Float(name string) float64 {
	v, _ := strconv.ParseFloat(ps.text[ps.index(name, Float)], 64)
	return v
}

// String returns an enum parameter.
func (ps Params) String(name string) string { return ps.text[ps.index(name, Enum)] }

// Str returns a text parameter.
func (ps Params) Str(name string) string { return ps.text[ps.index(name, Text)] }

// Bool returns a boolean parameter.
func (ps Params) Bool(name string) bool { return ps.text[ps.index(name, Bool)] == "true" }

// Has reports whether the experiment has a parameter called name.
func (ps Params) Has(name string) bool {
	for _, p := range ps.exp.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// Text returns the canonical text of any parameter (for CSV).
func (ps Params) Text(name string) string {
	for i, p := range ps.exp.Params {
		if p.Name == name {
			return ps.text[i]
		}
	}
	panic(fmt.Sprintf("experiments: %s has no parameter %s", ps.exp.Name, name))
}

// Values returns the canonical texts in schema order.
func (ps Params) Values() []string { return append([]string(nil), ps.text...) }

// Experiment returns the experiment the point belongs to.
func (ps Params) Experiment() *Experiment { return ps.exp }

// Defaults returns the experiment's default point.
func (e *Experiment) Defaults() Params {
	ps := Params{exp: e, text: make([]string, len(e.Params))}
	for i, p := range e.Params {
		ps.text[i], _ = p.parse(p.Default)
	}
	return ps
}

// ParseValue validates text for the named parameter and returns its
// canonical form.
func (e *Experiment) ParseValue(name, text string) (string, error) {
	p, ok := e.Param(name)
	if !ok {
		return "", e.unknownParam(name)
	}
	return p.parse(text)
}

// unknownParam explains a name the experiment does not have: the
// current name when it is a former one, else the list of parameters.
func (e *Experiment) unknownParam(name string) error {
	for _, p := range e.Params {
		for _, old := range p.Old {
			if old == name {
				return fmt.Errorf("parameter %s of %s was renamed %s (%s)", name, e.Name, p.Name, p.Help)
			}
		}
	}
	names := make([]string, len(e.Params))
	for i, p := range e.Params {
		names[i] = p.Name
	}
	return fmt.Errorf("experiment %s has no parameter %q (parameters: %s)", e.Name, name, strings.Join(names, ", "))
}

// With returns a copy of base with one parameter replaced.
func (e *Experiment) With(base Params, key, text string) (Params, error) {
	v, err := e.ParseValue(key, text)
	if err != nil {
		return Params{}, err
	}
	out := Params{exp: e, text: append([]string(nil), base.text...)}
	for i, p := range e.Params {
		if p.Name == key {
			out.text[i] = v
		}
	}
	return out, nil
}

// Resolve applies "key=value" overrides to the defaults.
func (e *Experiment) Resolve(sets []string) (Params, error) {
	ps := e.Defaults()
	seen := map[string]bool{}
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return Params{}, fmt.Errorf("malformed setting %q: want key=value", s)
		}
		if k != strings.TrimSpace(k) {
			return Params{}, fmt.Errorf("malformed setting %q: a space around the name (write %s=%s)", s, strings.TrimSpace(k), strings.TrimSpace(v))
		}
		if seen[k] {
			return Params{}, fmt.Errorf("parameter %s set twice", k)
		}
		seen[k] = true
		var err error
		if ps, err = e.With(ps, k, v); err != nil {
			return Params{}, err
		}
	}
	return ps, nil
}
