package experiments

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

var (
	regMu    sync.RWMutex
	registry = map[string]*Experiment{}
	kebab    = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	snake    = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
)

// Register adds e to the registry. It panics on a duplicate name or an
// ill-formed declaration: both are programming errors found at start-up.
func Register(e *Experiment) {
	if err := e.validate(); err != nil {
		panic("experiments: " + err.Error())
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[e.Name]; dup {
		panic("experiments: duplicate experiment " + e.Name)
	}
	registry[e.Name] = e
}

// Unregister removes an experiment; tests use it to clean up.
func Unregister(name string) {
	regMu.Lock()
	delete(registry, name)
	regMu.Unlock()
}

// Lookup finds an experiment by name.
func Lookup(name string) (*Experiment, error) {
	regMu.RLock()
	e, ok := registry[name]
	regMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown experiment %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return e, nil
}

// Names lists the registered experiment names in order.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// All returns the registered experiments sorted by name.
func All() []*Experiment {
	names := Names()
	out := make([]*Experiment, len(names))
	regMu.RLock()
	for i, n := range names {
		out[i] = registry[n]
	}
	regMu.RUnlock()
	return out
}

func (e *Experiment) validate() error {
	if !kebab.MatchString(e.Name) {
		return fmt.Errorf("experiment name %q is not kebab-case", e.Name)
	}
	if e.Run == nil || e.Summary == "" {
		return fmt.Errorf("experiment %s needs Run and Summary", e.Name)
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
	for _, m := range e.Metrics {
		if !snake.MatchString(m.Name) || seen[m.Name] {
			return fmt.Errorf("experiment %s: metric %q is not snake_case or clashes", e.Name, m.Name)
		}
		seen[m.Name] = true
	}
	return nil
}
