package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goBlock matches a Go code block of a Markdown page whose first line
// names the file it shows ("// inagg/protocol.go").
var goBlock = regexp.MustCompile("(?s)```go\n// ([\\w./-]+\\.go)\n(.*?)\n```")

// TestExtendingGuideQuotesTheCode: every Go block of docs/extending.md
// that names a file is that file's code, verbatim (a region of a worked
// example between "// guide:NAME" markers is the whole region), so the
// guide cannot drift from the code it teaches; the worked examples
// themselves are Example tests of their packages.
func TestExtendingGuideQuotesTheCode(t *testing.T) {
	repo := filepath.Join("..", "..")
	guide, err := os.ReadFile(filepath.Join(repo, "docs", "extending.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlock.FindAllStringSubmatch(string(guide), -1)
	if len(blocks) < 15 {
		t.Fatalf("docs/extending.md shows %d code blocks naming their file; the extraction is broken", len(blocks))
	}
	regions := 0
	for _, b := range blocks {
		path, code := b[1], b[2]
		src, err := os.ReadFile(filepath.Join(repo, path))
		if err != nil {
			t.Errorf("docs/extending.md quotes %s, which does not exist", path)
			continue
		}
		if !strings.Contains(string(src), code+"\n") {
			t.Errorf("docs/extending.md quotes %s, but the file no longer holds this code:\n%s", path, code)
			continue
		}
		// A block that starts where a guide region starts must be the
		// whole region.
		for _, region := range strings.Split(string(src), "// guide:")[1:] {
			name, body, _ := strings.Cut(region, "\n")
			body = strings.TrimSpace(body)
			if name != "end" && strings.HasPrefix(body, strings.TrimSpace(code)[:min(len(strings.TrimSpace(code)), 40)]) {
				regions++
				if strings.TrimSpace(code) != body {
					t.Errorf("docs/extending.md shows part of region %s of %s; show all of it", name, path)
				}
			}
		}
	}
	if regions != 6 {
		t.Errorf("docs/extending.md shows %d of the 6 worked-example regions", regions)
	}
}

// TestExperimentPagesAreLinked: every registered experiment's describe
// page (scenarios/<family>/<name>.md) exists and docs/manual.md links it,
// so a new experiment's page is reachable from the docs.
func TestExperimentPagesAreLinked(t *testing.T) {
	repo := filepath.Join("..", "..")
	manual, err := os.ReadFile(filepath.Join(repo, "docs", "manual.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range newRegistry().Names() {
		pages, _ := filepath.Glob(filepath.Join(repo, "scenarios", "*", name+".md"))
		if len(pages) != 1 {
			t.Errorf("experiment %s: %d describe pages scenarios/*/%s.md, want one", name, len(pages), name)
			continue
		}
		rel, _ := filepath.Rel(repo, pages[0])
		if link := "(../" + filepath.ToSlash(rel) + ")"; !strings.Contains(string(manual), link) {
			t.Errorf("docs/manual.md does not link %s's page %s", name, link)
		}
	}
}
