// Package text shapes strings from other components to fit the insight API:
// bounded, and on one line where the API wants one.
package text

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Truncate cuts s to at most max bytes without splitting a UTF-8 character,
// marking the cut with an ellipsis when there is room for one (three
// bytes); a max below zero is zero.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ellipsis = "…"
	mark := ellipsis
	if max < len(ellipsis) {
		mark = ""
	}
	cut := max - len(mark)
	if cut < 0 {
		cut = 0
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}

// OneLine folds all white space of s, newlines included, into single spaces
// and truncates the result to max bytes.
func OneLine(s string, max int) string {
	return Truncate(strings.Join(strings.Fields(s), " "), max)
}

// Minutes prints a duration to the minute, as an estimate reads: 1h40m,
// 55m, 2h, and "under a minute" below one.
func Minutes(d time.Duration) string {
	d = d.Round(time.Minute)
	if d < time.Minute {
		return "under a minute"
	}
	s := strings.TrimSuffix(d.String(), "0s")
	if hours, ok := strings.CutSuffix(s, "h0m"); ok {
		return hours + "h"
	}
	return s
}
