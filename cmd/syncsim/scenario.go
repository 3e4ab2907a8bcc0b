package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// A scenario file holds a study's configuration in TOML, so it can be
// kept next to its results and shared:
//
//	experiment = "incast"
//	seed = 1
//	trials = 5
//
//	[set]              # fixed parameters
//	link_gbps = 10
//	transport = "dctcp"
//
//	[vary]             # the grid; the first key varies slowest
//	senders = [2, 8, 32]
//	load = "0.1:0.5:0.2"
//
// Decoding is strict: an unknown key, a value of the wrong type or a
// parameter value the experiment refuses is an error naming the file and
// line. Flags given on the command line override the file: --set and
// --vary replace the file's entry for their parameter, --seed and
// --trials its values.
type scenario struct {
	path       string
	experiment string
	sets       []string // key=value, in file order
	varies     []string // key=v1,v2,..., in file order
	seed       *uint64
	trials     *int
	lines      map[string]int // "set.load" -> line, for messages
}

// loadScenario reads and decodes a scenario file.
func loadScenario(path string) (*scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--scenario: %w", err)
	}
	return parseScenario(path, data)
}

// at formats "FILE line N: " for key ("set.load"), or "FILE: " when the
// line is unknown.
func (s *scenario) at(key string) string {
	if l, ok := s.lines[key]; ok {
		return fmt.Sprintf("%s line %d: ", s.path, l)
	}
	return s.path + ": "
}

// parseScenario decodes the TOML text of a scenario file named path.
func parseScenario(path string, data []byte) (*scenario, error) {
	var raw map[string]any
	md, err := toml.Decode(string(data), &raw)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s line %d: %s", path, pe.Position.Line, oneLine(pe.Message))
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	s := &scenario{path: path, lines: keyLines(data)}
	bad := func(key, format string, args ...any) error {
		return fmt.Errorf("%s%s", s.at(key), fmt.Sprintf(format, args...))
	}
	for _, k := range md.Keys() {
		if len(k) == 0 {
			continue
		}
		top := k[0]
		switch {
		case len(k) == 1 && (top == "set" || top == "vary"):
			if _, ok := raw[top].(map[string]any); !ok {
				return nil, bad(top, "%s must be a table ([%s])", top, top)
			}
			continue
		case len(k) == 1:
			if err := s.top(top, raw[top]); err != nil {
				return nil, bad(top, "%v", err)
			}
			continue
		case len(k) == 2 && top == "set":
			v, err := scalar(raw["set"].(map[string]any)[k[1]])
			if err != nil {
				return nil, bad(k.String(), "set.%s: %v", k[1], err)
			}
			s.sets = append(s.sets, k[1]+"="+v)
			continue
		case len(k) == 2 && top == "vary":
			v, err := list(raw["vary"].(map[string]any)[k[1]])
			if err != nil {
				return nil, bad(k.String(), "vary.%s: %v", k[1], err)
			}
			s.varies = append(s.varies, k[1]+"="+v)
			continue
		}
		return nil, bad(k.String(), "unknown key %q (a scenario has experiment, seed, trials, [set] and [vary])", k.String())
	}
	return s, nil
}

// top decodes one top-level key.
func (s *scenario) top(key string, v any) error {
	switch key {
	case "experiment":
		name, ok := v.(string)
		if !ok || name == "" {
			return fmt.Errorf("experiment must be a name in quotes")
		}
		s.experiment = name
	case "seed":
		var seed uint64
		switch x := v.(type) {
		case int64:
			if x < 0 {
				return fmt.Errorf("seed must be at least 0, got %d", x)
			}
			seed = uint64(x)
		case string: // seeds beyond 2^63-1, which TOML integers cannot hold
			n, err := strconv.ParseUint(x, 10, 64)
			if err != nil {
				return fmt.Errorf("seed %q is not an integer in [0, 2^64-1]", x)
			}
			seed = n
		default:
			return fmt.Errorf("seed must be an integer")
		}
		s.seed = &seed
	case "trials":
		x, ok := v.(int64)
		if !ok {
			return fmt.Errorf("trials must be an integer")
		}
		if x < 1 || x > math.MaxInt32 {
			return fmt.Errorf("trials must be at least 1, got %d", x)
		}
		n := int(x)
		s.trials = &n
	default:
		return fmt.Errorf("unknown key %q (a scenario has experiment, seed, trials, [set] and [vary])", key)
	}
	return nil
}

// scalar renders a TOML scalar as parameter text.
func scalar(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("%v is not a finite number", x)
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	}
	return "", fmt.Errorf("want a number, a string or true/false, got %s", tomlType(v))
}

// list renders a vary entry: an array of scalars, or a string holding a
// --vary list ("1,2,3") or range ("0.1:0.5:0.2").
func list(v any) (string, error) {
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return "", errors.New("empty list")
		}
		return x, nil
	case []any:
		if len(x) == 0 {
			return "", errors.New("empty list")
		}
		items := make([]string, len(x))
		for i, it := range x {
			s, err := scalar(it)
			if err != nil {
				return "", fmt.Errorf("item %d: %v", i+1, err)
			}
			if strings.Contains(s, ",") {
				return "", fmt.Errorf("item %d %q contains a comma", i+1, s)
			}
			items[i] = s
		}
		return strings.Join(items, ","), nil
	}
	return "", fmt.Errorf("want an array of values or a string, got %s", tomlType(v))
}

func tomlType(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}

var (
	tableLine = regexp.MustCompile(`^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]`)
	keyLine   = regexp.MustCompile(`^\s*([A-Za-z0-9_.-]+)\s*=`)
)

// keyLines maps the keys of a TOML text ("set.load", "trials") to the
// line that defines them, for error messages. It reads the simple form
// scenario files take (tables and bare or dotted keys); keys it does not
// find are reported without a line.
func keyLines(data []byte) map[string]int {
	out := map[string]int{}
	table := ""
	for i, line := range strings.Split(string(data), "\n") {
		if m := tableLine.FindStringSubmatch(line); m != nil {
			table = m[1]
			if _, dup := out[table]; !dup {
				out[table] = i + 1
			}
			continue
		}
		if m := keyLine.FindStringSubmatch(line); m != nil {
			key := m[1]
			if table != "" {
				key = table + "." + key
			}
			if _, dup := out[key]; !dup {
				out[key] = i + 1
			}
		}
	}
	return out
}
