package main

import "testing"

func TestWrapMarkdown(t *testing.T) {
	tests := []struct {
		name, in string
		width    int
		want     string
	}{
		{"paragraph lines are joined and refilled", "one two\nthree four five", 9, "one two\nthree\nfour five"},
		{"blank lines separate paragraphs", "a b\n\nc d", 80, "a b\n\nc d"},
		{"a long word stays whole", "abcdefghij k", 4, "abcdefghij\nk"},
		{"list items start lines and hang", "intro\n- first item here\n- second", 12, "intro\n- first item\n  here\n- second"},
		{"numbered items hang under their text", "1. alpha beta gamma", 11, "1. alpha\n   beta\n   gamma"},
		{"tables and code stay as written", "| a | b |\n|---|---|\n\n```\nx   y\n```\n    z  w", 3, "| a | b |\n|---|---|\n\n```\nx   y\n```\n    z  w"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := wrap(tc.in, tc.width); got != tc.want {
				t.Errorf("wrap(%q, %d) =\n%q\nwant\n%q", tc.in, tc.width, got, tc.want)
			}
		})
	}
}
