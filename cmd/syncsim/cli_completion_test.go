package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCompletionCandidates(t *testing.T) {
	reg := testRegistry()
	app := newApp(reg, nil, nil)
	for _, tc := range []struct {
		line  string
		has   []string
		hasnt []string
	}{
		{"syncsim ", []string{"run", "sweep", "merge", "completion", "plot", "summarise"}, []string{"__complete"}},
		{"syncsim summarise ", []string{"__files__"}, nil},
		{"syncsim summarise t.csv --", []string{"--vs", "--of", "--metric", "--where"}, nil},
		{"syncsim run ", []string{"incast", "toy-cli", "sr-cluster"}, nil},
		{"syncsim run incast --", []string{"--set", "--trials", "--csv", "--resume", "--help"}, []string{"--vary"}},
		{"syncsim sweep incast --", []string{"--vary", "--shard", "--shards"}, nil},
		{"syncsim run incast --set ", []string{"senders=", "transport="}, []string{"protocol="}},
		{"syncsim run --set ", []string{"senders=", "protocol="}, nil},
		{"syncsim sweep ina-leafspine --vary protocol=", []string{"protocol=atp", "protocol=pa-atp"}, []string{"senders="}},
		{"syncsim describe incast --format ", []string{"toml", "json"}, nil},
		{"syncsim sweep incast --csv ", []string{"__files__"}, nil},
		{"syncsim completion ", []string{"bash", "zsh"}, nil},
	} {
		got := candidates(app, reg, tc.line)
		for _, w := range tc.has {
			if !slices.Contains(got, w) {
				t.Errorf("%q: candidates %v lack %q", tc.line, got, w)
			}
		}
		for _, w := range tc.hasnt {
			if slices.Contains(got, w) {
				t.Errorf("%q: candidates %v include %q", tc.line, got, w)
			}
		}
	}
}

// TestCompletionScripts loads the bash script into bash and completes
// words as the shell would (zsh: the script parses); they call the binary
// on the PATH.
func TestCompletionScripts(t *testing.T) {
	bin := binary(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	os.Symlink(bin, filepath.Join(dir, "syncsim"))
	script, _, code := runCLI(t, "completion", "bash")
	if code != 0 {
		t.Fatal("completion bash failed")
	}
	complete := func(line string) []string {
		t.Helper()
		// COMP_WORDS as bash splits them (at spaces and at "=").
		words := strings.Fields(strings.ReplaceAll(line, "=", " = "))
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		var q []string
		for _, w := range words {
			q = append(q, "'"+w+"'")
		}
		prog := script + `
COMP_LINE='` + line + `'; COMP_POINT=${#COMP_LINE}
COMP_WORDS=(` + strings.Join(q, " ") + `); COMP_CWORD=$((${#COMP_WORDS[@]}-1))
_syncsim; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "--norc", "-c", prog)
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.Fields(string(out))
	}
	if got := complete("syncsim sw"); !slices.Equal(got, []string{"sweep"}) {
		t.Errorf("syncsim sw: %v", got)
	}
	if got := complete("syncsim run inc"); !slices.Equal(got, []string{"incast"}) {
		t.Errorf("syncsim run inc: %v", got)
	}
	if got := complete("syncsim run incast --set sen"); !slices.Equal(got, []string{"senders="}) {
		t.Errorf("--set sen: %v", got)
	}
	if got := complete("syncsim run incast --set transport=new"); !slices.Equal(got, []string{"newreno"}) {
		t.Errorf("--set transport=new: %v (bash completes the word after '=')", got)
	}
	if zsh, err := exec.LookPath("zsh"); err == nil {
		zscript, _, _ := runCLI(t, "completion", "zsh")
		p := filepath.Join(dir, "_syncsim")
		os.WriteFile(p, []byte(zscript), 0o644)
		if out, err := exec.Command(zsh, "-n", p).CombinedOutput(); err != nil {
			t.Errorf("zsh -n: %v %s", err, out)
		}
	} else {
		t.Log("no zsh on this machine: the zsh script is not checked")
	}
}
