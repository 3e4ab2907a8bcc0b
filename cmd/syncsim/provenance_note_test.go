package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWarnsWithoutCommit: a run that writes a CSV with a build that does
// not know its commit (a test binary is one: Go stamps no revision into
// it) says so on stderr, naming the sidecar; with a commit set at build
// time it says nothing, and a run without a CSV writes no sidecar to warn
// about.
func TestWarnsWithoutCommit(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "w.csv")
	_, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--csv", csv, "-q")
	want := "syncsim: warning: this build does not know its commit, so " + csv + ".json records commit \"unknown\""
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
	}
	if sidecar := readFile(t, csv+".json"); !strings.Contains(sidecar, `"commit": "unknown"`) {
		t.Errorf("the sidecar does not record the unknown commit:\n%s", sidecar)
	}
	if _, stderr, _ := runCLI(t, "run", "toy-cli", "-q"); strings.Contains(stderr, "warning") {
		t.Errorf("a run without a CSV warned: %q", stderr)
	}
	defer func(c string) { commit = c }(commit)
	commit = "0123456789abcdef"
	if _, stderr, code := runCLI(t, "run", "toy-cli", "--csv", filepath.Join(t.TempDir(), "c.csv"), "-q"); code != 0 || strings.Contains(stderr, "warning") {
		t.Errorf("with a commit: exit %d, stderr %q", code, stderr)
	}
}
