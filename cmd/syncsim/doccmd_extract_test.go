package main

import (
	"fmt"
	"regexp"
	"strings"
)

// docCommand is one syncsim command line found in the documentation.
type docCommand struct {
	where  string   // file:line, or the script and invocation
	text   string   // as written
	args   []string // the words, "syncsim" first
	stdout string   // the file its output is redirected to (> FILE), if any
	skip   string   // why it is not checked: it shows placeholders, not values
}

// markdownCommands finds the syncsim command lines of a Markdown text:
// the lines of shell code blocks (``` with no language, sh, bash, shell
// or console) that start with syncsim (after a "$ " prompt, "sudo ",
// "nice -n N " or "/usr/bin/time -v "), or hold "<(syncsim ...)", with
// backslash continuations joined; and inline code spans that start with
// "syncsim " and hold more than the command's name. TOML blocks are
// returned too (tomls[i] is the last TOML block before command i), for
// commands that read the scenario file a page shows.
func markdownCommands(name, text string) (cmds []docCommand, tomls []string) {
	lines := strings.Split(text, "\n")
	fence, lang, lastTOML := "", "", ""
	var block []string
	// Inline code spans may wrap over the lines of a paragraph: they are
	// looked for in each paragraph joined into one line.
	var para []string
	paraStart := 0
	flushPara := func() {
		lines, text := para, strings.Join(para, " ")
		para = nil
		lineAt := func(off int) int { // the line of the paragraph holding byte off
			n := 0
			for k, l := range lines {
				if n += len(l) + 1; off < n {
					return paraStart + k
				}
			}
			return paraStart + len(lines) - 1
		}
		for _, loc := range inlineCode.FindAllStringSubmatchIndex(text, -1) {
			span := []string{text[loc[0]:loc[1]], text[loc[2]:loc[3]]}
			s := strings.TrimSpace(span[1])
			if !strings.HasPrefix(s, "syncsim ") || len(strings.Fields(s)) < 3 && s != "syncsim list" {
				continue // a mention of a command, not a command line
			}
			if cmd, ok := shellCommand(s); ok {
				cmd.where = fmt.Sprintf("%s:%d", name, lineAt(loc[0])+1)
				cmds = append(cmds, cmd)
				tomls = append(tomls, lastTOML)
			}
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			flushPara()
			if fence == "" {
				fence, lang = "```", strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
				block = nil
			} else {
				if lang == "toml" {
					lastTOML = strings.Join(block, "\n") + "\n"
				}
				fence = ""
			}
			continue
		}
		if fence != "" {
			block = append(block, line)
			if lang != "" && lang != "sh" && lang != "bash" && lang != "shell" && lang != "console" {
				continue
			}
			start := i
			for strings.HasSuffix(strings.TrimRight(line, " "), `\`) && i+1 < len(lines) {
				i++
				block = append(block, lines[i])
				line = strings.TrimSuffix(strings.TrimRight(line, " "), `\`) + " " + strings.TrimSpace(lines[i])
			}
			if cmd, ok := shellCommand(line); ok {
				cmd.where = fmt.Sprintf("%s:%d", name, start+1)
				cmds = append(cmds, cmd)
				tomls = append(tomls, lastTOML)
			}
			continue
		}
		if trimmed == "" {
			flushPara()
			continue
		}
		if len(para) == 0 {
			paraStart = i
		}
		para = append(para, trimmed)
	}
	flushPara()
	return cmds, tomls
}

// inlineCode matches a Markdown code span.
var inlineCode = regexp.MustCompile("`([^`]+)`")

// leaders are what may precede syncsim on a command line.
var leaders = regexp.MustCompile(`^(\$ |sudo |nice -n [0-9]+ |/usr/bin/time -v |time )+`)

// shellCommand reads one line of shell as a syncsim command, if it is one.
func shellCommand(line string) (docCommand, bool) {
	s := strings.TrimSpace(line)
	if i := strings.Index(s, "<(syncsim "); i >= 0 {
		s = s[i+2:]
		if j := strings.Index(s, ")"); j >= 0 {
			s = s[:j]
		}
	}
	s = leaders.ReplaceAllString(s, "")
	if strings.HasPrefix(s, "go run ./cmd/syncsim ") {
		s = "syncsim " + strings.TrimPrefix(s, "go run ./cmd/syncsim ")
	}
	if !strings.HasPrefix(s, "syncsim ") && s != "syncsim" {
		return docCommand{}, false
	}
	words, op, rest := shellWords(s)
	cmd := docCommand{text: strings.TrimSpace(line), args: words}
	if op == ">" {
		if out, _, _ := shellWords(rest); len(out) > 0 {
			cmd.stdout = out[0]
		}
	}
	for _, w := range words {
		if w == "..." || strings.HasSuffix(w, "...") || placeholder.MatchString(w) {
			cmd.skip = fmt.Sprintf("%q is a placeholder", w)
			break
		}
	}
	return cmd, true
}

// placeholder matches a word that stands for a value (EXP, FILE.csv,
// I/N, OUT.csv, k=P): capitals where a value goes.
var placeholder = regexp.MustCompile(`^(--?[a-z-]+=|[a-z_]+=)?[A-Z][A-Z0-9_]*([./][A-Za-z0-9_.]*)?$`)

// shellWords splits s into words as a POSIX shell does for a simple
// command: blanks separate words, quotes ('...' and "...") and
// backslashes escape, and an unquoted #, |, ;, &, < or > ends the
// command. It returns the words, the operator that ended them ("" at the
// end of s) and the text after it. Variables are not expanded.
func shellWords(s string) (words []string, op, rest string) {
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '#' && !inWord:
			flush()
			return words, "#", ""
		case strings.IndexByte("|;&<>", c) >= 0:
			flush()
			return words, string(c), s[i+1:]
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, "", ""
}
