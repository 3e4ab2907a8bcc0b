package inagg

import (
	"fmt"
	"strings"
)

// enumName is value v's name among names, or kind(v) when v is out of
// range: the String of the option types below (IncreaseMode, AWDScope,
// PMaxMode, OccupancyMode, IndexMode, GapRule).
func enumName[T ~uint8](names []string, v T, kind string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, uint8(v))
}

// parseEnum maps name to its index among names; the error says what was
// asked for (what) and lists the names.
func parseEnum[T ~uint8](names []string, name, what string) (T, error) {
	for i, n := range names {
		if n == name {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (allowed: %s)", what, name, strings.Join(names, ", "))
}
