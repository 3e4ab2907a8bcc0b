package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestProgressInsideRun: off a terminal, a long run reports on stderr
// every --progress-every what it has simulated, its events per second
// and an estimate of the time left; the old run printed nothing.
func TestProgressInsideRun(t *testing.T) {
	_, stderr, code := runCLI(t, "run", "toy-cli", "--set", "mode=spin", "--set", "n=40", "--progress-every", "20ms")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	re := regexp.MustCompile(`toy-cli: 0/1 runs done; point 0 trial 0: simulated [0-9.]+ (us|ms|s), [0-9.]+ [kMG]? ?events/s, [0-9.]+% done, about \d+s left`)
	if !re.MatchString(stderr) {
		t.Errorf("no progress line inside the run in:\n%s", stderr)
	}
	_, stderr, _ = runCLI(t, "run", "toy-cli", "--set", "mode=spin", "--set", "n=40", "--progress-every", "20ms", "--quiet")
	if stderr != "" {
		t.Errorf("--quiet printed %q", stderr)
	}
}

// TestStallEndsRunWithMessage: a run whose progress stops while events
// go on is ended with a message naming what stalled; the old program
// burnt CPU until the end of the run.
func TestStallEndsRunWithMessage(t *testing.T) {
	_, stderr, code := runCLI(t, "run", "toy-cli", "--set", "mode=stall", "--set", "n=40", "--stall-ms", "1", "--quiet")
	if code != 1 || !strings.Contains(stderr, "stalled: no progress in toy spins from") || !strings.Contains(stderr, "--stall-ms") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "run", "toy-cli", "--set", "mode=stall", "--set", "n=40", "--stall-ms", "0", "--quiet"); code != 0 {
		t.Errorf("--stall-ms 0: exit %d %s", code, stderr)
	}
}
