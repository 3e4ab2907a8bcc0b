package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fenced matches a fenced block of a Markdown page: its language and its
// text.
var fenced = regexp.MustCompile("(?s)```(\\w+)\n(.*?)\n```")

// blockHead matches the first line of a Go or Markdown block that names a
// file: "// inagg/protocol.go" quotes it, "// + FILE" adds to it after
// the quote before, "// ~ FILE" replaces that quote ("<!-- FILE -->" in
// Markdown).
var blockHead = regexp.MustCompile(`^(?://|<!--) (?:([+~]) )?([\w./-]+\.\w+)(?: -->)?$`)

// guideBlock is a block of docs/extending.md: a quote of a file (op ""),
// a step that adds to it ("+") or replaces a quote ("~"), or a shell
// step ("sh").
type guideBlock struct {
	op, path, code string
}

// guideBlocks returns the quotes and steps of the guide, in order.
func guideBlocks(guide string) []guideBlock {
	var out []guideBlock
	for _, m := range fenced.FindAllStringSubmatch(guide, -1) {
		lang, text := m[1], m[2]
		switch lang {
		case "sh":
			out = append(out, guideBlock{op: "sh", code: text})
		case "go", "markdown":
			head, code, _ := strings.Cut(text, "\n")
			if h := blockHead.FindStringSubmatch(head); h != nil {
				out = append(out, guideBlock{op: h[1], path: h[2], code: code})
			}
		}
	}
	return out
}

// TestExtendingGuideQuotesTheCode: every block of docs/extending.md that
// names a file is that file's code, verbatim (a region of a worked
// example between "// guide:NAME" markers is the whole region), so the
// guide cannot drift from the code it teaches; a quote that a "~" step
// replaces may hold the replacement instead, so the guide still holds
// after its steps were followed; every step names the file of the quote
// before it. The worked examples themselves are Example tests of their
// packages, and TestExtendingGuideSteps follows the steps.
func TestExtendingGuideQuotesTheCode(t *testing.T) {
	repo := filepath.Join("..", "..")
	guide, err := os.ReadFile(filepath.Join(repo, "docs", "extending.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := guideBlocks(string(guide))
	quotes, regions := 0, 0
	for i, b := range blocks {
		if b.op == "+" || b.op == "~" {
			if i == 0 || blocks[i-1].op != "" || blocks[i-1].path != b.path {
				t.Errorf("docs/extending.md: the step %q on %s does not follow a quote of %s", b.code, b.path, b.path)
			}
		}
		if b.op != "" {
			continue
		}
		quotes++
		path, code := b.path, b.code
		src, err := os.ReadFile(filepath.Join(repo, path))
		if err != nil {
			t.Errorf("docs/extending.md quotes %s, which does not exist", path)
			continue
		}
		holds := strings.Contains(string(src), code+"\n")
		if i+1 < len(blocks) && blocks[i+1].op == "~" && blocks[i+1].path == path {
			holds = holds || strings.Contains(string(src), blocks[i+1].code+"\n")
		}
		if !holds {
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
	if quotes < 15 {
		t.Fatalf("docs/extending.md shows %d code blocks naming their file; the extraction is broken", quotes)
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
		// The worked example's page is not an experiment's.
		pages = slices.DeleteFunc(pages, func(p string) bool { return filepath.Base(filepath.Dir(p)) == "examples" })
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
