package timeline

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Event is one trace event as the viewers read it.
type Event struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   *float64        `json:"ts"`
	Dur  *float64        `json:"dur"`
	Pid  *int            `json:"pid"`
	Tid  *int            `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// Validate parses a trace Writer wrote and checks what the viewers need:
// it is a JSON object with a traceEvents array; every event has a name, a
// phase ("X" or "M"), a pid and a tid; every complete event a category, a
// ts and a non-negative dur; every thread with complete events, and its
// process, is named by a metadata event; and the complete events of one
// thread never overlap, to the picosecond (the viewers nest a thread's events, and a
// worker's compute runs one pass at a time). It returns the events.
func Validate(data []byte) ([]Event, error) {
	var f struct {
		TraceEvents *[]Event `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("trace does not parse: %w", err)
	}
	if f.TraceEvents == nil {
		return nil, fmt.Errorf("no traceEvents array")
	}
	type key struct{ pid, tid int }
	named := map[key]bool{}
	spans := map[key][][2]float64{}
	var keys []key
	for i, e := range *f.TraceEvents {
		if e.Name == "" || e.Pid == nil || e.Tid == nil {
			return nil, fmt.Errorf("event %d has no name, pid or tid", i)
		}
		switch e.Ph {
		case "M":
			switch e.Name {
			case "process_name":
				named[key{*e.Pid, -1}] = true
			case "thread_name":
				named[key{*e.Pid, *e.Tid}] = true
			}
		case "X":
			if e.Ts == nil || e.Dur == nil || *e.Dur < 0 || e.Cat == "" {
				return nil, fmt.Errorf("complete event %d (%s) has no category, ts or dur, or a negative dur", i, e.Name)
			}
			k := key{*e.Pid, *e.Tid}
			if spans[k] == nil {
				keys = append(keys, k)
			}
			spans[k] = append(spans[k], [2]float64{*e.Ts, *e.Ts + *e.Dur})
		default:
			return nil, fmt.Errorf("event %d has phase %q, want X or M", i, e.Ph)
		}
	}
	for _, k := range keys {
		if !named[k] || !named[key{k.pid, -1}] {
			return nil, fmt.Errorf("pid %d tid %d has events but no name", k.pid, k.tid)
		}
		ss := spans[k]
		sort.Slice(ss, func(i, j int) bool { return ss[i][0] < ss[j][0] })
		for i := 1; i < len(ss); i++ {
			// Times are whole picoseconds (1e-6 us); the tolerance
			// absorbs ts + dur's floating-point rounding only.
			if ss[i][0] < ss[i-1][1]-1e-7 {
				return nil, fmt.Errorf("pid %d tid %d: spans %v and %v overlap", k.pid, k.tid, ss[i-1], ss[i])
			}
		}
	}
	return *f.TraceEvents, nil
}
