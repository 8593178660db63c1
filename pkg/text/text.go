// Package text shapes strings from other components to fit the insight API:
// bounded, and on one line where the API wants one.
package text

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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

// Cut returns s when it fits in max bytes, else as much of s as fits (never
// half a UTF-8 character) followed by a note of the cut that names where the
// whole text is: "… (cut at 4000 of 9000 bytes; the whole text is in
// ClusterOperator/machine-config status.conditions[Available])". A text
// another component wrote is never cut silently: a reader knows there is
// more, and where to read it. A max too small for the note truncates.
func Cut(s string, max int, where string) string {
	if len(s) <= max {
		return s
	}
	note := func(kept int) string {
		return fmt.Sprintf("… (cut at %d of %d bytes; the whole text is in %s)", kept, len(s), where)
	}
	// The note is longest with the most digits kept: len(s)'s.
	cut := max - len(note(len(s)))
	if cut <= 0 {
		return Truncate(s, max)
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + note(cut)
}

// OneLineCut folds all white space of s, newlines included, into single
// spaces and cuts the result to max bytes as Cut does.
func OneLineCut(s string, max int, where string) string {
	return Cut(strings.Join(strings.Fields(s), " "), max, where)
}

// TruncateCharacters cuts s to at most max characters, counted as an
// OpenAPI maxLength counts them (Unicode code points; a byte that is not
// UTF-8 is one, which JSON carries as U+FFFD), marking the cut with an
// ellipsis, itself one character; a max below zero is zero. The bounds of
// the insight API's strings are characters: a cut in bytes would shorten
// text in other scripts more than the API asks.
func TruncateCharacters(s string, max int) string {
	if max <= 0 {
		return ""
	}
	count := 0
	for i := range s {
		if count == max-1 && utf8.RuneCountInString(s[i:]) > 1 {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// OneLineCharacters folds all white space of s, newlines included, into
// single spaces and truncates the result to max characters.
func OneLineCharacters(s string, max int) string {
	return TruncateCharacters(strings.Join(strings.Fields(s), " "), max)
}

// boundedHashLength is how many hex digits of the SHA-256 of a shortened
// value Bounded keeps: 128 bits, so that two values that share their
// readable prefix still differ.
const boundedHashLength = 32

// BoundedMin is the least max Bounded takes: room for the hash and its
// separator.
const BoundedMin = boundedHashLength + 1

// Bounded returns s when it fits in max bytes, else a readable prefix of s
// (never half a UTF-8 character), "~" and 32 hex digits of the SHA-256 of
// all of s, max bytes in all. It suits identities and UIDs: the result is
// stable for the same s, distinct for distinct ones, and keeps the start
// a reader recognises. It panics on a max below BoundedMin, which no
// identity's bound is: a shorter result could not stay distinct.
func Bounded(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max < BoundedMin {
		panic("text.Bounded: max below BoundedMin")
	}
	sum := sha256.Sum256([]byte(s))
	cut := max - BoundedMin
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "~" + hex.EncodeToString(sum[:])[:boundedHashLength]
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

// About phrases an estimate for a sentence: "about 55m", and "under a
// minute" below one, which "about" would not read well before.
func About(d time.Duration) string {
	return estimate("about ", d)
}

// Approx is About's short form, for a list of estimates: "~55m", and
// "under a minute" below one.
func Approx(d time.Duration) string {
	return estimate("~", d)
}

func estimate(prefix string, d time.Duration) string {
	if d.Round(time.Minute) < time.Minute {
		return Minutes(d)
	}
	return prefix + Minutes(d)
}
