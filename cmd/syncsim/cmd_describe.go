package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

func describeCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "show what an experiment models, the parameters most users change and its headline metrics (--full: everything)",
		ArgsUsage: "EXP",
		Description: "--format text (default) prints one screen for a person: what the experiment\n" +
			"models, the parameters most users change and its headline metrics (those\n" +
			"summarise reports by default); with --full the whole description and every\n" +
			"parameter and metric. toml prints a commented scenario file that runs as it is\n" +
			"(every parameter at its default); json the schema (parameters with types,\n" +
			"defaults, ranges and units; metrics with units) for other tools.\n\n" +
			"EXAMPLES:\n" +
			"   syncsim describe ina-leafspine\n" +
			"   syncsim describe ina-leafspine --full | less\n" +
			"   syncsim describe incast --format toml > study.toml && syncsim run --scenario study.toml\n" +
			"   syncsim describe sr-cluster --format json | jq '.parameters[].name'",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, toml or json"},
			&cli.BoolFlag{Name: "full", Usage: "with --format text: the whole description and every parameter and metric"},
		},
		Action: func(c *cli.Context) error {
			e, err := experimentArg(c, reg, "")
			if err != nil {
				return err
			}
			switch f := c.String("format"); f {
			case "text":
				if c.Bool("full") {
					return describe(c.App.Writer, e)
				}
				return describeBrief(c.App.Writer, e)
			case "toml":
				return describeTOML(c.App.Writer, e)
			case "json":
				return writeJSON(c.App.Writer, schemaOf(e))
			default:
				return fmt.Errorf("--format %q: want text, toml or json", f)
			}
		},
	}
}

// describe prints the whole of e for describe --full: the Doc, the
// table of every parameter and that of every metric.
func describe(w io.Writer, e *experiments.Experiment) error {
	fmt.Fprintf(w, "%s\n\n", wrap(e.Name+": "+e.Summary, textWidth(w)))
	if e.Doc != "" {
		fmt.Fprintf(w, "%s\n\n", wrap(e.Doc, textWidth(w)))
	}
	fmt.Fprintln(w, wrap("Parameters (--set name=value, --vary name=v1,v2,...):", textWidth(w)))
	rows := make([][]string, len(e.Params))
	for i, p := range e.Params {
		rows[i] = []string{p.Name, p.Kind.String(), p.Default, allowedText(p), paramHelp(p)}
	}
	if err := renderTable(w, []string{"name", "type", "default", "allowed", "help"}, rows); err != nil {
		return err
	}
	fmt.Fprintln(w, "\n"+wrap("Metrics (CSV columns after trial and seed):", textWidth(w)))
	rows = make([][]string, len(e.Metrics))
	for i, m := range e.Metrics {
		rows[i] = []string{m.Name, m.Unit, m.Help}
	}
	return renderTable(w, []string{"name", "unit", "help"}, rows)
}

// allowedText is what a parameter accepts, with its special values.
func allowedText(p experiments.Param) string {
	s := p.Allowed()
	for _, sp := range p.Special {
		s += "; " + sp.Value + ": " + sp.Meaning
	}
	return s
}

// paramHelp is a parameter's help with its relevance condition.
func paramHelp(p experiments.Param) string {
	h := p.Help
	if p.Only != nil {
		h += " (has an effect only with " + p.Only.String() + ")"
	}
	return h
}

