// Package fuzzcheck holds what the fuzz targets share: seeding a corpus
// of file contents, and the rule every reader of user input keeps, that a
// refusal is one line (naming the file where it must).
package fuzzcheck

import (
	"strings"
	"testing"
)

// Seeds adds each text to f's corpus as a []byte, the argument of a
// target that reads a file's contents.
func Seeds(f *testing.F, texts ...string) {
	for _, s := range texts {
		f.Add([]byte(s))
	}
}

// Refused reports whether err refused the input, failing t unless its
// message is one line that starts with prefix ("" for any): a fuzz target
// returns when it does and checks what was read otherwise.
func Refused(t testing.TB, err error, prefix string) bool {
	t.Helper()
	if err == nil {
		return false
	}
	if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, prefix) {
		t.Fatalf("message is not one line starting %q: %q", prefix, msg)
	}
	return true
}
