package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

func completionCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash or zsh",
		ArgsUsage: "bash|zsh",
		Description: "Completes commands, flags, experiment names, parameter names after --set and\n" +
			"--vary (and enum values after name=), and file names where a file is expected.\n\n" +
			"EXAMPLES:\n" +
			"   source <(syncsim completion bash)                       # this shell\n" +
			"   syncsim completion bash > ~/.local/share/bash-completion/completions/syncsim\n" +
			"   syncsim completion zsh > \"${fpath[1]}/_syncsim\"          # then: compinit",
		Action: func(c *cli.Context) error {
			switch sh := c.Args().First(); sh {
			case "bash":
				_, err := io.WriteString(c.App.Writer, bashCompletion)
				return err
			case "zsh":
				_, err := io.WriteString(c.App.Writer, zshCompletion)
				return err
			default:
				return fmt.Errorf("completion %q: want bash or zsh", sh)
			}
		},
	}
}

// The scripts ask the program itself for the candidates of the word under
// the cursor (syncsim __complete -- LINE), so they follow the experiments
// and parameters of the binary on the PATH.
const bashCompletion = `# bash completion for syncsim (syncsim completion bash)
_syncsim() {
    local line=${COMP_LINE:0:COMP_POINT}
    local cur=${COMP_WORDS[COMP_CWORD]}
    local word=${line##*[[:space:]]}
    local IFS=$'\n'
    local out
    out=$(command syncsim __complete -- "$line" 2>/dev/null) || return 0
    if [[ $out == __files__ ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
    fi
    # bash splits words at "=": strip what precedes its current word.
    local prefix=${word%"$cur"}
    local c
    COMPREPLY=()
    for c in $out; do
        [[ $c == "$word"* ]] && COMPREPLY+=("${c#"$prefix"}")
    done
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]]; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}
complete -F _syncsim syncsim
`

const zshCompletion = `#compdef syncsim
# zsh completion for syncsim (syncsim completion zsh)
_syncsim() {
    local line=${BUFFER[1,CURSOR]}
    local -a cands eq plain
    cands=("${(@f)$(command syncsim __complete -- "$line" 2>/dev/null)}")
    if [[ ${cands[1]} == __files__ ]]; then
        _files
        return
    fi
    local c
    for c in $cands; do
        [[ -z $c ]] && continue
        if [[ $c == *= ]]; then eq+=("$c"); else plain+=("$c"); fi
    done
    (( $#plain )) && compadd -- $plain
    (( $#eq )) && compadd -S '' -- $eq
}
if [[ $funcstack[1] == _syncsim ]]; then _syncsim "$@"; else compdef _syncsim syncsim; fi
`

// completeCommand is the hidden helper of the completion scripts: it
// prints the candidates for the last word of a command line, one per
// line, or __files__ where a file name is expected.
func completeCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:            "__complete",
		Hidden:          true,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) > 0 && args[0] == "--" {
				args = args[1:]
			}
			line := strings.Join(args, " ")
			for _, s := range candidates(c.App, reg, line) {
				fmt.Fprintln(c.App.Writer, s)
			}
			return nil
		},
	}
}

// candidates returns the completions of the last word of line (which
// starts with the program name).
func candidates(app *cli.App, reg *experiments.Registry, line string) []string {
	words := strings.Fields(line)
	if len(line) == 0 || strings.ContainsAny(line[len(line)-1:], " \t") {
		words = append(words, "")
	}
	if len(words) < 2 {
		return nil
	}
	cur := words[len(words)-1]
	if len(words) == 2 { // the command
		var out []string
		for _, c := range app.Commands {
			if !c.Hidden && !slices.Contains(out, c.Name) {
				out = append(out, c.Name)
			}
		}
		if !slices.Contains(out, "help") {
			out = append(out, "help") // urfave/cli adds it when the app runs
		}
		return out
	}
	cmd := findCommand(app, words[1])
	if cmd == nil {
		return nil
	}
	prev := words[len(words)-2]
	exp := experimentOnLine(reg, cmd, words[2:len(words)-1])
	if strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") {
		if f := lookupFlag(cmd, flagName(prev)); f != nil && takesValue(f) {
			return flagValues(reg, exp, flagName(prev), cur)
		}
	}
	if strings.HasPrefix(cur, "-") {
		var out []string
		for _, f := range cmd.Flags {
			out = append(out, "--"+f.Names()[0])
		}
		return append(out, "--help")
	}
	switch cmd.Name {
	case "describe", "run", "sweep":
		return reg.Names()
	case "merge", "plot", "summarise":
		return []string{"__files__"}
	case "completion":
		return []string{"bash", "zsh"}
	}
	return nil
}

// experimentOnLine finds the experiment named among the words.
func experimentOnLine(reg *experiments.Registry, cmd *cli.Command, words []string) *experiments.Experiment {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			if f := lookupFlag(cmd, flagName(w)); f != nil && takesValue(f) && !strings.Contains(w, "=") {
				i++
			}
			continue
		}
		if e, err := reg.Lookup(w); err == nil {
			return e
		}
	}
	return nil
}

// flagValues completes the value of a flag.
func flagValues(reg *experiments.Registry, exp *experiments.Experiment, flag, cur string) []string {
	switch flag {
	case "set", "vary":
		exps := reg.All()
		if exp != nil {
			exps = []*experiments.Experiment{exp}
		}
		name, _, hasEq := strings.Cut(cur, "=")
		seen := map[string]bool{}
		var out []string
		for _, e := range exps {
			for _, p := range e.Params {
				if hasEq {
					if p.Name != name {
						continue
					}
					vals := p.Choices
					if p.Kind == experiments.Bool {
						vals = []string{"true", "false"}
					}
					if len(vals) == 0 {
						vals = []string{p.Default}
					}
					for _, v := range vals {
						if !seen[v] {
							seen[v] = true
							out = append(out, p.Name+"="+v)
						}
					}
					continue
				}
				if !seen[p.Name] {
					seen[p.Name] = true
					out = append(out, p.Name+"=")
				}
			}
		}
		sort.Strings(out)
		return out
	case "format":
		return []string{"text", "toml", "json"}
	case "csv", "series-dir", "scenario", "output", "o":
		return []string{"__files__"}
	case "shard":
		return []string{"auto"}
	}
	return nil
}
