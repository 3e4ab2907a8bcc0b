package experiments

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
// may be empty but may not contain a comma, which separates --vary values.
func TextParam(name, def, help string) Param {
	return Param{Name: name, Kind: Text, Default: def, Help: help}
}

// Allowed describes the values the parameter accepts, for describe and
// for error messages.
func (p Param) Allowed() string {
	switch p.Kind {
	case Int:
		return fmt.Sprintf("integer in [%d, %d]", int64(p.Min), int64(p.Max))
	case Float:
		return fmt.Sprintf("number in [%s, %s]", formatFloat(p.Min), formatFloat(p.Max))
	case Enum:
		return "one of " + strings.Join(p.Choices, "|")
	case Bool:
		return "true|false"
	case Text:
		return "any text without commas"
	}
	return ""
}

// parse checks text against the declaration and returns its canonical form.
func (p Param) parse(text string) (string, error) {
	t := strings.TrimSpace(text)
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%s=%q: %s; allowed: %s", p.Name, text, why, p.Allowed())
	}
	switch p.Kind {
	case Int:
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return bad("not an integer")
		}
		if float64(v) < p.Min || float64(v) > p.Max {
			return bad("out of range")
		}
		return strconv.FormatInt(v, 10), nil
	case Float:
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return bad("not a finite number")
		}
		if v < p.Min || v > p.Max {
			return bad("out of range")
		}
		return formatFloat(v), nil
	case Enum:
		for _, c := range p.Choices {
			if t == c {
				return c, nil
			}
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
		return t, nil
	}
	return bad("undeclared kind")
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

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

func (e *Experiment) unknownParam(name string) error {
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
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return Params{}, fmt.Errorf("malformed setting %q: want key=value", s)
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
