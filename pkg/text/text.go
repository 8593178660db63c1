// Package text shapes strings from other components to fit the insight API:
// bounded, and on one line where the API wants one.
package text

import (
	"strings"
	"unicode/utf8"
)

// Truncate cuts s to at most max bytes without splitting a UTF-8 character,
// marking the cut with an ellipsis.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ellipsis = "…"
	cut := max - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}

// OneLine folds all white space of s, newlines included, into single spaces
// and truncates the result to max bytes.
func OneLine(s string, max int) string {
	return Truncate(strings.Join(strings.Fields(s), " "), max)
}
