package main

import (
	"bytes"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestExtendingGuideSteps follows docs/extending.md on a scratch copy of
// the repository, as a reader would: every step of the page in order (a
// "+" block added after the quote before it, a "~" block in place of it,
// a shell block run from the root), then the tests of the packages the
// steps touch, which must pass with nothing edited that the page does not
// show. It then checks what the page promises of a new INA protocol: the
// copy of StrawAsyn+AL behaves exactly as StrawAsyn+AL (no fallback to
// another protocol), a constant without its entry does not compile, and
// an entry left empty stops the program at start-up.
func TestExtendingGuideSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a scratch copy of the repository")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	guide, err := os.ReadFile(filepath.Join(repo, "docs", "extending.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyRepo(t, repo, dir)
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	var quote *guideBlock
	edited := map[string]bool{}
	steps := 0
	for _, b := range guideBlocks(string(guide)) {
		switch b.op {
		case "":
			quote = &b
		case "+", "~":
			if quote == nil || quote.path != b.path {
				t.Fatalf("the step on %s does not follow a quote of it", b.path)
			}
			path := filepath.Join(dir, b.path)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(src), quote.code+"\n"); n != 1 {
				t.Fatalf("%s holds the quote before the step %d times, want once:\n%s", b.path, n, quote.code)
			}
			with := quote.code + "\n" + b.code + "\n"
			if b.op == "~" {
				with = b.code + "\n"
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(src), quote.code+"\n", with, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			edited[b.path] = true
			quote, steps = nil, steps+1
		case "sh":
			t.Logf("$ %s", b.code)
			run("bash", "-euo", "pipefail", "-c", b.code)
			steps++
		}
	}
	if steps < 12 {
		t.Fatalf("docs/extending.md has %d steps; is the extraction broken?", steps)
	}
	// The steps leave the code as gofmt writes it.
	for path := range edited {
		if !strings.HasSuffix(path, ".go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		if out, err := format.Source(src); err != nil || !bytes.Equal(out, src) {
			t.Errorf("after the guide's steps %s is not gofmt-clean (%v)", path, err)
		}
	}

	// The packages the steps edit pass vet; the tests that walk the
	// registries (the vocabulary, describe pages, the guide's quotes, every
	// experiment, every protocol) and those of the scenario families pass.
	run(goTool, "vet", "./cmd/syncsim", "./inagg", "./workloads/syncctl", "./scenarios/network", "./scenarios/hostsync")
	run(goTool, "test", "-short", "./cmd/syncsim", "./workloads/syncctl", "./scenarios/...")
	run(goTool, "test", "-run", "Protocol|Example", "./inagg")

	// The copy of StrawAsyn+AL is StrawAsyn+AL under another name: the
	// same rows, and not PA-ATP's (a forgotten case fell back to it), on
	// aggregator memory scarce enough (80 aggregators) for the two to
	// differ.
	bin := filepath.Join(dir, "syncsim-scratch")
	run(goTool, "build", "-o", bin, "./cmd/syncsim")
	rows := func(proto string) string {
		csv := filepath.Join(dir, proto+".csv")
		run(bin, "run", "ina-basic", "--set", "protocol="+proto, "--set", "gradient_a_mb=0.5", "--set", "gradient_b_mb=0.3",
			"--set", "udp_ms=0.1", "--set", "switch_mem_mib=0.02", "--csv", csv)
		b, err := os.ReadFile(csv)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(b), ","+proto+",", ",P,")
	}
	if mine, al, pa := rows("my-ablation"), rows("strawasyn-al"), rows("pa-atp"); mine != al || mine == pa {
		t.Errorf("my-ablation is not StrawAsyn+AL under another name:\n%s\nstrawasyn-al:\n%s\npa-atp:\n%s", mine, al, pa)
	}
	run(bin, "run", "ina-leafspine", "--set", "protocol=my-ablation", "--set", "init_awd_pkts=50", "--set", "awd_scope=worker",
		"--set", "aecn_count=gradients", "--dry-run")

	// A constant without its entry does not compile; an entry left empty
	// stops every program at start-up.
	protoGo := filepath.Join(dir, "inagg", "protocol.go")
	src, err := os.ReadFile(protoGo)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) {
		t.Helper()
		if !bytes.Contains(src, []byte(old)) {
			t.Fatalf("inagg/protocol.go lacks %q", old)
		}
		if err := os.WriteFile(protoGo, bytes.Replace(src, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("\tnumProtocols\n", "\tForgotten\n\tnumProtocols\n")
	build := exec.Command(goTool, "build", "./inagg")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err == nil {
		t.Error("a protocol constant without an entry compiles")
	} else {
		t.Logf("a constant without an entry: %s", out)
	}
	edit("\tMyAblation:  {name: \"my-ablation\"", "\t// MyAblation: {name: \"my-ablation\"")
	cmd := exec.Command(goTool, "run", "./cmd/syncsim", "list")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "has no entry of its own") {
		t.Errorf("syncsim with an empty protocol entry: %v\n%s", err, out)
	}
}

// copyRepo copies the repository's files (not .git) from src to dst.
func copyRepo(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
