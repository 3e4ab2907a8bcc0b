package experiments

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

var (
	kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
)

// Registry holds the experiments a program offers, by name. A program
// builds one at start-up by calling each scenario family's Register
// function (cmd/syncsim does, in a fixed order), then only reads it, so
// lookups need no lock. There is no package-level registry: what a
// program can run is what it registered, in the order it chose.
type Registry struct {
	byName map[string]*Experiment
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*Experiment{}}
}

// Register adds experiments to the registry. It panics on a duplicate
// name or an ill-formed declaration: both are programming errors found at
// start-up, before any user input is read.
func (r *Registry) Register(es ...*Experiment) {
	for _, e := range es {
		if err := e.validate(); err != nil {
			panic("experiments: " + err.Error())
		}
		if _, dup := r.byName[e.Name]; dup {
			panic("experiments: duplicate experiment " + e.Name)
		}
		r.byName[e.Name] = e
	}
}

// Lookup finds an experiment by name.
func (r *Registry) Lookup(name string) (*Experiment, error) {
	e, ok := r.byName[name]
	if !ok {
		known := strings.Join(r.Names(), ", ")
		if known == "" {
			known = "none registered"
		}
		return nil, fmt.Errorf("unknown experiment %q (known: %s)", name, known)
	}
	return e, nil
}

// Names lists the registered experiment names in order.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.byName))
	for n := range r.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// All returns the registered experiments sorted by name.
func (r *Registry) All() []*Experiment {
	names := r.Names()
	out := make([]*Experiment, len(names))
	for i, n := range names {
		out[i] = r.byName[n]
	}
	return out
}

func (e *Experiment) validate() error {
	if !kebab.MatchString(e.Name) {
		return fmt.Errorf("experiment name %q is not kebab-case", e.Name)
	}
	if e.Run == nil || e.Summary == "" {
		return fmt.Errorf("experiment %s needs Run and Summary", e.Name)
	}
	if e.Cost != nil {
		if err := e.Cost.validate(); err != nil {
			return fmt.Errorf("experiment %s: %w", e.Name, err)
		}
	}
	seen := map[string]bool{"experiment": true, "trial": true, "seed": true, "wall_s": true, "events_per_s": true}
	for _, p := range e.Params {
		if !snake.MatchString(p.Name) || seen[p.Name] {
			return fmt.Errorf("experiment %s: parameter %q is not snake_case or is reserved/duplicate", e.Name, p.Name)
		}
		seen[p.Name] = true
		if p.Help == "" {
			return fmt.Errorf("experiment %s: parameter %s has no help", e.Name, p.Name)
		}
		if _, err := p.parse(p.Default); err != nil {
			return fmt.Errorf("experiment %s: default of %s: %v", e.Name, p.Name, err)
		}
	}
	for _, p := range e.Params {
		if err := e.validateParam(p); err != nil {
			return fmt.Errorf("experiment %s: parameter %s: %v", e.Name, p.Name, err)
		}
	}
	for _, m := range e.Metrics {
		if !snake.MatchString(m.Name) || seen[m.Name] {
			return fmt.Errorf("experiment %s: metric %q is not snake_case or clashes", e.Name, m.Name)
		}
		seen[m.Name] = true
	}
	return e.validateBrief()
}

// validateParam checks the declarations beyond name and default: special
// values, former names and values, and the relevance condition.
func (e *Experiment) validateParam(p Param) error {
	for _, sp := range p.Special {
		if v, err := p.parse(sp.Value); err != nil || v != sp.Value || sp.Meaning == "" || (p.Kind != Int && p.Kind != Float && p.Kind != Enum) {
			return fmt.Errorf("special value %q is not a canonical value with a meaning", sp.Value)
		}
	}
	for _, old := range p.Old {
		if _, clash := e.Param(old); clash || !snake.MatchString(old) {
			return fmt.Errorf("former name %q is in use or not snake_case", old)
		}
	}
	for old, now := range p.OldValues {
		if _, err := p.parse(now); err != nil || slices.Contains(p.Choices, old) {
			return fmt.Errorf("former value %q: %q is not a choice, or %q still is", old, now, old)
		}
	}
	for alias, now := range p.Aliases {
		if !slices.Contains(p.Choices, now) || slices.Contains(p.Choices, alias) {
			return fmt.Errorf("alias %q: %q is not a choice, or %q is one", alias, now, alias)
		}
	}
	for c := p.Only; c != nil; c = c.Or {
		q, ok := e.Param(c.Param)
		if !ok || q.Name == p.Name {
			return fmt.Errorf("relevance names unknown parameter %q", c.Param)
		}
		for _, v := range c.Values {
			if w, err := q.parse(v); err != nil || w != v {
				return fmt.Errorf("relevance value %s=%q is not a canonical value", c.Param, v)
			}
		}
		switch {
		case c.NonEmpty && (q.Kind != Text || len(c.Values) > 0):
			return fmt.Errorf("relevance %s set needs a text parameter and no values", c.Param)
		case !c.NonEmpty && len(c.Values) == 0 && q.Kind != Int && q.Kind != Float:
			return fmt.Errorf("relevance %s>0 needs a numeric parameter", c.Param)
		}
	}
	return nil
}
