package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// manifestArgs reads the args list of the first container of a manifest
// under scripts/k8s and rebases its /study and /results paths into dir.
func manifestArgs(t *testing.T, name, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "scripts", "k8s", name))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*args: \[(.*)\]\s*$`).FindStringSubmatch(string(data))
	if m == nil {
		t.Fatalf("%s has no args: [...] line", name)
	}
	var args []string
	for _, a := range strings.Split(m[1], ",") {
		s, err := strconv.Unquote(strings.TrimSpace(a))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s = strings.ReplaceAll(s, "/study/", dir+"/")
		args = append(args, strings.ReplaceAll(s, "/results/", dir+"/"))
	}
	return args
}

// TestKubernetesManifests runs the commands of the Indexed Job and merge
// manifests as their pods would (JOB_COMPLETION_INDEX 0..7) and checks the
// merged file against the unsharded sweep.
func TestKubernetesManifests(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "study.toml", "experiment = \"toy-cli\"\ntrials = 3\n[vary]\nn = [1, 2, 3, 4, 5]\n")
	sweep := manifestArgs(t, "sweep-indexed-job.yaml", dir)
	for k := 0; k < 8; k++ {
		t.Setenv("JOB_COMPLETION_INDEX", strconv.Itoa(k))
		if _, stderr, code := runCLI(t, sweep...); code != 0 {
			t.Fatalf("pod %d: syncsim %v: exit %d %s", k, sweep, code, stderr)
		}
	}
	merge := manifestArgs(t, "merge-job.yaml", dir)
	if _, stderr, code := runCLI(t, merge...); code != 0 {
		t.Fatalf("merge: syncsim %v: exit %d %s", merge, code, stderr)
	}
	whole := filepath.Join(dir, "whole.csv")
	if _, stderr, code := runCLI(t, "sweep", "--scenario", filepath.Join(dir, "study.toml"), "--csv", whole); code != 0 {
		t.Fatal(stderr)
	}
	if a, b := readFile(t, filepath.Join(dir, "study.csv")), readFile(t, whole); a != b {
		t.Errorf("merged pods differ from the whole sweep:\n%s\n%s", a, b)
	}
}