// describeTOML prints a scenario file for e that runs as it is: every
// parameter at its default under [set], each with its help and what it
// accepts as a comment, and an empty [vary] with an example.
func describeTOML(w io.Writer, e *experiments.Experiment) error {
	var b strings.Builder
	comment := func(text string) {
		for _, line := range strings.Split(wrap(text, 76), "\n") {
			b.WriteString("# " + line + "\n")
		}
	}
	comment(fmt.Sprintf("syncsim scenario: %s. %s.", e.Name, e.Summary))
	b.WriteString("#\n")
	if e.Doc != "" {
		comment(e.Doc)
		b.WriteString("#\n")
	}
	comment("Run it as it is with 'syncsim run --scenario FILE' (one point) or 'syncsim sweep --scenario FILE " +
		"--csv OUT.csv' (the grid of [vary]). Every parameter is at its default: edit a value, or move a parameter " +
		"to [vary] with a list of values to sweep it. Flags given with the command override this file.")
	fmt.Fprintf(&b, "\nexperiment = %s\nseed = 1\ntrials = 1\n\n[set]\n", tomlString(e.Name))
	for _, p := range e.Params {
		comment(fmt.Sprintf("%s. %s.", strings.TrimSuffix(paramHelp(p), "."), allowedText(p)))
		fmt.Fprintf(&b, "%s = %s\n", p.Name, tomlValue(p, p.Default))
	}
	b.WriteString("\n[vary]\n")
	if len(e.Params) > 0 {
		ex := e.Params[0]
		comment("One list per swept parameter; the first varies slowest. Numbers may also be a range string \"start:stop:step\". For example:")
		fmt.Fprintf(&b, "# %s = [%s]\n", ex.Name, tomlValue(ex, ex.Default))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tomlValue writes a parameter value as a TOML value of its kind.
func tomlValue(p experiments.Param, text string) string {
	switch p.Kind {
	case experiments.Int, experiments.Float, experiments.Bool:
		return text
	}
	return tomlString(text)
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// Schema types of describe --format json and list --format json.
type (
	experimentSchema struct {
		Name       string         `json:"name"`
		Summary    string         `json:"summary"`
		Doc        string         `json:"doc,omitempty"`
		Parameters []paramSchema  `json:"parameters"`
		Metrics    []metricSchema `json:"metrics"`
	}
	paramSchema struct {
		Name         string            `json:"name"`
		Type         string            `json:"type"`
		Default      any               `json:"default"`
		Min          *float64          `json:"min,omitempty"`
		Max          *float64          `json:"max,omitempty"`
		Choices      []string          `json:"choices,omitempty"`
		Unit         string            `json:"unit,omitempty"`
		Help         string            `json:"help"`
		Special      []specialSchema   `json:"special,omitempty"`
		OnlyWhen     string            `json:"only_when,omitempty"`
		FormerNames  []string          `json:"former_names,omitempty"`
		FormerValues map[string]string `json:"former_values,omitempty"`
		Aliases      map[string]string `json:"aliases,omitempty"`
		Common       bool              `json:"common,omitempty"` // among the parameters most users change
	}
	specialSchema struct {
		Value   any    `json:"value"`
		Meaning string `json:"meaning"`
		Auto    bool   `json:"auto,omitempty"`
	}
	metricSchema struct {
		Name     string `json:"name"`
		Unit     string `json:"unit"`
		Help     string `json:"help"`
		Headline bool   `json:"headline,omitempty"` // what summarise reports by default
	}
)

// schemaOf is e's machine-readable schema.
func schemaOf(e *experiments.Experiment) experimentSchema {
	s := experimentSchema{Name: e.Name, Summary: e.Summary, Doc: e.Doc, Parameters: []paramSchema{}, Metrics: []metricSchema{}}
	for _, p := range e.Params {
		ps := paramSchema{Name: p.Name, Type: p.Kind.String(), Default: jsonValue(p, p.Default), Help: p.Help,
			FormerNames: p.Old, FormerValues: p.OldValues, Aliases: p.Aliases, Common: slices.Contains(e.Common, p.Name)}
		if p.Kind == experiments.Int || p.Kind == experiments.Float {
			lo, hi := p.Min, p.Max
			ps.Min, ps.Max = &lo, &hi
		}
		if p.Kind == experiments.Enum {
			ps.Choices = p.Choices
		}
		ps.Unit, _ = experiments.UnitOf(p.Name)
		for _, sp := range p.Special {
			ps.Special = append(ps.Special, specialSchema{Value: jsonValue(p, sp.Value), Meaning: sp.Meaning, Auto: sp.Auto})
		}
		if p.Only != nil {
			ps.OnlyWhen = p.Only.String()
		}
		s.Parameters = append(s.Parameters, ps)
	}
	for _, m := range e.Metrics {
		s.Metrics = append(s.Metrics, metricSchema{Name: m.Name, Unit: m.Unit, Help: m.Help, Headline: slices.Contains(e.Headline, m.Name)})
	}
	return s
}

// jsonValue is a parameter value as JSON of its kind.
func jsonValue(p experiments.Param, text string) any {
	switch p.Kind {
	case experiments.Int:
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return v
		}
	case experiments.Float:
		if v, err := strconv.ParseFloat(text, 64); err == nil {
			return v
		}
	case experiments.Bool:
		return text == "true"
	}
	return text
}

// writeJSON writes v as indented JSON (with <, > and & as they are).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
